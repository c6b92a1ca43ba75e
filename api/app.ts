// The HTTP face of the service. Routes gather records and format answers; decisions live in core/.
import express, { type Express } from "express";
import helmet from "helmet";
import type { Pool } from "pg";
import { errorHandler, notFound } from "./middleware/errors";
import { responseVersion } from "./middleware/responseVersion";
import { healthRoutes } from "./routes/health";

export interface ApiDependencies {
  pool: Pool;
  startedAt: Date;
  log: (message: string) => void;
}

/** Largest JSON body accepted; every documented request is far smaller. */
export const BODY_LIMIT_BYTES = 64 * 1024;

export function createApp(deps: ApiDependencies): Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("query parser", "simple");
  app.use(helmet());
  app.use(responseVersion);
  app.use(express.json({ limit: BODY_LIMIT_BYTES, strict: true }));

  const api = express.Router();
  api.use(healthRoutes(deps.pool, deps.startedAt));
  app.use("/api", api);

  app.use(notFound);
  app.use(errorHandler(deps.log));
  return app;
}
