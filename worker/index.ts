// The worker: reservation reconcile passes in a loop (each followed by the announcement of holds made on-chain
// directly: services/reservations/holdAnnouncementPass.ts), the chain posture job (./chainPosture.ts: chain.degraded),
// the daily payout plans (./payoutPlans.ts), and the webhook job (./webhooks.ts) when it has the master key
// that opens the endpoints' secrets. A failed pass is logged and the loop goes on after a
// bounded backoff (core/retry/backoff.ts; the next pass retries everything it did not finish); stop() lets the
// running pass finish first. Several replicas may run: reconcilePass claims its rows (reservations/reconcile.ts).
import type { Pool } from "pg";
import type { RegistryCatalogue } from "../chains/registryClient";
import { type BackoffPolicy, backoffPolicy, createBackoff } from "../core/retry/backoff";
import { startPassLoop } from "../core/retry/passLoop";
import { announceHoldsPass } from "../services/reservations/holdAnnouncementPass";
import { type ReconcileCounts, reconcilePass } from "../services/reservations/reconcile";
import { type ChainPostureJobOptions, startChainPostureJob } from "./chainPosture";
import { startPayoutPlanJob } from "./payoutPlans";
import { timedPass } from "./timedPass";
import { startWebhookJob, type WebhookJobOptions } from "./webhooks";

export interface WorkerOptions {
  pool: Pool;
  registries: RegistryCatalogue;
  /** Pause between the end of one pass and the start of the next. */
  intervalMs: number;
  /** Waits after failed passes: from `intervalMs` doubling to max(intervalMs, 5 s). */
  backoff?: Partial<BackoffPolicy>;
  log: (line: string) => void;
  now?: () => Date;
  freshnessBoundSeconds?: number;
  /** The chain posture job's sampling interval and recovery dwell (defaults in ./chainPosture.ts). */
  chainPosture?: Pick<ChainPostureJobOptions, "intervalMs" | "recoveryDwellMs">;
  /** Pause between payout plan passes (default PAYOUT_PLAN_INTERVAL_MS). */
  payoutPlanIntervalMs?: number;
  /** The webhook job's settings; without them this worker delivers no webhooks. */
  webhooks?: Omit<WebhookJobOptions, "pool" | "log">;
}

export interface Worker {
  /** Resolves once the pass under way (if any) has finished; no pass starts after it is called. */
  stop(): Promise<void>;
}

/** "confirmed 2, expired 1", or an empty string when the pass changed nothing. */
export function describeCounts(counts: ReconcileCounts & { announced?: number }): string {
  return Object.entries(counts)
    .filter(([, value]) => value > 0)
    .map(([name, value]) => `${name} ${value}`)
    .join(", ");
}

export function startWorker(options: WorkerOptions): Worker {
  const deps = {
    pool: options.pool,
    registries: options.registries,
    now: options.now ?? (() => new Date()),
    freshnessBoundSeconds: options.freshnessBoundSeconds,
  };
  const failures = createBackoff({
    what: "reconcile pass",
    log: options.log,
    policy: backoffPolicy(options.intervalMs, options.backoff),
  });
  const loop = startPassLoop({
    // Holds are announced after the reconciler's confirmations, which announce the holds they confirm.
    pass: timedPass("reconcile", async () => {
      const counts = await reconcilePass(deps);
      const summary = describeCounts({ ...counts, announced: await announceHoldsPass(deps) });
      if (summary) options.log(`reconcile: ${summary}`);
    }),
    intervalMs: options.intervalMs,
    backoff: failures,
  });
  const postures = startChainPostureJob({
    pool: options.pool,
    log: options.log,
    now: deps.now,
    ...(deps.freshnessBoundSeconds === undefined
      ? {}
      : { freshnessBoundSeconds: deps.freshnessBoundSeconds }),
    ...options.chainPosture,
  });
  const plans = startPayoutPlanJob({
    pool: options.pool,
    now: deps.now,
    log: options.log,
    intervalMs: options.payoutPlanIntervalMs,
  });
  const webhooks =
    options.webhooks === undefined
      ? undefined
      : startWebhookJob({ pool: options.pool, log: options.log, ...options.webhooks });
  return {
    async stop() {
      await Promise.all([loop.stop(), postures.stop(), plans.stop(), webhooks?.stop()]);
    },
  };
}
