// Fixed rate-limit windows aligned to the clock minute, and the headers that describe them.
import { ApiError } from "../../core/errors/catalogue";

export const RATE_WINDOW_SECONDS = 60;
export const SANDBOX_RATE_LIMIT = 60;
export const PRODUCTION_DEFAULT_RATE_LIMIT = 300;
export const PRODUCTION_MAX_RATE_LIMIT = 2000;

export interface RateWindow {
  /** Start of the current clock minute. */
  start: Date;
  /** Whole seconds until the next minute starts (1-60): the Retry-After of a 429. */
  resetSeconds: number;
}

export interface RateState {
  limit: number;
  /** Requests counted in this window, including the current one. */
  count: number;
  window: RateWindow;
}

export function rateWindowAt(nowMs: number): RateWindow {
  const windowMs = RATE_WINDOW_SECONDS * 1000;
  const startMs = Math.floor(nowMs / windowMs) * windowMs;
  return {
    start: new Date(startMs),
    resetSeconds: Math.max(1, Math.ceil((startMs + windowMs - nowMs) / 1000)),
  };
}

export function remainingOf(state: RateState): number {
  return Math.max(0, state.limit - state.count);
}

export function isOverLimit(state: RateState): boolean {
  return state.count > state.limit;
}

/**
 * `RateLimit-Remaining` (the spec's header) plus the IETF httpapi fields `RateLimit-Policy` and `RateLimit`
 * (draft-ietf-httpapi-ratelimit-headers: quota `q`, window `w`, remaining `r`, reset `t`), and `Retry-After`
 * once the limit is passed.
 */
export function rateLimitHeaders(state: RateState): Record<string, string> {
  const remaining = String(remainingOf(state));
  const headers: Record<string, string> = {
    "RateLimit-Remaining": remaining,
    "RateLimit-Policy": `"per-minute";q=${state.limit};w=${RATE_WINDOW_SECONDS}`,
    RateLimit: `"per-minute";r=${remaining};t=${state.window.resetSeconds}`,
  };
  if (isOverLimit(state)) headers["Retry-After"] = String(state.window.resetSeconds);
  return headers;
}

/** The 429 of a request past its limit. */
export function rateLimitedError(state: RateState): ApiError {
  return new ApiError(
    "rate_limited",
    `Rate limit of ${state.limit} requests per minute exceeded; retry in ${state.window.resetSeconds} s (Retry-After).`,
    { limit: state.limit, windowSeconds: RATE_WINDOW_SECONDS, retryAfterSeconds: state.window.resetSeconds },
  );
}
