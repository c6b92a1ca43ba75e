// Signed decisions: format, canonical bytes, node:crypto signing and verification. The browser-safe
// verifier is imported from "./verifyNoble" directly, so bundles do not pull in node:crypto.
export { canonicalDecisionBytes, canonicalDecisionText, DecisionFieldError } from "./canonical";
export {
  DECISION_LIFETIME_SECONDS,
  DECISION_OUTCOMES,
  DECISION_SIGNATURE_ALG,
  DECISION_VERSION,
  DEFAULT_SKEW_SECONDS,
  type DecisionOutcome,
  SIGNED_FIELD_ORDER,
  type SignedDecision,
  type SignedFields,
} from "./format";
export {
  createDecisionSigner,
  type DecisionRequest,
  type DecisionSigner,
  type DecisionSigningKey,
  SigningKeyError,
} from "./sign";
export {
  type ExpectedRequest,
  type VerificationReason,
  type VerificationResult,
  type VerifyOptions,
  VerifyOptionsError,
} from "./verification";
export { verifyDecisionNoble } from "./verifyNoble";
export { ED25519_SPKI_PREFIX_HEX, verifyDecision } from "./verifyNode";
