// Each role's internal server (METRICS_HOST:METRICS_PORT, never the public API's address): `GET /metrics` in
// Prometheus' text format, `GET /livez` (the process answers) and `GET /readyz` (it can do its work: every
// start-up step done, every live check passing). It starts before the role opens its database, so an
// orchestrator sees a live, unready process while migrations run.
import { createServer, type Server, type ServerResponse } from "node:http";
import type { Registry } from "prom-client";
import { listen } from "../net/ports";
import type { Logger } from "./log";
import { collectProcessMetrics, metricsRegistry } from "./metrics";

/** Bound of one live check and of one scrape's database reads: a probe answers even when the database hangs. */
export const PROBE_TIMEOUT_MS = 2_000;

type CheckResult = { ok: true } | { ok: false; reason: string };

/**
 * What readiness waits for: start-up steps (`step`, pending until `done`) and live checks run at each probe
 * (`check`, such as reaching the database).
 */
export class Readiness {
  private readonly steps = new Map<string, string | null>();
  private readonly checks = new Map<string, () => Promise<unknown>>();

  /** A start-up step that keeps the role unready until `done()` (`pending` says what it waits for). */
  step(name: string, pending: string): { done(): void } {
    this.steps.set(name, pending);
    return { done: () => void this.steps.set(name, null) };
  }

  /** A check run at each readiness probe; a rejection (or no answer within the bound) makes the role unready. */
  check(name: string, probe: () => Promise<unknown>): void {
    this.checks.set(name, probe);
  }

  /**
   * A condition the role keeps in memory (an indexing loop running): unready while `pending()` names what it
   * waits for, ready while it returns null. Read at each probe, like a check.
   */
  condition(name: string, pending: () => string | null): void {
    this.check(name, async () => {
      const waiting = pending();
      if (waiting !== null) throw new Error(waiting);
    });
  }

  async state(): Promise<{ ready: boolean; checks: Record<string, string> }> {
    const checks: Record<string, string> = {};
    for (const [name, pending] of this.steps) checks[name] = pending ?? "ok";
    const results = await Promise.all(
      [...this.checks].map(async ([name, probe]): Promise<[string, CheckResult]> => {
        try {
          await withTimeout(probe(), `${name} did not answer within ${PROBE_TIMEOUT_MS} ms`);
          return [name, { ok: true }];
        } catch (error) {
          return [name, { ok: false, reason: (error as Error).message }];
        }
      }),
    );
    for (const [name, result] of results) checks[name] = result.ok ? "ok" : result.reason;
    return { ready: Object.values(checks).every((value) => value === "ok"), checks };
  }
}

function withTimeout<T>(promise: Promise<T>, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(message)), PROBE_TIMEOUT_MS);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** Metrics computed when scraped (database gauges): `collect` sets the gauges registered on `registry`. */
export interface ScrapeCollector {
  registry: Registry;
  collect(): Promise<void>;
}

export interface ProbeServerOptions {
  host: string;
  port: number;
  readiness: Readiness;
  log: Logger;
  collectors?: readonly ScrapeCollector[];
}

export interface ProbeServer {
  url: string;
  /** Adds scrape-time gauges once what they read exists (the database is open). */
  addCollector(collector: ScrapeCollector): void;
  close(): Promise<void>;
}

export async function startProbeServer(options: ProbeServerOptions): Promise<ProbeServer> {
  collectProcessMetrics();
  const collectors = [...(options.collectors ?? [])];
  const answer = (res: ServerResponse, status: number, type: string, body: string) => {
    res.writeHead(status, { "Content-Type": type, "Cache-Control": "no-store" }).end(body);
  };
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (req.method !== "GET" && req.method !== "HEAD") return answer(res, 405, "text/plain", "GET only\n");
    if (path === "/livez") return answer(res, 200, "application/json", '{"live":true}\n');
    if (path === "/readyz") {
      void options.readiness.state().then((state) => {
        answer(res, state.ready ? 200 : 503, "application/json", `${JSON.stringify(state)}\n`);
      });
      return;
    }
    if (path === "/metrics") {
      void scrape(collectors, options.log).then(
        (text) => answer(res, 200, metricsRegistry.contentType, text),
        (error: Error) => {
          options.log.error({ err: error }, "metrics scrape failed");
          answer(res, 500, "text/plain", "scrape failed\n");
        },
      );
      return;
    }
    answer(res, 404, "text/plain", "/metrics, /livez or /readyz\n");
  });
  const port = await listen(server, options.host, {
    port: options.port,
    service: "metrics and probes",
    setting: "METRICS_PORT",
  });
  return {
    url: `http://${options.host.includes(":") ? `[${options.host}]` : options.host}:${port}`,
    addCollector: (collector) => void collectors.push(collector),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The process's metrics, then each collector's gauges; a collector that fails or hangs is skipped (logged). */
async function scrape(collectors: readonly ScrapeCollector[], log: Logger): Promise<string> {
  const parts = [await metricsRegistry.metrics()];
  for (const collector of collectors) {
    try {
      await withTimeout(collector.collect(), `scrape gauges did not answer within ${PROBE_TIMEOUT_MS} ms`);
      parts.push(await collector.registry.metrics());
    } catch (error) {
      log.warn({ err: error }, "scrape-time gauges skipped");
    }
  }
  return parts.join("\n");
}

/** The readiness check of a role's database: one `SELECT 1`, ended by the driver at the probe bound. */
export function databaseCheck(pool: {
  query(config: { text: string; query_timeout: number }): Promise<unknown>;
}): () => Promise<unknown> {
  return () => pool.query({ text: "SELECT 1", query_timeout: PROBE_TIMEOUT_MS });
}
