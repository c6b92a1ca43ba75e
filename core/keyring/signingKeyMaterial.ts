// Key material for the ring: generating Ed25519 keys and keeping private keys sealed at rest.
import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
} from "node:crypto";
import type { DecisionSigningKey } from "../decision/sign";
import type { Environment } from "../environment";
import type { SecretBox } from "../secrets/secretBox";
import { generateEvmDecisionKey } from "./evmDecisionKey";
import { KeyRingError, type SigningKeyRecord } from "./keyRing";

const KID_PREFIX: Readonly<Record<Environment, string>> = { sandbox: "sbx", production: "live" };

export interface GeneratedSigningKey {
  record: SigningKeyRecord & { evmAddress: `0x${string}` };
  privateKey: KeyObject;
  /** The secp256k1 private key of the EVM half. */
  evmPrivateKey: `0x${string}`;
}

/** Key id such as `live-20261122-3f9a1c0d`: environment, creation day, random suffix. */
export function newKid(environment: Environment, createdAt: Date): string {
  const day = createdAt.toISOString().slice(0, 10).replaceAll("-", "");
  return `${KID_PREFIX[environment]}-${day}-${randomBytes(4).toString("hex")}`;
}

/** Raw 32-byte Ed25519 public key of a private or public KeyObject, as base64. */
export function rawPublicKeyBase64(key: KeyObject): string {
  const jwk = createPublicKey(key).export({ format: "jwk" });
  if (jwk.kty !== "OKP" || jwk.crv !== "Ed25519" || jwk.x === undefined) {
    throw new KeyRingError("Expected an Ed25519 key; decision signing keys are Ed25519 only.");
  }
  return Buffer.from(jwk.x, "base64url").toString("base64");
}

/** A new key, Ed25519 with its EVM half, as a record (status active, ready for rotateKeyRing) plus its private keys. */
export function generateSigningKey(
  environment: Environment,
  createdAt: Date = new Date(),
): GeneratedSigningKey {
  const { privateKey } = generateKeyPairSync("ed25519");
  const evm = generateEvmDecisionKey();
  return {
    record: {
      kid: newKid(environment, createdAt),
      environment,
      status: "active",
      publicKeyBase64: rawPublicKeyBase64(privateKey),
      evmAddress: evm.address,
      createdAt,
    },
    privateKey,
    evmPrivateKey: evm.privateKey,
  };
}

function sealContext(kid: string): string {
  return `signing-key:${kid}`;
}

/** The private key as PKCS#8, sealed under the master key and bound to its kid. */
export function sealPrivateKey(box: SecretBox, kid: string, privateKey: KeyObject): string {
  return box.seal(privateKey.export({ format: "der", type: "pkcs8" }), sealContext(kid));
}

/**
 * Opens a sealed private key for `record` and checks it matches the record's public key, so a swapped
 * or stale row can never sign under the wrong kid.
 */
export function openSigningKey(box: SecretBox, record: SigningKeyRecord, sealed: string): DecisionSigningKey {
  const privateKey = createPrivateKey({
    key: box.open(sealed, sealContext(record.kid)),
    format: "der",
    type: "pkcs8",
  });
  if (rawPublicKeyBase64(privateKey) !== record.publicKeyBase64) {
    throw new KeyRingError(
      `The sealed private key of ${record.kid} does not match its public key; the key ring is corrupted.`,
    );
  }
  return { kid: record.kid, environment: record.environment, privateKey };
}
