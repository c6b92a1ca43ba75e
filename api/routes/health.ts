// Service health: the database answers (and how quickly), plus each chain's index telemetry. Health answers
// within the data-path bound: a frozen or unreachable database is a 503 that says so, never a hung request.
import { z } from "zod";
import { ApiError } from "../../core/errors/catalogue";
import {
  DEFAULT_DATA_PATH_TIMEOUT_MS,
  isDataPathTimeout,
  withinDataPathBound,
} from "../../storage/dataPathBound";
import { chainHealthSchema } from "../openapi/schemas";
import type { Platform } from "../platform/platform";
import { sharedInFlight } from "../platform/sharedInFlight";
import { readChainHealth } from "../readModel/chainHealth";

const healthSchema = z.object({
  status: z.enum(["ok", "degraded"]),
  database: z.object({ ok: z.boolean(), latencyMs: z.number() }),
  chains: z.array(chainHealthSchema),
  startedAt: z.string(),
  uptimeSeconds: z.number(),
});

function databaseDown(error: unknown, boundMs: number): ApiError {
  const timedOut = isDataPathTimeout(error);
  return new ApiError(
    "service_unavailable",
    timedOut
      ? `The database did not answer within ${boundMs} ms; treat every decision as do-not-launch.`
      : "The database is unreachable; treat every decision as do-not-launch.",
    // Chain telemetry is read from the database, so none is known while it is down.
    { database: { ok: false, reason: timedOut ? "timeout" : "unreachable" }, chains: "unavailable" },
  );
}

export function registerHealthRoutes({ routes, deps, now }: Platform): void {
  const boundMs = deps.decisions?.dataPathTimeoutMs ?? DEFAULT_DATA_PATH_TIMEOUT_MS;
  // A timed-out pg query keeps its connection busy until the server answers, and a frozen server runs no
  // statement_timeout. So concurrent callers share one probe (health holds at most one pool connection,
  // however often it is asked), and the probe's own query_timeout ends it at the bound (the pool then
  // discards that connection), so the next caller after the bound starts a fresh probe.
  const probe = sharedInFlight(async () => {
    const started = performance.now();
    const chains = await readChainHealth(deps.pool, now(), boundMs);
    return { chains, latencyMs: Math.round((performance.now() - started) * 100) / 100 };
  });

  routes.route(
    {
      method: "get",
      path: "/v1/health",
      summary: "Service and chain telemetry. `degraded` when any chain's index is stale or not started.",
      tag: "Public data",
      access: "public",
      responses: {
        200: { description: "The database answers; chain telemetry follows.", schema: healthSchema },
      },
      errors: ["service_unavailable"],
    },
    async ({ res }) => {
      const { chains, latencyMs } = await withinDataPathBound(probe(), boundMs).catch((error: unknown) => {
        throw databaseDown(error, boundMs);
      });
      res.json({
        status: chains.every((chain) => chain.status === "ok") ? "ok" : "degraded",
        database: { ok: true, latencyMs },
        chains,
        startedAt: deps.startedAt.toISOString(),
        uptimeSeconds: Math.floor((now() - deps.startedAt.getTime()) / 1000),
      });
    },
  );
}
