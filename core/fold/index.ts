// Normalization standard v1: fold, identity key, on-chain keys and bounds.
export {
  type BoundsReason,
  boundsMessage,
  boundsReason,
  NAME_MAX_LENGTH,
  NAME_MIN_LENGTH,
  ONCHAIN_BAD_LENGTH,
  TICKER_MAX_LENGTH,
  TICKER_MIN_LENGTH,
} from "./bounds";
export { FOLD_VERSION, foldV1, isFolded } from "./fold";
export { foldedHash, foldedHashBytes, type Hex32, NotFoldedError } from "./hash";
export {
  IDENTITY_KEY_SEPARATOR,
  identityKey,
  type NormalizedIdentity,
  normalizeIdentity,
  parseIdentityKey,
} from "./identity";
