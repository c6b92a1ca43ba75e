// The webhook worker job, in Svix's shape: prepare (fan the outbox out into deliveries, claim the due ones),
// dispatch (check each claimed endpoint's receiver again, once per claim; sign; POST to the checked addresses),
// handle the outcome (success, the next retry of the fixed schedule, or dead). One slow receiver holds its own
// slots and never the others'. The clock is a dependency so tests walk the retry schedule without waiting.
import { randomBytes } from "node:crypto";
import type { Pool } from "pg";
import type { SecretBox } from "../../core/secrets/secretBox";
import { WEBHOOK_ATTEMPT_TIMEOUT_MS } from "../../core/webhook/deliveryPolicy";
import { countWebhookAttempt } from "../../telemetry/metrics";
import { attemptResult, type DispatchDeps, dispatchAttempt, type Queued, queuedOf } from "./attempt";
import { claimDueDeliveries, DELIVERY_LEASE_MS, type RecordedAttempt, releaseLeases } from "./claims";
import { fanOutEvents } from "./fanOut";
import { type OutcomeRecorder, outcomeRecorder } from "./outcomeRecorder";
import type { ReceiverPolicy } from "./receiverUrl";
import { createTransport, type Transport } from "./send";
import { SendQueues } from "./sendQueues";
import { UnderWay } from "./underWay";

export interface DispatcherOptions {
  pool: Pool;
  box: SecretBox;
  /** Clock in ms since the epoch. */
  now: () => number;
  receivers: ReceiverPolicy;
  transport?: Transport;
  /** Attempts in flight in this worker. Default DEFAULT_MAX_IN_FLIGHT. */
  maxInFlight?: number;
  /** Attempts in flight to one endpoint, over all workers. Default DEFAULT_PER_ENDPOINT. */
  perEndpoint?: number;
  /** Deliveries claimed ahead per send slot (per endpoint and overall). Default DEFAULT_CLAIM_AHEAD. */
  claimAhead?: number;
  /** Outbox events fanned out per pass. Default DEFAULT_FAN_OUT_BATCH. */
  fanOutBatch?: number;
  timeoutMs?: number;
  /** How long a claim holds a delivery. Default DELIVERY_LEASE_MS. */
  leaseMs?: number;
  log: (line: string) => void;
}

export interface PassOutcome {
  /** Outbox events the pass fanned out. */
  events: number;
  /** Whether the outbox has more (the pass took a full batch). */
  more: boolean;
}

export interface WebhookDispatcher {
  /** Fans out, claims what the queues have room for and starts attempts. */
  pass(): Promise<PassOutcome>;
  /**
   * Resolves once every claimed delivery has been sent and its outcome recorded, or once `withinMs` (real time)
   * has passed: with the number of attempts still under way then.
   */
  settle(withinMs?: number): Promise<number>;
  /**
   * Gives back the claimed deliveries not sent yet, then waits for the attempts under way as settle does. Those
   * still under way after `withinMs` keep their lease, so another worker re-sends them when it runs out: nothing
   * is lost.
   */
  stop(withinMs?: number): Promise<number>;
}

export const DEFAULT_MAX_IN_FLIGHT = 32;
export const DEFAULT_PER_ENDPOINT = 4;
export const DEFAULT_CLAIM_AHEAD = 8;
/**
 * Attempts sent whose outcomes are not recorded yet, at most, per slot: a slot is free once its receiver
 * answers, while the outcome waits for its group commit; past this many, sending waits for the commits. So a
 * worker killed at any moment leaves at most 2 x maxInFlight attempts sent and unrecorded.
 */
export const UNRECORDED_PER_SLOT = 2;
const DEFAULT_FAN_OUT_BATCH = 500;
/**
 * A pass whose fan-out made no delivery claims only when this long has passed since the last claim: retries
 * fall due on a schedule of minutes and released leases wait this long at most, so the worker can poll the
 * outbox often (a new event's first attempt starts sooner) without a claim transaction at every poll.
 */
export const IDLE_CLAIM_INTERVAL_MS = 250;

/**
 * The webhook worker job. A pass fans the outbox out into deliveries and claims ahead: up to `claimAhead` times
 * the per-endpoint bound of each endpoint's deliveries go into its queue (sendQueues.ts), so a receiver's answer
 * frees its slot for the next queued delivery at once instead of after a claim statement. Attempts (attempt.ts)
 * run beside the loop, bounded per endpoint and overall, and their outcomes are group-committed
 * (outcomeRecorder.ts); a queue running low claims again without waiting for the next pass.
 */
class Dispatcher implements WebhookDispatcher {
  private readonly pool: Pool;
  private readonly box: SecretBox;
  private readonly receivers: ReceiverPolicy;
  private readonly now: () => number;
  private readonly log: (line: string) => void;
  private readonly dispatch: DispatchDeps;
  private readonly perEndpoint: number;
  private readonly maxHeldPerEndpoint: number;
  private readonly fanOutBatch: number;
  private readonly leaseMs: number;
  private readonly recorder: OutcomeRecorder;
  /** Who claims: this dispatcher's leases are its own when a claim counts an endpoint's leases. */
  private readonly holder = randomBytes(8).toString("hex");
  private readonly queues: SendQueues;
  private readonly underWay = new UnderWay();
  /** The claim under way: one at a time per dispatcher (across workers they take turns in the database). */
  private claiming: Promise<void> | undefined;
  /** When the last claim started, on the dispatcher's clock. */
  private claimedAt = Number.NEGATIVE_INFINITY;
  private stopped = false;

