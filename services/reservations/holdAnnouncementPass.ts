// The worker's pass beside the reconciler that announces holds nobody prepared through the service: a wallet that
// called a registry directly, the Solana public helpers, a renewal sent on-chain. It reads the mirror's live holds
// not yet announced on chains whose mirror is fresh and announces each (identity/holdAnnouncement.ts), the same
// call a prepared reservation's confirmation makes, so the two never announce one hold state twice. A hold that an
// open prepare of the same launcher is waiting for (its partnerRef) is left to that prepare's confirmation.
import type { Pool } from "pg";
import { sameOnChainSql } from "../../core/address/equality";
import { DEFAULT_FRESHNESS_BOUND_SECONDS } from "../../core/status";
import { withTransaction } from "../../storage/transaction";
import { announceHold } from "../identity/holdAnnouncement";
import { mirrorCutoffs } from "./reconcileStore";

export interface HoldAnnouncementDeps {
  pool: Pool;
  now: () => Date;
  freshnessBoundSeconds?: number;
}

const BATCH_SIZE = 100;
const MAX_BATCHES = 10;
/**
 * How long a hold's announcement outlives the hold. Only live holds are announced, and a renewal extends a live
 * hold, so an ended hold's row decides nothing; the margin covers a mirror that learns of a renewal late.
 */
export const ANNOUNCEMENT_RETENTION_MS = 7 * 86_400_000;
const PRUNE_LIMIT = 1_000;

/** The announcements of holds that ended before the retention cutoff, a bounded number per pass. */
const PRUNE_ENDED = `
  DELETE FROM hold_announcements WHERE ctid = ANY (ARRAY(
    SELECT ctid FROM hold_announcements WHERE expires_at < $1 LIMIT $2))`;

/**
 * Live holds not yet announced, on the fresh chains given. Fresh is the reorg guard: a revert takes rows out and
 * sets the checkpoint back in one transaction, and the chain reads behind until re-indexed (docs/webhooks.md).
 */
const UNANNOUNCED_HOLDS = `
  SELECT m.chain, m.name_hash, m.ticker_hash FROM chain_reservations m
    JOIN unnest($1::text[]) AS fresh (chain) ON fresh.chain = m.chain
   WHERE m.expires_at > $2
     AND NOT EXISTS (SELECT 1 FROM hold_announcements a
                      WHERE a.chain = m.chain AND a.name_hash = m.name_hash AND a.ticker_hash = m.ticker_hash
                        AND a.reserved_at = m.reserved_at AND a.expires_at = m.expires_at)
     AND NOT EXISTS (SELECT 1 FROM reservations r
                      WHERE r.status IN ('pending_payment', 'submitted') AND NOT r.simulated AND r.kind = 'reserve'
                        AND r.chain = m.chain AND r.name_hash = m.name_hash AND r.ticker_hash = m.ticker_hash
                        AND r.partner_ref = lower(m.partner_ref)
                        AND ${sameOnChainSql("r.family", "m.launcher", "r.launcher")})
   ORDER BY m.reserved_at, m.chain, m.name_hash, m.ticker_hash
   LIMIT $3`;

/**
 * One sweep: announces every unannounced live hold of a fresh chain (bounded) and prunes the announcements of
 * holds long ended; returns how many it announced.
 */
export async function announceHoldsPass(deps: HoldAnnouncementDeps): Promise<number> {
  const now = deps.now();
  await deps.pool.query(PRUNE_ENDED, [new Date(now.getTime() - ANNOUNCEMENT_RETENTION_MS), PRUNE_LIMIT]);
  const cutoffs = await mirrorCutoffs(
    deps.pool,
    now,
    deps.freshnessBoundSeconds ?? DEFAULT_FRESHNESS_BOUND_SECONDS,
  );
  const fresh = [...cutoffs].filter(([, cutoff]) => cutoff !== null).map(([chain]) => chain);
  if (fresh.length === 0) return 0;
  let announced = 0;
  for (let batch = 0; batch < MAX_BATCHES; batch++) {
    const found = await withTransaction(deps.pool, async (client) => {
      const { rows } = await client.query<{ chain: string; name_hash: string; ticker_hash: string }>(
        UNANNOUNCED_HOLDS,
        [fresh, now, BATCH_SIZE],
      );
      for (const row of rows) {
        const pair = { chain: row.chain, nameHash: row.name_hash, tickerHash: row.ticker_hash };
        if ((await announceHold(client, pair, now)) !== undefined) announced += 1;
      }
      return rows.length;
    });
    if (found < BATCH_SIZE) break;
  }
  return announced;
}
