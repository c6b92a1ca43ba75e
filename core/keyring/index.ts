// Signing key ring: pure lifecycle model, public entries, key generation and sealed private keys.
export {
  type EvmDecisionKey,
  generateEvmDecisionKey,
  openEvmDecisionKey,
  sealEvmPrivateKey,
} from "./evmDecisionKey";
export {
  activeKeyOf,
  assertValidKeyRing,
  KeyRingError,
  publicKeyEntries,
  revokeKey,
  rotateKeyRing,
  type SigningKeyRecord,
} from "./keyRing";
export { type PublicKeyEntry, SIGNING_KEY_STATUSES, type SigningKeyStatus } from "./publicKeyEntry";
export {
  type GeneratedSigningKey,
  generateSigningKey,
  newKid,
  openSigningKey,
  rawPublicKeyBase64,
  sealPrivateKey,
} from "./signingKeyMaterial";
