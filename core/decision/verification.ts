// Verification rules shared by the node:crypto and the noble verifier, so both give identical answers;
// they differ only in the Ed25519 primitive. Browser-safe.
import { sameAddress } from "../address/equality";
import { decodeBase64Strict } from "../encoding/base64";
import { type Environment, isEnvironment } from "../environment";
import { ServiceError } from "../errors/serviceError";
import type { PublicKeyEntry } from "../keyring/publicKeyEntry";
import { canonicalDecisionBytes, unsignableFieldProblem } from "./canonical";
import {
  DECISION_OUTCOMES,
  DECISION_SIGNATURE_ALG,
  DECISION_VERSION,
  DEFAULT_SKEW_SECONDS,
  SIGNED_FIELD_ORDER,
  type SignedDecision,
} from "./format";

/**
 * The spec's reasons (ok, expired, not_yet_valid, unknown_key, bad_signature, no_signature, revoked_key),
 * plus: malformed (a required field is missing, not a string or not a valid date), unsupported_version
 * (a decision format this verifier does not know), and one *_mismatch per field that rule 5 compares
 * against the request. Every reason except ok means: do not launch.
 */
export type VerificationReason =
  | "ok"
  | "expired"
  | "not_yet_valid"
  | "unknown_key"
  | "revoked_key"
  | "bad_signature"
  | "no_signature"
  | "malformed"
  | "unsupported_version"
  | "environment_mismatch"
  | "launchpad_mismatch"
  | "chain_mismatch"
  | "launcher_mismatch";

export interface VerificationResult {
  valid: boolean;
  reason: VerificationReason;
}

/** What the caller asked for; every field given here must match the decision (rule 5). */
export interface ExpectedRequest {
  launchpadId?: string;
  chain?: string;
  launcher?: string;
}

export interface VerifyOptions {
  /** Published keys (GET /v1/keys). Only the entry whose kid equals keyId is ever used. */
  keys: readonly PublicKeyEntry[];
  /** The environment the caller is working in; the decision and its key must both belong to it. */
  environment: Environment;
  expect?: ExpectedRequest;
  /** Defaults to the current time. */
  now?: Date | number;
  skewSeconds?: number;
}

/** Thrown for a verifier misconfiguration (a programming error, not a verification result). */
export class VerifyOptionsError extends ServiceError {
  constructor(message: string) {
    super(message);
  }
}

/** Inputs for the Ed25519 check once the decision is well-formed and its key is known. */
export interface SignatureCheck {
  decision: SignedDecision;
  key: PublicKeyEntry;
  message: Uint8Array;
  signature: Uint8Array;
  publicKey: Uint8Array;
}

export type PreSignatureOutcome = { result: VerificationResult } | { check: SignatureCheck };

const ED25519_SIGNATURE_LENGTH = 64;
const ED25519_PUBLIC_KEY_LENGTH = 32;

/** Every signed field except the optional nonce, plus the key id and algorithm: all required strings. */
const REQUIRED_STRING_FIELDS = [
  ...SIGNED_FIELD_ORDER.filter((field) => field !== "nonce"),
  "keyId",
  "signatureAlg",
] as const;

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/;

