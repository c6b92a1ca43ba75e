// Where an indexer role finds its database and deployment manifest when run alone (`npm run indexer:*`).
import { join } from "node:path";

export interface RoleSettings {
  databaseUrl: string;
  manifestPath: string;
}

/** Reads DATABASE_URL (required: a role shares Postgres with the API) and DEPLOYMENT_MANIFEST. */
export function roleSettings(role: string): RoleSettings {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    console.error(
      `${role} runs alone only against Postgres: set DATABASE_URL. (The embedded database is single-process; \`npm start\` runs the indexers in its own process.)`,
    );
    process.exit(2);
  }
  const manifestPath =
    process.env.DEPLOYMENT_MANIFEST ?? join(process.env.DATA_DIR ?? "data", "deployments", "local.json");
  return { databaseUrl, manifestPath };
}

/** Stops `stop` on SIGINT/SIGTERM, then exits. */
export function stopOnSignal(stop: () => Promise<void>): void {
  const handler = () => void stop().then(() => process.exit(0));
  process.once("SIGINT", handler);
  process.once("SIGTERM", handler);
}
