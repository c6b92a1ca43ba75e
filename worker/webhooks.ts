// The webhook job of the worker: dispatcher passes (services/webhooks/dispatcher.ts) in a pass loop. A pass
// that leaves outbox events behind wakes the loop at once; otherwise it polls the outbox every
// WEBHOOK_POLL_INTERVAL_MS while events flow and every WEBHOOK_IDLE_POLL_INTERVAL_MS when idle (the dispatcher
// refills its claimed queues itself as they run low). stop() gives back the claims not sent yet and lets the
// attempts under way finish (each is bounded by its timeout) for at most `drainMs`; an attempt still under way
// then keeps its lease and is re-sent by a worker once it runs out.
import type { Pool } from "pg";
import { backoffPolicy, createBackoff } from "../core/retry/backoff";
import { type PassLoop, startPassLoop } from "../core/retry/passLoop";
import { createSecretBox } from "../core/secrets/secretBox";
import {
  type DispatcherOptions,
  type HostLookup,
  IDLE_CLAIM_INTERVAL_MS,
  systemLookup,
  webhookDispatcher,
} from "../services/webhooks";
import { timedPass } from "./timedPass";

/**
 * Outbox polling while events flow: an event waits at most this long for its fan-out. A poll that finds nothing
 * is one index probe; the claim runs only when it found work or IDLE_CLAIM_INTERVAL_MS has passed.
 */
export const WEBHOOK_POLL_INTERVAL_MS = 50;
/**
 * Polling once no event has come for WEBHOOK_ACTIVE_WINDOW_MS, so an idle service does not probe 20 times a second:
 * the dispatcher's idle claim interval, since an idle poll in between would claim nothing.
 */
export const WEBHOOK_IDLE_POLL_INTERVAL_MS = IDLE_CLAIM_INTERVAL_MS;
export const WEBHOOK_ACTIVE_WINDOW_MS = 10_000;

/** The pause before the next poll: the fast poll within the active window after the last event, else the idle one. */
export function webhookPollPauseMs(now: number, lastEventAt: number): number {
  return now - lastEventAt <= WEBHOOK_ACTIVE_WINDOW_MS
    ? WEBHOOK_POLL_INTERVAL_MS
    : WEBHOOK_IDLE_POLL_INTERVAL_MS;
}

export interface WebhookJobOptions {
  pool: Pool;
  /** Opens the endpoints' signing secrets. */
  masterKey: Buffer;
  allowLocalReceivers: boolean;
  /** How long a claimed delivery is held (default DELIVERY_LEASE_MS). */
  leaseMs?: number;
  lookup?: HostLookup;
  now?: () => number;
  log: (line: string) => void;
  /** Concurrency bounds and transport (defaults in services/webhooks/dispatcher.ts). */
  tuning?: Pick<DispatcherOptions, "maxInFlight" | "perEndpoint" | "transport" | "timeoutMs">;
  /** How long stop() waits for attempts under way (the role's SHUTDOWN_GRACE_MS); until they end without it. */
  drainMs?: number;
}

export interface WebhookJob {
  stop(): Promise<void>;
}

export function startWebhookJob(options: WebhookJobOptions): WebhookJob {
  const dispatcher = webhookDispatcher({
    pool: options.pool,
    box: createSecretBox(options.masterKey),
    now: options.now ?? Date.now,
    receivers: { allowLocalReceivers: options.allowLocalReceivers, lookup: options.lookup ?? systemLookup },
    log: options.log,
    ...(options.leaseMs === undefined ? {} : { leaseMs: options.leaseMs }),
    ...options.tuning,
  });
  // Polling runs on real time; `options.now` is the delivery clock (retry schedule, leases), which tests move.
  let lastEventAt = Number.NEGATIVE_INFINITY;
  let loop: PassLoop | undefined;
  loop = startPassLoop({
    pass: timedPass("webhooks", async () => {
      const outcome = await dispatcher.pass();
      if (outcome.events > 0) lastEventAt = Date.now();
      if (outcome.more) loop?.wake();
    }),
    intervalMs: () => webhookPollPauseMs(Date.now(), lastEventAt),
    // A failing pass backs off from the idle interval, not from the fast poll.
    backoff: createBackoff({
      what: "webhook pass",
      log: options.log,
      policy: backoffPolicy(WEBHOOK_IDLE_POLL_INTERVAL_MS),
    }),
  });
  const running = loop;
  return {
    async stop() {
      await running.stop();
      const left = await dispatcher.stop(options.drainMs);
      if (left > 0) {
        options.log(
          `${left} webhook ${left === 1 ? "attempt" : "attempts"} still under way after ${options.drainMs} ms left to ${left === 1 ? "its lease" : "their leases"}: a worker re-sends ${left === 1 ? "it" : "them"} once the lease runs out`,
        );
      }
    },
  };
}
