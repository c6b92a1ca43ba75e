// Length bounds after folding. A violation is rejected on-chain with the custom error `BadLength`.

export const NAME_MIN_LENGTH = 1;
export const NAME_MAX_LENGTH = 64;
export const TICKER_MIN_LENGTH = 2;
export const TICKER_MAX_LENGTH = 10;

/** Name of the on-chain custom error both registries raise for an out-of-bounds fold. */
export const ONCHAIN_BAD_LENGTH = "BadLength";

export type BoundsReason = "ok" | "name_empty" | "name_too_long" | "ticker_too_short" | "ticker_too_long";

/** Why a folded pair is out of bounds, or "ok". The name is judged before the ticker. */
export function boundsReason(normalizedName: string, normalizedTicker: string): BoundsReason {
  if (normalizedName.length < NAME_MIN_LENGTH) return "name_empty";
  if (normalizedName.length > NAME_MAX_LENGTH) return "name_too_long";
  if (normalizedTicker.length < TICKER_MIN_LENGTH) return "ticker_too_short";
  if (normalizedTicker.length > TICKER_MAX_LENGTH) return "ticker_too_long";
  return "ok";
}

const BOUNDS_MESSAGES: Readonly<Record<Exclude<BoundsReason, "ok">, string>> = {
  name_empty: `The name has no letters or digits left after normalization; use 1 to ${NAME_MAX_LENGTH} of A-Z, 0-9, $ or @.`,
  name_too_long: `The name is longer than ${NAME_MAX_LENGTH} characters after normalization; shorten it.`,
  ticker_too_short: `The ticker must have at least ${TICKER_MIN_LENGTH} letters or digits after normalization.`,
  ticker_too_long: `The ticker is longer than ${TICKER_MAX_LENGTH} characters after normalization; shorten it.`,
};

/** A user-facing sentence explaining a bounds violation and how to fix it. */
export function boundsMessage(reason: Exclude<BoundsReason, "ok">): string {
  return BOUNDS_MESSAGES[reason];
}