function fail(reason: Exclude<VerificationReason, "ok">): { result: VerificationResult } {
  return { result: { valid: false, reason } };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function parseDateTime(value: string): number | null {
  if (!ISO_DATE_TIME.test(value)) return null;
  const millis = Date.parse(value);
  return Number.isNaN(millis) ? null : millis;
}

/** The decision when every field has the right type and form, else null. */
function wellFormedDecision(input: Record<string, unknown>): SignedDecision | null {
  for (const field of REQUIRED_STRING_FIELDS) {
    const value = input[field];
    if (typeof value !== "string" || unsignableFieldProblem(value) !== null) return null;
  }
  const nonce = input.nonce;
  if (nonce !== undefined && (typeof nonce !== "string" || unsignableFieldProblem(nonce) !== null))
    return null;
  if (!isEnvironment(input.environment)) return null;
  if (input.signatureAlg !== DECISION_SIGNATURE_ALG) return null;
  if (!(DECISION_OUTCOMES as readonly unknown[]).includes(input.decision)) return null;
  if (parseDateTime(input.issuedAt as string) === null || parseDateTime(input.expiresAt as string) === null) {
    return null;
  }
  return input as unknown as SignedDecision;
}

/** The one entry for keyId; a revoked duplicate wins so that revocation can never be bypassed. */
function keyFor(keys: readonly PublicKeyEntry[], keyId: string): PublicKeyEntry | undefined {
  const matches = keys.filter((entry) => entry.kid === keyId);
  return matches.find((entry) => entry.status === "revoked") ?? matches[0];
}

function checkedSkewSeconds(options: VerifyOptions): number {
  const skew = options.skewSeconds ?? DEFAULT_SKEW_SECONDS;
  if (!Number.isFinite(skew) || skew < 0) {
    throw new VerifyOptionsError(`skewSeconds must be a finite number >= 0 (got ${skew}); omit it for 30 s.`);
  }
  return skew;
}

function nowMillis(options: VerifyOptions): number {
  const now = options.now ?? Date.now();
  return typeof now === "number" ? now : now.getTime();
}

function checkedOptions(options: VerifyOptions): void {
  if (!isEnvironment(options.environment)) {
    throw new VerifyOptionsError(
      `environment must be "sandbox" or "production" (got ${JSON.stringify(options.environment)}).`,
    );
  }
  checkedSkewSeconds(options);
  // An invalid clock would make every freshness comparison false, i.e. accept expired decisions.
  if (!Number.isFinite(nowMillis(options))) {
    throw new VerifyOptionsError(
      "now must be a valid Date or a finite number of milliseconds; omit it for the current time.",
    );
  }
}

/** Everything up to the Ed25519 check: presence, form, version, key choice and signature decoding. */
export function checkBeforeSignature(input: unknown, options: VerifyOptions): PreSignatureOutcome {
  checkedOptions(options);
  if (!isRecord(input)) return fail("malformed");
  if (typeof input.signature !== "string" || input.signature.length === 0) return fail("no_signature");
  if (typeof input.version === "string" && input.version !== DECISION_VERSION)
    return fail("unsupported_version");
  const decision = wellFormedDecision(input);
  if (decision === null) return fail("malformed");

  const key = keyFor(options.keys, decision.keyId);
  if (key === undefined) return fail("unknown_key");
  if (key.status === "revoked") return fail("revoked_key");
  const publicKey = decodeBase64Strict(key.publicKeyBase64);
  if (publicKey === null || publicKey.length !== ED25519_PUBLIC_KEY_LENGTH) return fail("unknown_key");

  const signature = decodeBase64Strict(decision.signature);
  if (signature === null || signature.length !== ED25519_SIGNATURE_LENGTH) return fail("bad_signature");
  return { check: { decision, key, message: canonicalDecisionBytes(decision), signature, publicKey } };
}

/** Everything after a valid signature: environment binding, freshness, and the request match. */
export function checkAfterSignature(check: SignatureCheck, options: VerifyOptions): VerificationResult {
  const { decision, key } = check;
  if (decision.environment !== key.environment || decision.environment !== options.environment) {
    return { valid: false, reason: "environment_mismatch" };
  }
  const skewMillis = checkedSkewSeconds(options) * 1000;
  const now = nowMillis(options);
  if (now > (parseDateTime(decision.expiresAt) as number) + skewMillis)
    return { valid: false, reason: "expired" };
  if ((parseDateTime(decision.issuedAt) as number) > now + skewMillis)
    return { valid: false, reason: "not_yet_valid" };

  const expected = options.expect ?? {};
  if (expected.launchpadId !== undefined && expected.launchpadId !== decision.launchpadId) {
    return { valid: false, reason: "launchpad_mismatch" };
  }
  if (expected.chain !== undefined && expected.chain !== decision.chain)
    return { valid: false, reason: "chain_mismatch" };
  if (expected.launcher !== undefined && !sameAddress(decision.launcher, expected.launcher)) {
    return { valid: false, reason: "launcher_mismatch" };
  }
  return { valid: true, reason: "ok" };
}
