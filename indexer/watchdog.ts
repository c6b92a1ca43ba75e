// The stall watchdog: an indexer whose chain head is ahead of its checkpoint while the checkpoint has not moved
// for `stallMs` is stuck (a hung RPC call, a wedged or stopped Ponder), not slow: its runner restarts it. A
// checkpoint that moves, or that has caught up with the head, proves progress; so does a restart, which gets a
// full `stallMs` to show progress before the next one.
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

export function stallWatch(stallMs: number): StallWatch {
  let last: bigint | undefined;
  let progressAt = 0;
  return {
    observe(head, indexed, nowMs) {
      if (indexed !== last || indexed >= head) {
        last = indexed;
        progressAt = nowMs;
        return null;
      }
      const stalled = nowMs - progressAt;
      return stalled >= stallMs ? stalled : null;
    },
    restarted(nowMs) {
      progressAt = nowMs;
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
