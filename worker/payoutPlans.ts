// The payout plan job of the worker: builds the plans of the last complete UTC day from the accrued ledger
// (services/revenue/payoutPlans.ts). A build is idempotent, so the job simply runs it again every
// interval (and right at start): replicas and restarts never make a second plan for a day.
import type { Pool } from "pg";
import { backoffPolicy, createBackoff } from "../core/retry/backoff";
import { startPassLoop } from "../core/retry/passLoop";
import { buildPayoutPlans, lastCompleteDay } from "../services/revenue";
import { timedPass } from "./timedPass";

/** How often the job looks for a day to plan. */
export const PAYOUT_PLAN_INTERVAL_MS = 60_000;

export interface PayoutPlanJobOptions {
  pool: Pool;
  now: () => Date;
  log: (line: string) => void;
  intervalMs?: number;
}

export interface PayoutPlanJob {
  stop(): Promise<void>;
}

export function startPayoutPlanJob(options: PayoutPlanJobOptions): PayoutPlanJob {
  const intervalMs = options.intervalMs ?? PAYOUT_PLAN_INTERVAL_MS;
  const loop = startPassLoop({
    pass: timedPass("payout_plans", async () => {
      const now = options.now();
      const day = lastCompleteDay(now);
      const built = await buildPayoutPlans(options.pool, day, now);
      if (built > 0) options.log(`payout plans: ${built} built for ${day}`);
    }),
    intervalMs,
    backoff: createBackoff({ what: "payout plan pass", log: options.log, policy: backoffPolicy(intervalMs) }),
  });
  return { stop: () => loop.stop() };
}
