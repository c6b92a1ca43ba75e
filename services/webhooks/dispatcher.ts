// The webhook worker job, in Svix's shape: prepare (fan the outbox out into deliveries, claim the due ones),
// dispatch (check the receiver again, sign, POST to the checked address), handle the outcome (success, the next
// retry of the fixed schedule, or dead). A pass only starts attempts: they run beside the loop, bounded per
// endpoint and overall, so one slow receiver holds its own slots and never the others'. The clock is a
// dependency so tests walk the retry schedule without waiting.
import type { Pool } from "pg";
import type { SecretBox } from "../../core/secrets/secretBox";
import {
  isDeliverySuccess,
  retryDelayMs,
  WEBHOOK_ATTEMPT_TIMEOUT_MS,
} from "../../core/webhook/deliveryPolicy";
import { countWebhookAttempt } from "../../telemetry/metrics";
import { type ClaimedDelivery, claimDueDeliveries, DELIVERY_LEASE_MS, type RecordedAttempt } from "./claims";
import { signingSecrets } from "./endpointSecrets";
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
  /** Outbox events fanned out per pass. Default 500. */
  fanOutBatch?: number;
  timeoutMs?: number;
  /** How long a claim holds a delivery. Default DELIVERY_LEASE_MS. */
  leaseMs?: number;
  log: (line: string) => void;
}

export interface WebhookDispatcher {
  /** Fans out, claims what the free slots allow and starts those attempts. True when more work may be waiting. */
  pass(): Promise<boolean>;
  /**
   * Resolves once every attempt under way has been recorded, or once `withinMs` (real time) has passed: with the
   * number of attempts still under way then. Those keep their lease, so another worker re-sends them when it runs
   * out; nothing is lost.
   */
  settle(withinMs?: number): Promise<number>;
  /** `listener` runs after each recorded attempt (a slot is free again). */
  onAttemptDone(listener: () => void): void;
}

export const DEFAULT_MAX_IN_FLIGHT = 32;
export const DEFAULT_PER_ENDPOINT = 4;
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

export function webhookDispatcher(options: DispatcherOptions): WebhookDispatcher {
  const { pool, box, now, log } = options;
  const transport = options.transport ?? createTransport();
  const maxInFlight = options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT;
  const perEndpoint = options.perEndpoint ?? DEFAULT_PER_ENDPOINT;
  const fanOutBatch = options.fanOutBatch ?? DEFAULT_FAN_OUT_BATCH;
  const timeoutMs = options.timeoutMs ?? WEBHOOK_ATTEMPT_TIMEOUT_MS;
  const leaseMs = options.leaseMs ?? DELIVERY_LEASE_MS;
  const inFlight = new Map<string, Promise<void>>();
  const recorder = outcomeRecorder(pool);
  const listeners: Array<() => void> = [];

  async function send(claimed: ClaimedDelivery, startedAt: Date): Promise<AttemptOutcome> {
    try {
      // The same rule as at registration, on a fresh DNS answer; the request connects to what was checked.
      const target = await checkedReceiver(claimed.url, options.receivers);
      const secrets = signingSecrets(box, claimed.endpointId, claimed, startedAt);
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
      throw error;
    }
  }

  async function attempt(claimed: ClaimedDelivery): Promise<void> {
    const startedAt = new Date(now());
    let outcome: AttemptOutcome;
    try {
      outcome = await send(claimed, startedAt);
    } catch (error) {
      // E.g. a secret sealed under a master key this worker lacks: nothing is sent unsigned.
      log(`webhook delivery ${claimed.id} could not be prepared: ${(error as Error).message}`);
      outcome = { status: null, error: "the delivery could not be signed; the service will retry" };
    }
    const result = attemptResult(claimed, outcome, startedAt, new Date(now()));
    if (await recorder.record({ claimed, attempt: result })) {
      countWebhookAttempt(result.status === "pending" ? "failed" : result.status);
    } else {
      log(
        `webhook delivery ${claimed.id}: lease lost before the outcome was recorded; another worker retries it`,
      );
    }
  }

  function start(claimed: ClaimedDelivery): void {
    const running = attempt(claimed)
      .catch((error: Error) =>
        log(`webhook delivery ${claimed.id}: ${error.message} (its lease runs out, then it is retried)`),
      )
      .finally(() => {
        inFlight.delete(claimed.id);
        for (const listener of listeners) listener();
      });
    inFlight.set(claimed.id, running);
  }

  return {
    async pass() {
      const at = new Date(now());
      const fanned = await fanOutEvents(pool, at, fanOutBatch);
      const free = maxInFlight - inFlight.size;
      const claimed = await claimDueDeliveries(pool, at, {
        limit: free,
        perEndpoint,
        leaseMs,
        sending: [...inFlight.keys()],
      });
      for (const delivery of claimed) start(delivery);
      return fanned.events === fanOutBatch || (free > 0 && claimed.length === free);
    },
    async settle(withinMs = Number.POSITIVE_INFINITY) {
      let timer: NodeJS.Timeout | undefined;
      const timeUp = new Promise<"time up">((resolve) => {
        if (Number.isFinite(withinMs)) timer = setTimeout(() => resolve("time up"), withinMs);
      });
      try {
        while (inFlight.size > 0) {
          if ((await Promise.race([Promise.all(inFlight.values()), timeUp])) === "time up") break;
        }
      } finally {
        clearTimeout(timer);
      }
      return inFlight.size;
    },
    onAttemptDone(listener) {
      listeners.push(listener);
    },
  };
}
