// Service health: the database answers (and how quickly), plus each chain's index telemetry. Health answers
// within the data-path bound: a frozen or unreachable database is a 503 that says so, never a hung request.
import { z } from "zod";
import { ApiError } from "../../core/errors/catalogue";
import type { UnavailableReason } from "../../services/mirror";
import { chainHealthSchema } from "../platform/openapi/schemas";
import type { Platform } from "../platform/platform";

const healthSchema = z.object({
  status: z.enum(["ok", "degraded"]),
  database: z.object({ ok: z.boolean(), latencyMs: z.number() }),
  chains: z.array(chainHealthSchema),
  watchdog: z
    .array(
      z.object({
        chain: z.string(),
        posture: z.enum(["healthy", "degraded"]).describe("What chain.degraded last announced."),
        postureSince: z.string().nullable(),
        restartsLast24h: z
          .number()
          .int()
          .describe("Restarts of the chain's stalled indexer by the watchdog."),
        lastRestartAt: z.string().nullable(),
      }),
    )
    .describe("The stall watchdog per chain (docs/operations.md#watchdog)."),
  startedAt: z.string(),
  uptimeSeconds: z.number(),
});

function databaseDown(reason: UnavailableReason, boundMs: number): ApiError {
  return new ApiError(
    "service_unavailable",
    reason === "timeout"
      ? `The database did not answer within ${boundMs} ms; treat every decision as do-not-launch.`
      : "The database is unreachable; treat every decision as do-not-launch.",
    // Chain telemetry is read from the database, so none is known while it is down.
    { database: { ok: false, reason }, chains: "unavailable" },
  );
}

export function registerHealthRoutes({ routes, services, startedAt, now }: Platform): void {
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
    async () => {
      const probe = await services.mirror.health();
      if (!probe.ok) throw databaseDown(probe.reason, probe.boundMs);
      const { chains, watchdog, latencyMs } = probe;
      return {
        status: 200,
        body: {
          status: chains.every((chain) => chain.status === "ok") ? "ok" : "degraded",
          database: { ok: true, latencyMs },
          chains,
          watchdog,
          startedAt: startedAt.toISOString(),
          uptimeSeconds: Math.floor((now() - startedAt.getTime()) / 1000),
        },
      };
    },
  );
}
