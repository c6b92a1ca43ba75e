// The webhook worker job, in Svix's shape: prepare (fan the outbox out into deliveries, claim the due ones),
// dispatch (check the receiver again, sign, POST to the checked address), handle the outcome (success, the next
// retry of the fixed schedule, or dead). A pass claims ahead: up to `claimAhead` times the per-endpoint bound
// of each endpoint's deliveries go into that endpoint's queue in memory, so a receiver's answer frees its slot
// for the next queued delivery at once instead of after a claim statement. Attempts run beside the loop,
// bounded per endpoint and overall, so one slow receiver holds its own slots and never the others'. The clock
// is a dependency so tests walk the retry schedule without waiting.
import { randomBytes } from "node:crypto";
import type { Pool } from "pg";
import type { SecretBox } from "../../core/secrets/secretBox";
import {
  isDeliverySuccess,
  retryDelayMs,
  WEBHOOK_ATTEMPT_TIMEOUT_MS,
} from "../../core/webhook/deliveryPolicy";
import { namedStatementsOn } from "../../storage/namedStatements";
import { countWebhookAttempt } from "../../telemetry/metrics";
import {
  type ClaimedDelivery,
  claimDueDeliveries,
  DELIVERY_LEASE_MS,
  type RecordedAttempt,
  releaseLeases,
} from "./claims";
import { type OpenSecrets, openSecrets, secretsAt } from "./endpointSecrets";
import { envelopeBody, signedHeaders } from "./envelope";
import { fanOutEvents } from "./fanOut";
import { outcomeRecorder } from "./outcomeRecorder";
import { checkedReceiver, type ReceiverPolicy, ReceiverRefusedError } from "./receiverUrl";
import { type AttemptOutcome, createTransport, postToReceiver, type Transport } from "./send";

export interface DispatcherOptions {
  pool: Pool;
  box: SecretBox;
  /** Clock in ms since the epoch. */
  now: () => number;
  receivers: ReceiverPolicy;
  transport?: Transport;
  /** Attempts in flight in this worker. Default 32. */
  maxInFlight?: number;
  /** Attempts in flight to one endpoint, over all workers. Default 4. */
  perEndpoint?: number;
  /** Deliveries claimed ahead per send slot (per endpoint and overall). Default 4. */
  claimAhead?: number;
  /** Outbox events fanned out per pass. Default 500. */
  fanOutBatch?: number;
  timeoutMs?: number;
  /** How long a claim holds a delivery. Default DELIVERY_LEASE_MS. */
  leaseMs?: number;
  log: (line: string) => void;
}

