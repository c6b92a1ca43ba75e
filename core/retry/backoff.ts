// Bounded exponential backoff for the service's long-running loops (indexer passes, Ponder restarts, the
// worker, start-up steps). Each failure waits longer, up to a cap of a few seconds so that a dependency
// that comes back is used again quickly; every failure is logged with its attempt count and the next
// delay, and the first success after failures is logged once. Timers only: browser-safe like all of core.

export interface BackoffPolicy {
  /** The delay after the first failure. */
  initialDelayMs: number;
  /** No delay exceeds this. */
  maxDelayMs: number;
}

/** The usual cap: recovery after a fault takes at most a few seconds more than the fault did. */
export const BACKOFF_CAP_MS = 5_000;

/** A loop that runs every `intervalMs`: backs off from that interval up to max(interval, 5 s). */
export function backoffPolicy(intervalMs: number, overrides: Partial<BackoffPolicy> = {}): BackoffPolicy {
  const maxDelayMs = overrides.maxDelayMs ?? Math.max(intervalMs, BACKOFF_CAP_MS);
  const initialDelayMs = Math.min(overrides.initialDelayMs ?? Math.max(intervalMs, 1), maxDelayMs);
  return { initialDelayMs, maxDelayMs };
}

/**
 * The wait after failure number `attempt` (1-based): the initial delay doubled per failure and capped,
 * with equal jitter (half fixed, half random) so that replicas do not retry in lockstep yet never spin.
 */
export function backoffDelay(
  policy: BackoffPolicy,
  attempt: number,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** Math.min(attempt - 1, 30));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

export interface Backoff {
  /** Records a failure, logs it, and returns how long to wait before the next attempt. */
  failed(error: unknown): number;
  /** Records a success: the delays start over, and a recovery after failures is logged once. */
  succeeded(): void;
  /** Failures since the last success. */
  failures(): number;
}

export interface BackoffOptions {
  /** What is retried, as log lines name it: "Solana indexer pass (solana)". */
  what: string;
  log: (line: string) => void;
  policy: BackoffPolicy;
  random?: () => number;
}

/** A repeated message is logged for the first attempts, then every tenth: condensed, never silent. */
const ALWAYS_LOGGED_ATTEMPTS = 3;
const REPEAT_LOG_EVERY = 10;

export function createBackoff(options: BackoffOptions): Backoff {
  let failures = 0;
  let lastMessage: string | undefined;
  return {
    failed(error) {
      failures += 1;
      const delay = backoffDelay(options.policy, failures, options.random);
      const message = error instanceof Error ? error.message : String(error);
      if (
        message !== lastMessage ||
        failures <= ALWAYS_LOGGED_ATTEMPTS ||
        failures % REPEAT_LOG_EVERY === 0
      ) {
        options.log(`${options.what} failed (attempt ${failures}), retrying in ${delay} ms: ${message}`);
      }
      lastMessage = message;
      return delay;
    },
    succeeded() {
      if (failures > 0) {
        options.log(
          `${options.what} resumed after ${failures} failed ${failures === 1 ? "attempt" : "attempts"}`,
        );
      }
      failures = 0;
      lastMessage = undefined;
    },
    failures: () => failures,
  };
}

export interface RetryOptions {
  backoff: Backoff;
  /** Errors that retrying cannot fix (a misconfiguration): thrown at once. */
  isFatal?: (error: unknown) => boolean;
  /** Default: a timer. */
  sleep?: (ms: number) => Promise<void>;
}

/** Runs `attempt` until it succeeds, waiting as `backoff` says between failures (start-up steps). */
export async function retryUntilSuccess<T>(attempt: () => Promise<T>, options: RetryOptions): Promise<T> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  for (;;) {
    try {
      const result = await attempt();
      options.backoff.succeeded();
      return result;
    } catch (error) {
      if (options.isFatal?.(error)) throw error;
      await sleep(options.backoff.failed(error));
    }
  }
}
