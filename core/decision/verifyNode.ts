// Server-side decision verifier on node:crypto (OpenSSL). Keys are imported as SPKI DER through the
// spec's prefix, as the spec tells every verifier to do.
import { createPublicKey, type KeyObject, verify } from "node:crypto";
import {
  checkAfterSignature,
  checkBeforeSignature,
  type VerificationResult,
  type VerifyOptions,
} from "./verification";

/** DER header of an Ed25519 SubjectPublicKeyInfo; the raw 32-byte key follows it. */
export const ED25519_SPKI_PREFIX_HEX = "302a300506032b6570032100";
const SPKI_PREFIX = Buffer.from(ED25519_SPKI_PREFIX_HEX, "hex");

// Imported keys by their raw bytes; the published set is a handful of keys, the bound is a safety net.
const importedKeys = new Map<string, KeyObject>();
const IMPORTED_KEYS_LIMIT = 256;

function importedPublicKey(raw: Uint8Array): KeyObject {
  const id = Buffer.from(raw).toString("base64");
  let key = importedKeys.get(id);
  if (key === undefined) {
    key = createPublicKey({ key: Buffer.concat([SPKI_PREFIX, raw]), format: "der", type: "spki" });
    if (importedKeys.size >= IMPORTED_KEYS_LIMIT) importedKeys.clear();
    importedKeys.set(id, key);
  }
  return key;
}

/** Verifies a signed decision (any JSON value) against the published keys. */
export function verifyDecision(input: unknown, options: VerifyOptions): VerificationResult {
  const outcome = checkBeforeSignature(input, options);
  if ("result" in outcome) return outcome.result;
  const { message, signature, publicKey } = outcome.check;
  let signatureValid: boolean;
  try {
    signatureValid = verify(null, message, importedPublicKey(publicKey), signature);
  } catch {
    // A 32-byte string that is not a curve point cannot have signed anything.
    signatureValid = false;
  }
  if (!signatureValid) return { valid: false, reason: "bad_signature" };
  return checkAfterSignature(outcome.check, options);
}
