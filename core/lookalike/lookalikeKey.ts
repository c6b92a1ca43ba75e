// The look-alike key: fold v1 of the UTS #39 skeleton of the compatibility decomposition (NFKD), then the
// ASCII look-alike table. NFKD first reduces full-width and mathematical letters to theirs even where
// confusables.txt lists none (it has no full-width `ｎ`). It is an advisory beside the identity key, never a
// key itself: nothing on-chain or signed uses it.
import { foldV1, IDENTITY_KEY_SEPARATOR } from "../fold";
import { asciiLookalikeFold } from "./asciiLookalikes";
import { skeleton } from "./skeleton";

const NON_ASCII = /[\u0080-\uffff]/;

/** The look-alike form of one raw name or ticker. */
export function lookalikeText(raw: string): string {
  // NFKD and the skeleton keep ASCII as it is: most names skip both.
  const text = NON_ASCII.test(raw) ? skeleton(raw.normalize("NFKD")) : raw;
  return asciiLookalikeFold(foldV1(text));
}

/**
 * `NAME::TICKER` of the look-alike forms of a raw pair. For a pair that is already folded it equals the
 * ASCII table applied to its identity key, which is what the database computes for stored identities.
 */
export function lookalikeKey(name: string, ticker: string): string {
  return `${lookalikeText(name)}${IDENTITY_KEY_SEPARATOR}${lookalikeText(ticker)}`;
}

/** The look-alike key of a stored (folded) identity key. */
export function lookalikeKeyOfIdentity(identityKey: string): string {
  return asciiLookalikeFold(identityKey);
}
