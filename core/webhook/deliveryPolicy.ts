// The delivery rule of every webhook attempt: what counts as success, how long an attempt may take, and the
// fixed retry schedule (the spec's 1 m, 5 m, 30 m, 2 h, 12 h), after which a delivery is dead.

/** Waits after the 1st..5th failed attempt of a round; a 6th failure makes the delivery dead. */
export const WEBHOOK_RETRY_DELAYS_SECONDS = [60, 300, 1_800, 7_200, 43_200] as const;

/** An attempt that has not answered with a status within this is a failure. */
export const WEBHOOK_ATTEMPT_TIMEOUT_MS = 15_000;

/** Only a 2xx is success; a 3xx is not followed (the target it names was never checked) and fails. */
export function isDeliverySuccess(status: number): boolean {
  return status >= 200 && status <= 299;
}

/**
 * Milliseconds until the next attempt after `failuresInRound` failed attempts (counting the one just made),
 * or null when the schedule is spent and the delivery becomes dead.
 */
export function retryDelayMs(failuresInRound: number): number | null {
  const seconds = WEBHOOK_RETRY_DELAYS_SECONDS[failuresInRound - 1];
  return seconds === undefined ? null : seconds * 1000;
}
