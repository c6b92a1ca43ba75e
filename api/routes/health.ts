import { Router } from "express";
import type { Pool } from "pg";
import { ApiError } from "../../core/errors/catalogue";

/** Service health: the database answers, and how quickly. Chain telemetry joins it with the indexers. */
export function healthRoutes(pool: Pool, startedAt: Date): Router {
  const router = Router();
  router.get("/v1/health", async (_req, res) => {
    const started = performance.now();
    try {
      await pool.query("SELECT 1");
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
      status: "ok",
      database: { ok: true, latencyMs: Math.round((performance.now() - started) * 100) / 100 },
      startedAt: startedAt.toISOString(),
      uptimeSeconds: Math.floor((Date.now() - startedAt.getTime()) / 1000),
    });
  });
  return router;
}
