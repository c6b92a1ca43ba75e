// The SDK's one way to the service: fetch only (Node >= 20, Deno, Bun, browsers), an overall deadline that
// every attempt and every wait fits in, and retries of what is safe to retry: network errors, 409 (an
// idempotent request still in progress) and 5xx, after the backoff or the server's Retry-After.
import { backoffDelay } from "../../core/retry/backoff";

export type Fetch = (input: string, init: RequestInit) => Promise<Response>;

/** `{base_url}` → `{base_url}/api`; a URL that already ends in `/api` is kept (the spec's paths sit under it). */
export function apiBaseUrl(baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, "");
  return trimmed.endsWith("/api") ? trimmed : `${trimmed}/api`;
}

export interface HttpAnswer {
  kind: "answer";
  status: number;
  headers: Headers;
  text: string;
}
export type HttpOutcome = HttpAnswer | { kind: "timeout" } | { kind: "network_error"; error: unknown };

export interface HttpRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

export interface RetryOptions {
  /** Epoch ms by which everything, waits included, must be over. */
  deadline: number;
  /** Whether network errors, 409 and 5xx are retried (only for requests that are safe to repeat). */
  retry: boolean;
  now?: () => number;
}

const RETRY_BACKOFF = { initialDelayMs: 100, maxDelayMs: 1_000 };

/** Seconds of a Retry-After header (delta-seconds or an HTTP date), or undefined. */
export function retryAfterSeconds(headers: Headers, nowMs = Date.now()): number | undefined {
  const value = headers.get("retry-after");
  if (value === null) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - nowMs) / 1000);
}

function retryable(outcome: HttpOutcome): boolean {
  if (outcome.kind === "network_error") return true;
  return outcome.kind === "answer" && (outcome.status === 409 || outcome.status >= 500);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function attempt(fetchFn: Fetch, request: HttpRequest, timeoutMs: number): Promise<HttpOutcome> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  try {
    const init: RequestInit = { method: request.method, headers: request.headers, signal: controller.signal };
    if (request.body !== undefined) init.body = request.body;
    const response = await fetchFn(request.url, init);
    // The body is read under the same deadline: a server that sends headers and then stalls is a timeout.
    const text = await response.text();
    return { kind: "answer", status: response.status, headers: response.headers, text };
  } catch (error) {
    return timedOut ? { kind: "timeout" } : { kind: "network_error", error };
  } finally {
    clearTimeout(timer);
  }
}

/** Sends `request`, retrying within the deadline when allowed; the last outcome when no retry fits. */
export async function send(
  fetchFn: Fetch,
  request: HttpRequest,
  options: RetryOptions,
): Promise<HttpOutcome> {
  const now = options.now ?? Date.now;
  let answered: HttpAnswer | undefined;
  for (let attempts = 1; ; attempts++) {
    const remaining = options.deadline - now();
    if (remaining <= 0) return answered ?? { kind: "timeout" };
    const outcome = await attempt(fetchFn, request, remaining);
    // A retry the deadline cut short says less than the answer before it (a 503 beats "timeout").
    if (outcome.kind === "timeout" && answered !== undefined) return answered;
    if (outcome.kind === "answer") answered = outcome;
    if (!options.retry || !retryable(outcome)) return outcome;
    const serverWait = outcome.kind === "answer" ? retryAfterSeconds(outcome.headers) : undefined;
    const wait = Math.max(backoffDelay(RETRY_BACKOFF, attempts), (serverWait ?? 0) * 1000);
    // A retry that cannot start before the deadline would only turn a clear answer into a timeout.
    if (now() + wait >= options.deadline) return outcome;
    await sleep(wait);
  }
}