export interface WebhookDispatcher {
  /** Fans out, claims what the queues have room for and starts attempts. True when the outbox has more. */
  pass(): Promise<boolean>;
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

function failureText(outcome: AttemptOutcome): string | null {
  if (outcome.status === null) return outcome.error;
  if (isDeliverySuccess(outcome.status)) return null;
  if (outcome.status >= 300 && outcome.status < 400)
    return `answered ${outcome.status}; redirects are not followed`;
  return `answered ${outcome.status}`;
}

/** The delivery's next state after an attempt that ended at `endedAt`. */
export function attemptResult(
  claimed: Pick<ClaimedDelivery, "failuresInRound">,
  outcome: AttemptOutcome,
  startedAt: Date,
  endedAt: Date,
): RecordedAttempt {
  const succeeded = outcome.status !== null && isDeliverySuccess(outcome.status);
  const delay = succeeded ? null : retryDelayMs(claimed.failuresInRound + 1);
  return {
    startedAt,
    durationMs: endedAt.getTime() - startedAt.getTime(),
    responseCode: outcome.status,
    error: failureText(outcome),
    failed: !succeeded,
    status: succeeded ? "succeeded" : delay === null ? "dead" : "pending",
    nextAttemptAt: delay === null ? null : new Date(endedAt.getTime() + delay),
  };
}

/** A claimed delivery waiting in its endpoint's queue, with its endpoint's secrets opened at the claim. */
interface Queued {
  claimed: ClaimedDelivery;
  claimedAt: number;
  /** Why they could not be opened (e.g. sealed under a master key this worker lacks): nothing is sent unsigned. */
  secrets: OpenSecrets | Error;
}

export function webhookDispatcher(options: DispatcherOptions): WebhookDispatcher {
  const { pool, box, now, log } = options;
  const transport = options.transport ?? createTransport();
  const maxInFlight = options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT;
  const perEndpoint = options.perEndpoint ?? DEFAULT_PER_ENDPOINT;
  const claimAhead = options.claimAhead ?? DEFAULT_CLAIM_AHEAD;
  const fanOutBatch = options.fanOutBatch ?? DEFAULT_FAN_OUT_BATCH;
  const timeoutMs = options.timeoutMs ?? WEBHOOK_ATTEMPT_TIMEOUT_MS;
  const leaseMs = options.leaseMs ?? DELIVERY_LEASE_MS;
  const named = namedStatementsOn(pool);
  const recorder = outcomeRecorder(pool, named);
  const holder = randomBytes(8).toString("hex");
  const maxHeld = claimAhead * maxInFlight;
  const maxHeldPerEndpoint = claimAhead * perEndpoint;

  /** Claimed, not sent yet, per endpoint; an endpoint moves to the back after each send (round robin). */
  const queues = new Map<string, Queued[]>();
  /** Ids of every lease held: queued, sending, or sent and waiting for its outcome's commit. */
  const held = new Set<string>();
  const heldPerEndpoint = new Map<string, number>();
  const sendingPerEndpoint = new Map<string, number>();
  let sending = 0;
  let unrecorded = 0;
  /** Endpoints whose last claim filled their room (more may be due), and whether it filled its whole limit. */
  const mayHaveMore = new Set<string>();
  let claimFilled = false;
  /** The claim under way: one at a time per dispatcher (across workers they take turns in the database). */
  let claiming: Promise<void> | undefined;
  const running = new Set<Promise<void>>();
  let stopped = false;

  const add = (counts: Map<string, number>, key: string, by: number) =>
    counts.set(key, (counts.get(key) ?? 0) + by);

  async function send({ claimed, secrets: opened }: Queued, startedAt: Date): Promise<AttemptOutcome> {
    try {
      // The same rule as at registration, on a fresh DNS answer; the request connects to what was checked.
      const target = await checkedReceiver(claimed.url, options.receivers);
      if (opened instanceof Error) throw opened;
      const secrets = secretsAt(opened, startedAt);
      const body = envelopeBody({
        id: claimed.id,
        type: claimed.type,
        createdAt: claimed.eventCreatedAt,
        data: claimed.data,
      });
      const headers = signedHeaders(claimed.id, body, secrets, Math.floor(startedAt.getTime() / 1000));
      return await postToReceiver(transport, target, body, headers, timeoutMs);
    } catch (error) {
      if (error instanceof ReceiverRefusedError) return { status: null, error: error.message };
      // E.g. a secret sealed under a master key this worker lacks: nothing is sent unsigned.
      log(`webhook delivery ${claimed.id} could not be prepared: ${(error as Error).message}`);
      return { status: null, error: "the delivery could not be signed; the service will retry" };
    }
  }

  function release(claimed: ClaimedDelivery): void {
    held.delete(claimed.id);
    add(heldPerEndpoint, claimed.endpointId, -1);
  }

  /** Waits for the work under way for at most `withinMs` (real time); the number still under way then. */
  async function underWayAfter(withinMs: number): Promise<number> {
    let timer: NodeJS.Timeout | undefined;
    const timeUp = new Promise<"time up">((resolve) => {
      if (Number.isFinite(withinMs)) timer = setTimeout(() => resolve("time up"), withinMs);
    });
    try {
      while (running.size > 0) {
        if ((await Promise.race([Promise.all(running), timeUp])) === "time up") break;
      }
    } finally {
      clearTimeout(timer);
    }
    return running.size;
  }

  function track(work: Promise<void>): void {
    const tracked = work.finally(() => running.delete(tracked));
    running.add(tracked);
  }

  /** A queue ran low while more may be due: claims now, beside the pass loop (whose fan-out may be long). */
  function refillIfLow(endpointId: string): void {
    if (claiming !== undefined || stopped) return;
    const queued = queues.get(endpointId)?.length ?? 0;
    if (
      (mayHaveMore.has(endpointId) && queued <= maxHeldPerEndpoint / 2) ||
      (claimFilled && held.size <= maxHeld / 2)
    ) {
      track(
        claimInTurn(new Date(now())).catch((error: Error) =>
          log(`webhook claim failed (the next pass claims again): ${error.message}`),
        ),
      );
    }
  }

  async function attempt(queued: Queued): Promise<void> {
    const { claimed } = queued;
    const startedAt = new Date(now());
    let result: RecordedAttempt;
    try {
      result = attemptResult(claimed, await send(queued, startedAt), startedAt, new Date(now()));
    } finally {
      // The receiver answered (or the attempt ended without one): its slot takes the next queued delivery.
      sending--;
      add(sendingPerEndpoint, claimed.endpointId, -1);
      pump();
      refillIfLow(claimed.endpointId);
    }
    if (await recorder.record({ claimed, attempt: result })) {
      countWebhookAttempt(result.status === "pending" ? "failed" : result.status);
    } else {
      log(
        `webhook delivery ${claimed.id}: lease lost before the outcome was recorded; another worker retries it`,
      );
    }
  }

  function start(queued: Queued): void {
    const { claimed } = queued;
    sending++;
    unrecorded++;
    add(sendingPerEndpoint, claimed.endpointId, 1);
    track(
      attempt(queued)
        .catch((error: Error) =>
          log(`webhook delivery ${claimed.id}: ${error.message} (its lease runs out, then it is retried)`),
        )
        .finally(() => {
          unrecorded--;
          release(claimed);
          pump();
        }),
    );
  }

  /** Starts queued deliveries while the bounds allow, one endpoint after another. */
  function pump(): void {
    const stale: ClaimedDelivery[] = [];
    for (const [endpointId, queue] of queues) {
      if (stopped || sending >= maxInFlight || unrecorded >= UNRECORDED_PER_SLOT * maxInFlight) break;
      if ((sendingPerEndpoint.get(endpointId) ?? 0) >= perEndpoint) continue;
      const next = queue.shift();
      queues.delete(endpointId);
      if (next === undefined) continue;
      if (queue.length > 0) queues.set(endpointId, queue);
      // Sent only while at least half its lease is left, so the attempt ends before the lease does.
      if (now() - next.claimedAt > leaseMs / 2) {
        stale.push(next.claimed);
        release(next.claimed);
      } else start(next);
    }
    if (stale.length > 0) {
      track(
        releaseLeases(pool, stale).catch((error: Error) =>
          log(`${stale.length} stale webhook claims not released (their leases run out): ${error.message}`),
        ),
      );
    }
  }

  async function claimInTurn(at: Date): Promise<void> {
    while (claiming !== undefined) await claiming.catch(() => undefined);
    const current = claim(at);
    claiming = current;
    try {
      await current;
    } finally {
      claiming = undefined;
    }
  }

  /** Claims what the queues have room for, oldest first per endpoint, and starts what the bounds allow. */
  async function claim(at: Date): Promise<void> {
    const limit = maxHeld - held.size;
    if (stopped || limit <= 0) return;
    const claimed = await claimDueDeliveries(
      pool,
      at,
      {
        holder,
        limit,
        perEndpoint,
        aheadPerEndpoint: maxHeldPerEndpoint,
        leaseMs,
        held: [...held],
      },
      await named(),
    );
    const opened = new Map<string, OpenSecrets | Error>();
    for (const delivery of claimed) {
      held.add(delivery.id);
      add(heldPerEndpoint, delivery.endpointId, 1);
      // Every row of one endpoint carries the same sealed secrets (read in the same statement).
      let secrets = opened.get(delivery.endpointId);
      if (secrets === undefined) {
        try {
          secrets = openSecrets(box, delivery.endpointId, delivery);
        } catch (error) {
          secrets = error as Error;
        }
        opened.set(delivery.endpointId, secrets);
      }
      const queue = queues.get(delivery.endpointId) ?? [];
      queue.push({ claimed: delivery, claimedAt: at.getTime(), secrets });
      queues.set(delivery.endpointId, queue);
    }
    claimFilled = claimed.length === limit;
    for (const endpointId of new Set([...mayHaveMore, ...claimed.map((delivery) => delivery.endpointId)])) {
      if ((heldPerEndpoint.get(endpointId) ?? 0) >= maxHeldPerEndpoint) mayHaveMore.add(endpointId);
      else mayHaveMore.delete(endpointId);
    }
    pump();
  }

  return {
    async pass() {
      const at = new Date(now());
      const fanned = await fanOutEvents(pool, at, fanOutBatch, await named());
      await claimInTurn(at);
      return fanned.events === fanOutBatch;
    },
    settle: (withinMs = Number.POSITIVE_INFINITY) => underWayAfter(withinMs),
    async stop(withinMs = Number.POSITIVE_INFINITY) {
      stopped = true;
      await claiming?.catch(() => undefined);
      const unsent = [...queues.values()].flat().map((entry) => entry.claimed);
      queues.clear();
      for (const claimed of unsent) release(claimed);
      await releaseLeases(pool, unsent).catch((error: Error) =>
        log(`${unsent.length} unsent webhook claims not released (their leases run out): ${error.message}`),
      );
      return underWayAfter(withinMs);
    },
  };
}
