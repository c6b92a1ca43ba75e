// Identity key `NAME::TICKER` and the full normalization of a raw pair.
import { type BoundsReason, boundsReason, ONCHAIN_BAD_LENGTH } from "./bounds";
import { foldV1, isFolded } from "./fold";
import { foldedHash, type Hex32 } from "./hash";

export const IDENTITY_KEY_SEPARATOR = "::";

export interface NormalizedIdentity {
  normalizedName: string;
  normalizedTicker: string;
  identityKey: string;
  nameHash: Hex32;
  tickerHash: Hex32;
  valid: boolean;
  reason: BoundsReason;
  /** The custom error the registries raise for this pair, or null when they accept it. */
  onchainError: typeof ONCHAIN_BAD_LENGTH | null;
}

/** `FOLDEDNAME::FOLDEDTICKER`; accepts raw or folded input (folding is idempotent). */
export function identityKey(name: string, ticker: string): string {
  return `${foldV1(name)}${IDENTITY_KEY_SEPARATOR}${foldV1(ticker)}`;
}

/** Folds a raw pair and states its key, on-chain hashes and whether the registries accept it. */
export function normalizeIdentity(name: string, ticker: string): NormalizedIdentity {
  const normalizedName = foldV1(name);
  const normalizedTicker = foldV1(ticker);
  const reason = boundsReason(normalizedName, normalizedTicker);
  return {
    normalizedName,
    normalizedTicker,
    identityKey: `${normalizedName}${IDENTITY_KEY_SEPARATOR}${normalizedTicker}`,
    nameHash: foldedHash(normalizedName),
    tickerHash: foldedHash(normalizedTicker),
    valid: reason === "ok",
    reason,
    onchainError: reason === "ok" ? null : ONCHAIN_BAD_LENGTH,
  };
}

/**
 * Splits an identity key into its folded name and ticker, or returns null when the text is not an
 * identity key in folded form (used to validate `key` parameters such as `GET /v1/identity/status`).
 */
export function parseIdentityKey(key: string): { normalizedName: string; normalizedTicker: string } | null {
  const separatorAt = key.indexOf(IDENTITY_KEY_SEPARATOR);
  if (separatorAt < 0) return null;
  const normalizedName = key.slice(0, separatorAt);
  const normalizedTicker = key.slice(separatorAt + IDENTITY_KEY_SEPARATOR.length);
  if (!isFolded(normalizedName) || !isFolded(normalizedTicker)) return null;
  return { normalizedName, normalizedTicker };
}
