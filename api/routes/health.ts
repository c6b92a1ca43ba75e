// Service health: the database answers (and how quickly), plus each chain's index telemetry.
import { z } from "zod";
import { ApiError } from "../../core/errors/catalogue";
import { chainHealthSchema } from "../openapi/schemas";
import type { Platform } from "../platform/platform";
import { readChainHealth } from "../readModel/chainHealth";

const healthSchema = z.object({
  status: z.enum(["ok", "degraded"]),
  database: z.object({ ok: z.boolean(), latencyMs: z.number() }),
  chains: z.array(chainHealthSchema),
  startedAt: z.string(),
  uptimeSeconds: z.number(),
});

export function registerHealthRoutes({ routes, deps, now }: Platform): void {
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
      const started = performance.now();
      let chains: Awaited<ReturnType<typeof readChainHealth>>;
      try {
        chains = await readChainHealth(deps.pool, now());
      } catch {
        throw new ApiError(
          "service_unavailable",
          "The database is unreachable; treat every decision as do-not-launch.",
          {
            database: { ok: false },
          },
        );
      }
      res.json({
        status: chains.every((chain) => chain.status === "ok") ? "ok" : "degraded",
        database: { ok: true, latencyMs: Math.round((performance.now() - started) * 100) / 100 },
        chains,
        startedAt: deps.startedAt.toISOString(),
        uptimeSeconds: Math.floor((now() - deps.startedAt.getTime()) / 1000),
      });
    },
  );
}
