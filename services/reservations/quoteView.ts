// The quote answer of GET /v1/reservations/quote and prepare: tier, chain amount, policy.
import type { RegistryQuote } from "../../chains/registryClient";
import { MAX_ACTIVE_PER_WALLET, PREPARE_TTL_SECONDS, RENEWAL_WINDOW_SECONDS } from "../../core/reservation";

const DECIMALS = { wei: 18, lamports: 9 } as const;

/** "5.00" from 5_000_000 micro-dollars. */
export function usdOf(usdMicros: bigint): string {
  const cents = usdMicros / 10_000n;
  return `${cents / 100n}.${(cents % 100n).toString().padStart(2, "0")}`;
}

export function quoteAmountView(quote: RegistryQuote) {
  return {
    amount: quote.amount.toString(),
    unit: quote.unit,
    decimals: DECIMALS[quote.unit],
    priceUsd: quote.priceUsd,
    priceUpdatedAt: quote.priceUpdatedAt.toISOString(),
    expiresAt: quote.expiresAt.toISOString(),
    simulated: quote.simulated,
  };
}

export function quoteView(quote: RegistryQuote) {
  return {
    chain: quote.chain,
    tier: { durationSeconds: quote.durationSeconds, usd: usdOf(quote.usdMicros) },
    quote: quoteAmountView(quote),
    policy: {
      maxActivePerWallet: MAX_ACTIVE_PER_WALLET,
      renewalWindowSeconds: RENEWAL_WINDOW_SECONDS,
      prepareTtlSeconds: PREPARE_TTL_SECONDS,
    },
  };
}
