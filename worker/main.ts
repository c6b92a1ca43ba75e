// `npm run worker`: the reservation worker as a production role, any number of replicas. Reads the typed
// configuration (DATABASE_URL, DEPLOYMENT_MANIFEST, WORKER_INTERVAL_MS) and the deployment manifest's chains.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { registryCatalogue } from "../chains/catalogue";
import { loadConfig } from "../config";
import { stopOnSignal } from "../indexer/role";
import { readManifest } from "../localnet/manifest";
import { openDatabaseWhenReachable } from "../storage/openWhenReachable";
import { startWorker } from "./index";

const log = (line: string) => console.error(`[worker] ${line}`);

async function main(): Promise<void> {
  const config = loadConfig();
  if (config.database.kind !== "postgres") {
    console.error(
      "The worker runs alone only against Postgres: set DATABASE_URL. (The embedded database is single-process; `npm start` runs the worker in its own process.)",
    );
    process.exit(2);
  }
  const manifestPath = config.chains.manifestPath ?? join(config.dataDir, "deployments", "local.json");
  if (!existsSync(manifestPath)) {
    throw new Error(
      `No deployment manifest at ${manifestPath}; set DEPLOYMENT_MANIFEST to the chains to reconcile.`,
    );
  }
  const manifest = readManifest(manifestPath);
  // Opening migrates (under an advisory lock), so a worker started before the API still finds its tables; a
  // database not reachable yet is waited for.
  const database = await openDatabaseWhenReachable(config.database, { log });
  const worker = startWorker({
    pool: database.pool,
    registries: registryCatalogue(manifest),
    intervalMs: config.worker.intervalMs,
    log,
  });
  const chains = [...manifest.evm, ...manifest.solana].map((entry) => entry.chain);
  log(`reconciling reservations on ${chains.join(", ") || "no chains"} every ${config.worker.intervalMs} ms`);
  stopOnSignal(async () => {
    await worker.stop();
    await database.close();
  });
}

main().catch((error: Error) => {
  console.error(`worker could not start: ${error.message}`);
  process.exit(1);
});
