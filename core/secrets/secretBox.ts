// Encryption at rest (private signing keys, webhook secrets) under a master key from configuration:
// AES-256-GCM, a fresh 96-bit IV per seal, and a context string as associated data so a sealed value
// only opens for the row it was sealed for. Sealed text: `svcbox1.<masterKeyId>.<iv>.<ciphertext+tag>`
// (base64url parts). The master key id lets a box hold previous master keys during a rotation.
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from "node:crypto";
import { ServiceError } from "../errors/serviceError";

const FORMAT = "svcbox1";
const MASTER_KEY_LENGTH = 32;
const IV_LENGTH = 12;
const TAG_LENGTH = 16;

export interface SecretBox {
  /** Id of the master key that new seals use. */
  readonly masterKeyId: string;
  /** Encrypts `plaintext`; `context` (e.g. `signing-key:<kid>`) must be given again to open it. */
  seal(plaintext: Uint8Array | string, context: string): string;
  /** Decrypts a sealed value; throws SecretBoxError when it was altered, or sealed for another context or key. */
  open(sealed: string, context: string): Buffer;
  /** True when the value was sealed under a previous master key and should be sealed again. */
  needsReseal(sealed: string): boolean;
}

export class SecretBoxError extends ServiceError {
  constructor(message: string) {
    super(message);
  }
}

/** Thrown when configured master key text is not 32 bytes as hex or base64. */
export class MasterKeyError extends ServiceError {
  constructor(message: string) {
    super(message);
  }
}

/** Parses a master key given as 64 hex characters or as base64 of 32 bytes. */
export function parseMasterKey(text: string): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(trimmed)
    ? Buffer.from(trimmed, "hex")
    : /^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)
      ? Buffer.from(trimmed, "base64")
      : null;
  if (key === null || key.length !== MASTER_KEY_LENGTH) {
    throw new MasterKeyError(
      "The master key must be 32 random bytes written as 64 hex characters or as base64 (44 characters); generate one with `openssl rand -base64 32`.",
    );
  }
  return key;
}

/** A new random master key as base64 (for the embedded default, which keeps it in its data folder). */
export function generateMasterKey(): string {
  return randomBytes(MASTER_KEY_LENGTH).toString("base64");
}

/** Short public id of a master key (HMAC of a fixed label), so sealed values name the key they need. */
export function masterKeyIdOf(masterKey: Uint8Array): string {
  return createHmac("sha256", masterKey).update("svcbox master key id").digest("hex").slice(0, 16);
}

function checkedMasterKey(masterKey: Uint8Array): Uint8Array {
  if (masterKey.length !== MASTER_KEY_LENGTH) {
    throw new MasterKeyError(
      `A master key must be exactly ${MASTER_KEY_LENGTH} bytes (got ${masterKey.length}).`,
    );
  }
  return masterKey;
}

interface SealedParts {
  masterKeyId: string;
  iv: Buffer;
  ciphertext: Buffer;
  tag: Buffer;
}

function parseSealed(sealed: string): SealedParts {
  const parts = sealed.split(".");
  const [format, masterKeyId, iv, body] = parts;
  if (
    parts.length !== 4 ||
    format !== FORMAT ||
    masterKeyId === undefined ||
    iv === undefined ||
    body === undefined
  ) {
    throw new SecretBoxError(
      `Not a sealed value (expected "${FORMAT}.<key id>.<iv>.<data>"); was it stored unencrypted?`,
    );
  }
  const ivBytes = Buffer.from(iv, "base64url");
  const bodyBytes = Buffer.from(body, "base64url");
  if (ivBytes.length !== IV_LENGTH || bodyBytes.length < TAG_LENGTH) {
    throw new SecretBoxError("Sealed value is truncated or corrupted.");
  }
  return {
    masterKeyId,
    iv: ivBytes,
    ciphertext: bodyBytes.subarray(0, bodyBytes.length - TAG_LENGTH),
    tag: bodyBytes.subarray(bodyBytes.length - TAG_LENGTH),
  };
}

/**
 * A box that seals under `masterKey` and opens values sealed under it or under any of `previousKeys`
 * (keep the old key there while re-sealing after a master key rotation).
 */
export function createSecretBox(masterKey: Uint8Array, previousKeys: readonly Uint8Array[] = []): SecretBox {
  const current = checkedMasterKey(masterKey);
  const currentId = masterKeyIdOf(current);
  const keysById = new Map<string, Uint8Array>();
  for (const key of previousKeys) keysById.set(masterKeyIdOf(checkedMasterKey(key)), key);
  keysById.set(currentId, current);

  return {
    masterKeyId: currentId,
    seal(plaintext, context) {
      const iv = randomBytes(IV_LENGTH);
      const cipher = createCipheriv("aes-256-gcm", current, iv);
      cipher.setAAD(Buffer.from(context, "utf8"));
      const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
      const body = Buffer.concat([ciphertext, cipher.getAuthTag()]);
      return `${FORMAT}.${currentId}.${iv.toString("base64url")}.${body.toString("base64url")}`;
    },
    open(sealed, context) {
      const parts = parseSealed(sealed);
      const key = keysById.get(parts.masterKeyId);
      if (key === undefined) {
        throw new SecretBoxError(
          `Value was sealed under master key ${parts.masterKeyId}, which is not configured (current: ${currentId}); configure that key as a previous master key.`,
        );
      }
      const decipher = createDecipheriv("aes-256-gcm", key, parts.iv);
      decipher.setAAD(Buffer.from(context, "utf8"));
      decipher.setAuthTag(parts.tag);
      try {
        return Buffer.concat([decipher.update(parts.ciphertext), decipher.final()]);
      } catch {
        throw new SecretBoxError(
          `Sealed value failed authentication for context "${context}": it was altered or belongs to another record.`,
        );
      }
    },
    needsReseal(sealed) {
      return parseSealed(sealed).masterKeyId !== currentId;
    },
  };
}
