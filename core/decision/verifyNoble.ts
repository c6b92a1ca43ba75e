// Isomorphic decision verifier on @noble/ed25519: browsers, edge runtimes and Node alike (it needs only
// globalThis.crypto.subtle). No node-only imports in this file or anything it imports; a test enforces it.
import { verifyAsync } from "@noble/ed25519";
import {
  checkAfterSignature,
  checkBeforeSignature,
  type VerificationResult,
  type VerifyOptions,
} from "./verification";

/** Verifies a signed decision (any JSON value) against the published keys; same answers as verifyDecision. */
export async function verifyDecisionNoble(
  input: unknown,
  options: VerifyOptions,
): Promise<VerificationResult> {
  const outcome = checkBeforeSignature(input, options);
  if ("result" in outcome) return outcome.result;
  const { message, signature, publicKey } = outcome.check;
  let signatureValid: boolean;
  try {
    // The strict (RFC 8032) branch, like OpenSSL: non-canonical encodings and small-order keys fail.
    signatureValid = await verifyAsync(signature, message, publicKey, { zip215: false });
  } catch {
    signatureValid = false;
  }
  if (!signatureValid) return { valid: false, reason: "bad_signature" };
  return checkAfterSignature(outcome.check, options);
}
