// The stall watchdog: an indexer whose chain head is ahead of its checkpoint while the checkpoint has not moved
// for `stallMs` is stuck (a hung RPC call, a wedged or stopped Ponder), not slow: its runner restarts it. A
// checkpoint that moves, or that has caught up with the head, proves progress; a restart gets twice the wait of
// the one before it (up to 16 times `stallMs`) to show progress, until the checkpoint moves again.
import type { Pool } from "pg";
import { appendAudit, INDEXER_RESTART_ACTION } from "../storage/audit";
import { withTransaction } from "../storage/transaction";
import type { ChainFamily } from "./checkpoints";

export interface IndexerStall {
  chain: string;
  family: ChainFamily;
  headNumber: bigint;
  indexedNumber: bigint;
  /** How long the checkpoint had not moved. */
  stalledMs: number;
}

export interface StallWatch {
  /** One sample; the stall's duration when the indexer counts as stalled, else null. */
  observe(head: bigint, indexed: bigint, nowMs: number): number | null;
  /** The indexer was restarted: progress is measured afresh from now. */
  restarted(nowMs: number): void;
}

/** Consecutive restarts without progress double the wait before the next one, up to this many times the stall time. */
const MAX_BACKOFF_FACTOR = 16;

export function stallWatch(stallMs: number): StallWatch {
  let last: bigint | undefined;
  let progressAt = 0;
  // A restarted indexer that has not moved yet may still be starting (Ponder waits out its predecessor's lock):
  // each restart in a row doubles the wait, so a slow start is not killed over and over.
  let factor = 1;
  return {
    observe(head, indexed, nowMs) {
      if (indexed !== last || indexed >= head) {
        if (indexed !== last && last !== undefined) factor = 1;
        last = indexed;
        progressAt = nowMs;
        return null;
      }
      const stalled = nowMs - progressAt;
      return stalled >= stallMs * factor ? stalled : null;
    },
    restarted(nowMs) {
      progressAt = nowMs;
      factor = Math.min(factor * 2, MAX_BACKOFF_FACTOR);
    },
  };
}

/**
 * Audits a restart. The worker's chain posture job reads it: the chain is announced degraded (chain.degraded,
 * reason indexer_stalled) and recovers like any other once healthy for the dwell; /v1/health counts them.
 */
export async function recordIndexerRestart(pool: Pool, stall: IndexerStall): Promise<void> {
  await withTransaction(pool, (client) =>
    appendAudit(client, {
      actor: "watchdog",
      action: INDEXER_RESTART_ACTION,
      subject: `chain:${stall.chain}`,
      reason: `${stall.family} checkpoint at ${stall.indexedNumber}, head at ${stall.headNumber}, unmoved for ${stall.stalledMs} ms`,
      details: {
        headNumber: stall.headNumber.toString(),
        indexedNumber: stall.indexedNumber.toString(),
        stalledMs: stall.stalledMs,
      },
    }),
  );
}