  constructor(options: DispatcherOptions) {
    const maxInFlight = options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT;
    const claimAhead = options.claimAhead ?? DEFAULT_CLAIM_AHEAD;
    this.pool = options.pool;
    this.box = options.box;
    this.receivers = options.receivers;
    this.now = options.now;
    this.log = options.log;
    this.dispatch = {
      transport: options.transport ?? createTransport(),
      timeoutMs: options.timeoutMs ?? WEBHOOK_ATTEMPT_TIMEOUT_MS,
      log: options.log,
    };
    this.perEndpoint = options.perEndpoint ?? DEFAULT_PER_ENDPOINT;
    this.maxHeldPerEndpoint = claimAhead * this.perEndpoint;
    this.fanOutBatch = options.fanOutBatch ?? DEFAULT_FAN_OUT_BATCH;
    this.leaseMs = options.leaseMs ?? DELIVERY_LEASE_MS;
    this.recorder = outcomeRecorder(options.pool);
    this.queues = new SendQueues({
      maxInFlight,
      perEndpoint: this.perEndpoint,
      maxUnrecorded: UNRECORDED_PER_SLOT * maxInFlight,
      maxHeld: claimAhead * maxInFlight,
      maxHeldPerEndpoint: this.maxHeldPerEndpoint,
    });
  }

  async pass(): Promise<PassOutcome> {
    const at = new Date(this.now());
    const fanned = await fanOutEvents(this.pool, at, this.fanOutBatch);
    if (fanned.deliveries > 0 || at.getTime() - this.claimedAt >= IDLE_CLAIM_INTERVAL_MS) {
      await this.claimInTurn(at);
    }
    return { events: fanned.events, more: fanned.events === this.fanOutBatch };
  }

  settle(withinMs = Number.POSITIVE_INFINITY): Promise<number> {
    return this.underWay.after(withinMs);
  }

  async stop(withinMs = Number.POSITIVE_INFINITY): Promise<number> {
    this.stopped = true;
    await this.claiming?.catch(() => undefined);
    const unsent = this.queues.drain();
    await releaseLeases(this.pool, unsent).catch((error: Error) =>
      this.log(
        `${unsent.length} unsent webhook claims not released (their leases run out): ${error.message}`,
      ),
    );
    return this.underWay.after(withinMs);
  }

  private async claimInTurn(at: Date): Promise<void> {
    while (this.claiming !== undefined) await this.claiming.catch(() => undefined);
    const current = this.claim(at);
    this.claiming = current;
    try {
      await current;
    } finally {
      this.claiming = undefined;
    }
  }

  /** Claims what the queues have room for, oldest first per endpoint, and starts what the bounds allow. */
  private async claim(at: Date): Promise<void> {
    const limit = this.queues.room;
    if (this.stopped || limit <= 0) return;
    this.claimedAt = at.getTime();
    const claimed = await claimDueDeliveries(this.pool, at, {
      holder: this.holder,
      limit,
      perEndpoint: this.perEndpoint,
      aheadPerEndpoint: this.maxHeldPerEndpoint,
      leaseMs: this.leaseMs,
      held: this.queues.heldIds(),
    });
    this.queues.enqueue(queuedOf(this.box, this.receivers, claimed, at.getTime()), limit);
    this.pump();
  }

  /** Starts queued deliveries while the bounds allow; gives back the leases of those queued too long. */
  private pump(): void {
    if (this.stopped) return;
    // Sent only while at least half its lease is left, so the attempt ends before the lease does.
    const { send, stale } = this.queues.take((entry) => this.now() - entry.claimedAt > this.leaseMs / 2);
    for (const queued of send) this.start(queued);
    if (stale.length > 0) {
      this.underWay.track(
        releaseLeases(this.pool, stale).catch((error: Error) =>
          this.log(
            `${stale.length} stale webhook claims not released (their leases run out): ${error.message}`,
          ),
        ),
      );
    }
  }

  private start(queued: Queued): void {
    const { claimed } = queued;
    this.underWay.track(
      this.attempt(queued)
        .catch((error: Error) =>
          this.log(
            `webhook delivery ${claimed.id}: ${error.message} (its lease runs out, then it is retried)`,
          ),
        )
        .finally(() => {
          this.queues.recorded(claimed);
          this.pump();
        }),
    );
  }

  private async attempt(queued: Queued): Promise<void> {
    const { claimed } = queued;
    const startedAt = new Date(this.now());
    let result: RecordedAttempt;
    try {
      const outcome = await dispatchAttempt(queued, startedAt, this.dispatch);
      result = attemptResult(claimed, outcome, startedAt, new Date(this.now()));
    } finally {
      // The receiver answered (or the attempt ended without one): its slot takes the next queued delivery.
      this.queues.answered(claimed);
      this.pump();
      this.refillIfLow(claimed.endpointId);
    }
    if (await this.recorder.record({ claimed, attempt: result })) {
      countWebhookAttempt(result.status === "pending" ? "failed" : result.status);
    } else {
      this.log(
        `webhook delivery ${claimed.id}: lease lost before the outcome was recorded; another worker retries it`,
      );
    }
  }

  /** A queue ran low while more may be due: claims now, beside the pass loop (whose fan-out may be long). */
  private refillIfLow(endpointId: string): void {
    if (this.claiming !== undefined || this.stopped || !this.queues.wantsRefill(endpointId)) return;
    this.underWay.track(
      this.claimInTurn(new Date(this.now())).catch((error: Error) =>
        this.log(`webhook claim failed (the next pass claims again): ${error.message}`),
      ),
    );
  }
}

export function webhookDispatcher(options: DispatcherOptions): WebhookDispatcher {
  return new Dispatcher(options);
}
