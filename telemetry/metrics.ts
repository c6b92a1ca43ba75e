// The process's Prometheus metrics (prom-client), served by the probe server (./probes.ts) on the internal
// address, never on the public API. The hot paths only touch counters and histograms in memory (a child per
// label set is looked up once and kept); gauges read from the database are computed when scraped
// (./probes.ts, with a time bound), never per request. docs/operations.md lists every metric.
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

/** Every metric of this process (all roles of `npm start` share it). */
export const metricsRegistry = new Registry();

let defaultsCollected = false;
/** Process metrics (CPU, memory, event loop lag, handles), once per process. */
export function collectProcessMetrics(): void {
  if (defaultsCollected) return;
  defaultsCollected = true;
  collectDefaultMetrics({ register: metricsRegistry });
}

const requestDuration = new Histogram({
  name: "http_request_duration_seconds",
  help: "API request latency by route (the route template, `(unmatched)` for none) and status code.",
  labelNames: ["route", "status"] as const,
  buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [metricsRegistry],
});
const rateLimited = new Counter({
  name: "http_rate_limited_total",
  help: "API answers 429 (a key's or a client address's rate limit) by route.",
  labelNames: ["route"] as const,
  registers: [metricsRegistry],
});
const decisions = new Counter({
  name: "decisions_total",
  help: "Launch decisions signed, by environment, decision value and reason.",
  labelNames: ["environment", "decision", "reason"] as const,
  registers: [metricsRegistry],
});
const idempotency = new Counter({
  name: "idempotency_outcomes_total",
  help: "Idempotent requests answered from a stored answer (replayed) or refused (conflict: key reused with another body; in_progress).",
  labelNames: ["outcome"] as const,
  registers: [metricsRegistry],
});
const webhookAttempts = new Counter({
  name: "webhook_attempts_total",
  help: "Webhook delivery attempts by result: succeeded, failed (retried later) or dead (the schedule ran out).",
  labelNames: ["result"] as const,
  registers: [metricsRegistry],
});
const webhookDeadLetters = new Counter({
  name: "webhook_dead_letters_total",
  help: "Webhook deliveries that ran out of retries (dead); replay them with POST /v1/webhooks/deliveries/{id}/replay.",
  registers: [metricsRegistry],
});
const passDuration = new Histogram({
  name: "worker_pass_duration_seconds",
  help: "Duration of one pass of a background job, by job and outcome (ok, failed).",
  labelNames: ["job", "outcome"] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [metricsRegistry],
});

// The hot paths' batched statements (storage/batcher): how many calls a statement carried, how long its first
// call was held before it went out, and its round trip. Observed once per batch, not per call.
const BATCH_SECONDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 2.5];
const batchSize = new Histogram({
  name: "database_batch_size",
  help: "Calls carried by one batched statement, by statement.",
  labelNames: ["statement"] as const,
  buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256],
  registers: [metricsRegistry],
});
const batchHeld = new Histogram({
  name: "database_batch_held_seconds",
  help: "From a batch's first call to its statement being sent (the event loop's turn, or waiting for a batch in flight), by statement.",
  labelNames: ["statement"] as const,
  buckets: BATCH_SECONDS,
  registers: [metricsRegistry],
});
const batchDuration = new Histogram({
  name: "database_batch_duration_seconds",
  help: "A batched statement's round trip, its commit included, by statement and outcome (ok, failed).",
  labelNames: ["statement", "outcome"] as const,
  buckets: BATCH_SECONDS,
  registers: [metricsRegistry],
});

const indexerRestarts = new Counter({
  name: "indexer_watchdog_restarts_total",
  help: "Restarts of a stalled indexer (Ponder, or the Solana loop) by the watchdog, by chain and family.",
  labelNames: ["chain", "family"] as const,
  registers: [metricsRegistry],
});

// Label children looked up once: on the hot path an observation is a Map read and two additions.
const requestChildren = new Map<string, ReturnType<typeof requestDuration.labels>>();
const rateLimitedChildren = new Map<string, ReturnType<typeof rateLimited.labels>>();

/** Records an answered API request; `route` is `METHOD /template` (bounded: never the raw path). */
export function observeRequest(route: string, status: number, seconds: number): void {
  const key = `${status} ${route}`;
  let child = requestChildren.get(key);
  if (child === undefined) {
    child = requestDuration.labels(route, String(status));
    requestChildren.set(key, child);
  }
  child.observe(seconds);
  if (status === 429) {
    let limited = rateLimitedChildren.get(route);
    if (limited === undefined) {
      limited = rateLimited.labels(route);
      rateLimitedChildren.set(route, limited);
    }
    limited.inc();
  }
}

const decisionChildren = new Map<string, ReturnType<typeof decisions.labels>>();

/** Records a signed decision. */
export function countDecision(environment: string, decision: string, reason: string): void {
  const key = `${environment} ${decision} ${reason}`;
  let child = decisionChildren.get(key);
  if (child === undefined) {
    child = decisions.labels(environment, decision, reason);
    decisionChildren.set(key, child);
  }
  child.inc();
}

export function countIdempotency(outcome: "replayed" | "conflict" | "in_progress"): void {
  idempotency.labels(outcome).inc();
}

export function countWebhookAttempt(result: "succeeded" | "failed" | "dead"): void {
  webhookAttempts.labels(result).inc();
  if (result === "dead") webhookDeadLetters.inc();
}

export function countIndexerRestart(chain: string, family: "evm" | "solana"): void {
  indexerRestarts.labels(chain, family).inc();
}

/** Times one pass of `job`: the returned function ends it. */
export function timePass(job: string): (outcome: "ok" | "failed") => void {
  const end = passDuration.startTimer({ job });
  return (outcome) => void end({ outcome });
}

/** What one batched statement took (storage/batcher). */
export interface BatchFigures {
  size: number;
  /** From the batch's first call to the statement being sent. */
  heldMs: number;
  /** From the statement being sent to its answer or failure. */
  runMs: number;
  failed: boolean;
}

/** The observer of `statement`'s batches: their sizes, hold and round trip in this process's metrics. */
export function batchObserver(statement: string): (batch: BatchFigures) => void {
  const size = batchSize.labels(statement);
  const held = batchHeld.labels(statement);
  const ok = batchDuration.labels(statement, "ok");
  const failed = batchDuration.labels(statement, "failed");
  return (batch) => {
    size.observe(batch.size);
    held.observe(batch.heldMs / 1000);
    (batch.failed ? failed : ok).observe(batch.runMs / 1000);
  };
}

/** A registry of its own for gauges set when scraped (./probes.ts ScrapeCollector). */
export function scrapeRegistry(): Registry {
  return new Registry();
}

/** A gauge whose value a scrape collector sets (from the database, say). */
export function scrapedGauge<Label extends string>(
  registry: Registry,
  name: string,
  help: string,
  labelNames: readonly Label[] = [],
): Gauge<Label> {
  return new Gauge({ name, help, labelNames, registers: [registry] });
}
