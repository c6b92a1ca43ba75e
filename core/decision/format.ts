// The signed validation decision (POST /v1/launches/validate). Browser-safe: the partner SDK imports it.
import type { Environment } from "../environment";

/** Decision format version; the first of the signed fields. A new canonical form gets a new version. */
export const DECISION_VERSION = "svc-decision-v1";
export const DECISION_SIGNATURE_ALG = "ed25519";
/** expiresAt = issuedAt + 5 minutes. */
export const DECISION_LIFETIME_SECONDS = 300;
/** Default tolerance for clock differences between signer and verifier. */
export const DEFAULT_SKEW_SECONDS = 30;

export const DECISION_OUTCOMES = ["allow", "allow_authorized_only", "block", "recheck_required"] as const;
export type DecisionOutcome = (typeof DECISION_OUTCOMES)[number];

/** The 13 fields covered by the signature, in canonical order (the spec's "Decision verification"). */
export const SIGNED_FIELD_ORDER = [
  "version",
  "identityKey",
  "normalizedName",
  "normalizedTicker",
  "chain",
  "launchpadId",
  "launcher",
  "decision",
  "reason",
  "issuedAt",
  "expiresAt",
  "nonce",
  "requestId",
] as const;

export interface SignedFields {
  version: string;
  requestId: string;
  identityKey: string;
  normalizedName: string;
  normalizedTicker: string;
  chain: string;
  launchpadId: string;
  launcher: string;
  decision: DecisionOutcome;
  reason: string;
  issuedAt: string;
  expiresAt: string;
  /** Echo of the request nonce; absent when the request had none (signed as ""). */
  nonce?: string;
}

export interface SignedDecision extends SignedFields {
  /**
   * Environment of the key that signed. Not among the signed bytes: it is bound by the key instead,
   * because sandbox and production never share signing keys. Verifiers check it against both.
   */
  environment: Environment;
  signature: string;
  signatureAlg: typeof DECISION_SIGNATURE_ALG;
  keyId: string;
}
