// The program's tier order and the registry settings a deployment starts with (scripts/solana/deploy.ts).
// Tier prices are shared with EVM: core/reservation/policy.ts.
import { RESERVATION_DURATIONS, type ReservationDuration } from "../../core/reservation";

/** Durations (seconds) of the four tiers, in the order of the config's `tier_usd_micros`. */
export const TIER_DURATIONS = RESERVATION_DURATIONS;
/** Pyth's push feeds update far more often; 60 s keeps a local price usable while refusing stale ones. */
export const DEFAULT_MAX_PRICE_AGE_SECS = 60;

/** A local cluster's minimum commitment age: one slot, so a reveal lands in a later slot than its commitment. */
export const LOCAL_MIN_COMMITMENT_SLOTS = 1;

/** Index of a duration in the config's tier array. */
export function tierIndex(durationSeconds: ReservationDuration): number {
  return TIER_DURATIONS.indexOf(durationSeconds);
}
