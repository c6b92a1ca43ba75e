// The registry settings an EVM deployment starts with (scripts/evm/deploy.ts) and the sandbox quotes with.
// Tier prices are shared with Solana: core/reservation/policy.ts.

/** Chainlink ETH/USD on Ethereum has a one-hour heartbeat; 15 minutes of margin avoids false staleness. */
export const DEFAULT_MAX_PRICE_AGE_SECONDS = 4_500;
/**
 * A local chain's minimum commitment age: one second, so a reveal lands in a later block than its commitment.
 * Public chains choose theirs per deployment (docs/commit-reveal.md).
 */
export const LOCAL_MIN_COMMITMENT_AGE_SECONDS = 1;
/** Decimals of the LocalPriceFeed's answer, as Chainlink's USD feeds. */
export const LOCAL_FEED_DECIMALS = 8;
/** The LocalPriceFeed's default answer, in whole USD per ETH. */
export const DEFAULT_LOCAL_PRICE_USD = 3_000;

/** A USD price as the LocalPriceFeed's fixed-point answer. */
export function usdToFeedAnswer(priceUsd: number): bigint {
  if (!Number.isFinite(priceUsd) || priceUsd <= 0) {
    throw new RangeError(`The local ETH price must be a positive number of USD, got ${priceUsd}.`);
  }
  return BigInt(Math.round(priceUsd * 10 ** LOCAL_FEED_DECIMALS));
}
