// verifyDecision: the spec's client-side contract for a signed decision, on the service's own rules
// (core/decision/verification.ts, shared with POST /v1/decisions/verify) and @noble/ed25519 over Web Crypto,
// plus the two request matches only a client can make: the nonce it sent and the identity it asked about.
import type { SignedDecision } from "../../core/decision/format";
import { type VerificationReason, VerifyOptionsError } from "../../core/decision/verification";
import { verifyDecisionNoble } from "../../core/decision/verifyNoble";
import type { Environment } from "../../core/environment";
import type { PublicKeyEntry } from "../../core/keyring/publicKeyEntry";
import { SdkConfigError } from "./errors";

export type { SignedDecision };

/** The spec's reasons, the service verifier's own (malformed, unsupported_version, *_mismatch), and ours. */
export type DecisionVerificationReason = VerificationReason | "nonce_mismatch" | "identity_mismatch";

export interface DecisionVerification {
  valid: boolean;
  reason: DecisionVerificationReason;
}

/** What was asked for. `environment` is required; every other field given must match the decision. */
export interface ExpectedDecision {
  environment: Environment;
  launchpadId?: string;
  chain?: string;
  /** EVM addresses compare without case, every other address exactly. */
  launcher?: string;
  /** The nonce sent with the request; an absent nonce in the decision does not match. */
  nonce?: string;
  /** `NAME::TICKER` as folded by the service. */
  identityKey?: string;
}

export interface VerifyDecisionOptions {
  expect: ExpectedDecision;
  /** Defaults to the current time. */
  now?: Date | number;
  /** Clock difference tolerated on issuedAt and expiresAt; 30 s by default. */
  skewSeconds?: number;
}

/**
 * Verifies a signed decision (any JSON value) against the published keys (GET /v1/keys). Only the key whose
 * kid equals keyId is used; revoked keys are refused. Every reason except `ok` means: do not launch.
 * Throws SdkConfigError only for invalid options (an unknown environment, a negative skew, an invalid now).
 */
export async function verifyDecision(
  decision: unknown,
  keys: readonly PublicKeyEntry[],
  options: VerifyDecisionOptions,
): Promise<DecisionVerification> {
  const { environment, launchpadId, chain, launcher, nonce, identityKey } = options.expect;
  let result: DecisionVerification;
  try {
    result = await verifyDecisionNoble(decision, {
      keys,
      environment,
      expect: { launchpadId, chain, launcher },
      ...(options.now === undefined ? {} : { now: options.now }),
      ...(options.skewSeconds === undefined ? {} : { skewSeconds: options.skewSeconds }),
    });
  } catch (error) {
    if (error instanceof VerifyOptionsError) throw new SdkConfigError(error.message, { cause: error });
    throw error;
  }
  if (!result.valid) return result;
  const verified = decision as SignedDecision;
  if (nonce !== undefined && verified.nonce !== nonce) return { valid: false, reason: "nonce_mismatch" };
  if (identityKey !== undefined && verified.identityKey !== identityKey) {
    return { valid: false, reason: "identity_mismatch" };
  }
  return result;
}
