// The stall watchdog of both indexers (the EVM runner's Ponder child, the Solana loop): an indexer whose chain head
// is ahead of its checkpoint while the checkpoint has not moved for `stallMs` is stuck (a hung RPC call, a wedged
// or stopped Ponder), not slow: its runner restarts it. A checkpoint that moves, or that has caught up with the
// head, proves progress; a restart gets twice the wait of the one before it (up to 16 times `stallMs`) to show
// progress, until the checkpoint moves again. Until it does, the indexer counts as restarting (its role unready).
import type { Pool } from "pg";
import { appendAudit, INDEXER_RESTART_ACTION } from "../storage/audit";
import { withTransaction } from "../storage/transaction";
import { countIndexerRestart } from "../telemetry/metrics";
import type { ChainFamily } from "./checkpoints";

interface IndexerStall {
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
  /** True from a restart until a sample shows progress. */
  awaitingProgress(): boolean;
}

/** Consecutive restarts without progress double the wait before the next one, up to this many times the stall time. */
const MAX_BACKOFF_FACTOR = 16;

export function stallWatch(stallMs: number): StallWatch {
  let last: bigint | undefined;
  let progressAt = 0;
  // A restarted indexer that has not moved yet may still be starting (Ponder waits out its predecessor's lock):
  // each restart in a row doubles the wait, so a slow start is not killed over and over.
  let factor = 1;
  let awaiting = false;
  return {
    observe(head, indexed, nowMs) {
      if (indexed !== last || indexed >= head) {
        if (indexed !== last && last !== undefined) factor = 1;
        last = indexed;
        progressAt = nowMs;
        awaiting = false;
        return null;
      }
      const stalled = nowMs - progressAt;
      return stalled >= stallMs * factor ? stalled : null;
    },
    restarted(nowMs) {
      progressAt = nowMs;
      factor = Math.min(factor * 2, MAX_BACKOFF_FACTOR);
      awaiting = true;
    },
    awaitingProgress: () => awaiting,
  };
}

export interface IndexerWatchdogOptions {
  pool: Pool;
  family: ChainFamily;
  stallMs: number;
  /** What a restart restarts, as the log line names it: "Ponder", "the Solana loop". */
  restarts: string;
  /** Restarts the indexer of every chain this watchdog watches (one Ponder serves all EVM chains). */
  restart: () => void;
  log: (line: string) => void;
}

export interface IndexerWatchdog {
  /** One sample of a chain's head and checkpoint (the runner's monitor tick); restarts a stalled indexer. */
  observe(chain: string, head: bigint, indexed: bigint): Promise<void>;
  /** What readiness waits for while a restart has not yet shown progress; null otherwise. */
  restarting(): string | null;
  /** No restart after this (the runner is stopping). */
  stop(): void;
}

/**
 * The rule applied: a stall is logged, the indexer restarted, the restart counted (indexer_watchdog_restarts_total)
 * and audited (the worker's chain posture job announces chain.degraded, reason indexer_stalled, from the audit).
 */
export function indexerWatchdog(options: IndexerWatchdogOptions): IndexerWatchdog {
  const watches = new Map<string, StallWatch>();
  let stopped = false;
  return {
    async observe(chain, head, indexed) {
      let watch = watches.get(chain);
      if (watch === undefined) {
        watch = stallWatch(options.stallMs);
        watches.set(chain, watch);
      }
      const stalledMs = watch.observe(head, indexed, Date.now());
      if (stalledMs === null || stopped) return;
      for (const each of watches.values()) each.restarted(Date.now());
      options.log(
        `watchdog: ${chain} is at ${indexed}, its head at ${head}, and has not moved for ${stalledMs} ms; restarting ${options.restarts}`,
      );
      options.restart();
      countIndexerRestart(chain, options.family);
      await recordIndexerRestart(options.pool, {
        chain,
        family: options.family,
        headNumber: head,
        indexedNumber: indexed,
        stalledMs,
      });
    },
    restarting() {
      const waiting = [...watches].filter(([, watch]) => watch.awaitingProgress()).map(([chain]) => chain);
      return waiting.length === 0
        ? null
        : `restarted by the watchdog; waiting for the checkpoint of ${waiting.join(", ")} to move`;
    },
    stop() {
      stopped = true;
    },
  };
}

/**
 * Audits a restart. The worker's chain posture job reads it: the chain is announced degraded (chain.degraded,
 * reason indexer_stalled) and recovers like any other once healthy for the dwell; /v1/health counts them.
 */
async function recordIndexerRestart(pool: Pool, stall: IndexerStall): Promise<void> {
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
