// The reservation rules every part shares (API prechecks, registries' documentation, worker sweeps). The
// registries enforce the same numbers on-chain; these are the service's copies for answering before a wallet signs.

/** The four tier durations in seconds: 24 hours, 3 days, 7 days, 30 days. */
export const RESERVATION_DURATIONS = [86_400, 259_200, 604_800, 2_592_000] as const;
export type ReservationDuration = (typeof RESERVATION_DURATIONS)[number];

export function isReservationDuration(value: unknown): value is ReservationDuration {
  return (RESERVATION_DURATIONS as readonly unknown[]).includes(value);
}

/** USD prices with 6 decimals of the four tiers, in RESERVATION_DURATIONS order. */
export type TierPricesUsdMicros = readonly [bigint, bigint, bigint, bigint];

/**
 * The tier prices both registries are deployed with (the EVM constructor, the Solana program's config) and
 * the sandbox quotes: 5, 12, 25 and 80 USD. An owner can change them on-chain; quotes read the chain.
 */
export const DEFAULT_TIER_PRICES_USD_MICROS: TierPricesUsdMicros = [
  5_000_000n,
  12_000_000n,
  25_000_000n,
  80_000_000n,
];

/** The default price of a tier, in USD with 6 decimals. */
export function defaultTierPriceUsdMicros(durationSeconds: ReservationDuration): bigint {
  return DEFAULT_TIER_PRICES_USD_MICROS[RESERVATION_DURATIONS.indexOf(durationSeconds)] as bigint;
}

/** Active reservations a wallet may hold at once on one chain; a fourth waits for an expiry. */
export const MAX_ACTIVE_PER_WALLET = 3;

/** A live reservation can be renewed during the last 12 hours of its window. */
export const RENEWAL_WINDOW_SECONDS = 43_200;

/**
 * How long a prepared reservation waits for its transaction before it lapses (`expired`). Long enough for a
 * creator to read a wallet prompt; a Solana transaction's blockhash lapses sooner (fetch a fresh one from
 * GET /v1/solana/blockhash and sign again: the reservation id travels in the instruction, not the blockhash).
 */
export const PREPARE_TTL_SECONDS = 900;

/**
 * A submitted transaction that no RPC node knows this long after its submission did not settle (`failed`).
 * Covers a dropped Solana transaction whose blockhash expired and an EVM transaction never mined.
 */
export const SUBMISSION_GRACE_SECONDS = 300;

/**
 * A new reservation is sealed before it is revealed (docs/commit-reveal.md): the registry accepts a reveal only
 * for the launcher's own commitment, at least a per-chain minimum old and at most this old.
 */
export const MAX_COMMITMENT_AGE_SECONDS = 86_400;

/** `reservation.expiring` fires when a confirmed window enters its renewal window. */
export const EXPIRING_NOTICE_SECONDS = RENEWAL_WINDOW_SECONDS;

/**
 * EVM prepares send this much above the quote (basis points) so a price move between quote and mining does
 * not revert the reservation; the registry refunds every wei above the fee in the same call.
 */
export const EVM_VALUE_HEADROOM_BPS = 200;

/** Whether a window ending at `expiresAt` is open for renewal at `now` (and still live). */
export function isInRenewalWindow(expiresAt: Date, now: Date): boolean {
  const left = expiresAt.getTime() - now.getTime();
  return left > 0 && left <= RENEWAL_WINDOW_SECONDS * 1000;
}
