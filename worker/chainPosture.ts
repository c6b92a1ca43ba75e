// The chain posture job of the worker: samples every chain's data path each interval and announces
// `chain.degraded` transitions (services/mirror/chainPosture.ts). Any number of workers may run it: a transition
// is announced by exactly one of them.
import type { Pool } from "pg";
import { backoffPolicy, createBackoff } from "../core/retry/backoff";
import { startPassLoop } from "../core/retry/passLoop";
import { DEFAULT_FRESHNESS_BOUND_SECONDS } from "../core/status";
import { DEFAULT_RECOVERY_DWELL_MS, sampleChainPostures } from "../services/mirror";
import { timedPass } from "./timedPass";

/** How often each chain's posture is sampled: a degradation is announced within about this long. */
export const CHAIN_POSTURE_INTERVAL_MS = 15_000;

export interface ChainPostureJobOptions {
  pool: Pool;
  log: (line: string) => void;
  now?: () => Date;
  freshnessBoundSeconds?: number;
  intervalMs?: number;
  recoveryDwellMs?: number;
}

export interface ChainPostureJob {
  stop(): Promise<void>;
}

export function startChainPostureJob(options: ChainPostureJobOptions): ChainPostureJob {
  const intervalMs = options.intervalMs ?? CHAIN_POSTURE_INTERVAL_MS;
  const now = options.now ?? (() => new Date());
  const loop = startPassLoop({
    pass: timedPass("chain_posture", async () => {
      const changes = await sampleChainPostures(options.pool, {
        now: now(),
        boundSeconds: options.freshnessBoundSeconds ?? DEFAULT_FRESHNESS_BOUND_SECONDS,
        dwellMs: options.recoveryDwellMs ?? DEFAULT_RECOVERY_DWELL_MS,
      });
      for (const change of changes) options.log(`chain ${change.chain}: ${change.announced}`);
    }),
    intervalMs,
    backoff: createBackoff({
      what: "chain posture pass",
      log: options.log,
      policy: backoffPolicy(intervalMs),
    }),
  });
  return { stop: () => loop.stop() };
}
