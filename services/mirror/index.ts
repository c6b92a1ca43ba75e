// The mirror context's public face: reads of what the indexers mirrored (chain health, protection records,
// a wallet's on-chain reservations).
import type { Pool } from "pg";
import { DEFAULT_DATA_PATH_TIMEOUT_MS, withinDataPathBound } from "../../storage/dataPathBound";
import { sharedInFlight } from "../../storage/sharedInFlight";
import { dataPathFailureOf, type UnavailableReason } from "../../storage/unavailable";
import { type ChainHealth, readChainHealth } from "./chainHealth";
import { readWatchdogStates, type WatchdogState } from "./chainPosture";
import { type ProtectionFilter, type ProtectionRow, protectionPage } from "./protectedRows";
import { type ReservationRow, reservationsOfWallet } from "./reservationRows";

export type { UnavailableReason } from "../../storage/unavailable";
export type { ChainHealth } from "./chainHealth";
export {
  DEFAULT_RECOVERY_DWELL_MS,
  type PostureChange,
  type PostureOptions,
  sampleChainPostures,
  type WatchdogState,
} from "./chainPosture";
export {
  type PageCursor,
  PROTECTION_SOURCES,
  PROTECTION_STATUSES,
  type ProtectionRow,
  type ProtectionStatus,
} from "./protectedRows";
export { RESERVATION_TX_OUTCOMES, type ReservationTxOutcome } from "./reservationTransactionRules";

/** What the health probe found: the chains and the database's latency, or why the database did not answer. */
export type HealthProbe =
  | { ok: true; chains: ChainHealth[]; watchdog: WatchdogState[]; latencyMs: number }
  | { ok: false; reason: UnavailableReason; boundMs: number };

export interface MirrorService {
  /** Each indexed chain with its index health, as of now. */
  chainHealth(): Promise<ChainHealth[]>;
  /** The service's health probe, answered within the data-path bound whatever state the database is in. */
  health(): Promise<HealthProbe>;
  /** Production protection records, newest first, as of now; one row beyond `limit` when a page follows. */
  protectionPage(filter: Omit<ProtectionFilter, "now">): Promise<ProtectionRow[]>;
  /** A wallet's on-chain reservations, newest first (production data only). */
  walletReservations(wallet: string): Promise<ReservationRow[]>;
}

export function mirrorService(
  pool: Pool,
  now: () => number,
  boundMs = DEFAULT_DATA_PATH_TIMEOUT_MS,
): MirrorService {
  // A timed-out pg query keeps its connection busy until the server answers, and a frozen server runs no
  // statement_timeout. So concurrent callers share one probe (health holds at most one pool connection,
  // however often it is asked), and the probe's own query_timeout ends it at the bound (the pool then
  // discards that connection), so the next caller after the bound starts a fresh probe.
  const probe = sharedInFlight(async () => {
    const started = performance.now();
    const chains = await readChainHealth(pool, now(), boundMs);
    const watchdog = await readWatchdogStates(
      pool,
      chains.map((chain) => chain.chain),
      now(),
      boundMs,
    );
    return { chains, watchdog, latencyMs: Math.round((performance.now() - started) * 100) / 100 };
  });
  return {
    chainHealth: () => readChainHealth(pool, now()),
    health: () =>
      withinDataPathBound(probe(), boundMs).then(
        ({ chains, watchdog, latencyMs }): HealthProbe => ({ ok: true, chains, watchdog, latencyMs }),
        // Any failure of the probe means the service cannot vouch for its data: fail closed as unreachable.
        (error: unknown): HealthProbe => ({
          ok: false,
          reason: dataPathFailureOf(error) ?? "unreachable",
          boundMs,
        }),
      ),
    protectionPage: (filter) => protectionPage(pool, { ...filter, now: new Date(now()) }),
    walletReservations: (wallet) => reservationsOfWallet(pool, wallet),
  };
}
