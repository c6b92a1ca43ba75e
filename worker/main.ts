// `npm run worker`: the reservation and webhook worker as a production role, any number of replicas. Reads the typed
// configuration (DATABASE_URL, MASTER_KEY, DEPLOYMENT_MANIFEST, WORKER_INTERVAL_MS, WEBHOOK_*) and the manifest's chains.
import { registryCatalogue } from "../chains/catalogue";
import { readManifest } from "../config/manifest";
import { resolveMasterKey } from "../config/masterKey";
import { roleConfig, startRole, stopOnSignal } from "../config/role";
import { openDatabaseWhenReachable } from "../storage/openWhenReachable";
import { startWorker } from "./index";

const ROLE = "worker";
const log = (line: string) => console.error(`[${ROLE}] ${line}`);

startRole(ROLE, async () => {
  const { config, manifestPath } = roleConfig(ROLE, process.env);
  const manifest = readManifest(manifestPath);
  // Opening migrates (under an advisory lock), so a worker started before the API still finds its tables; a
  // database not reachable yet is waited for.
  const database = await openDatabaseWhenReachable(config.database, { log });
  const worker = startWorker({
    pool: database.pool,
    registries: registryCatalogue(manifest),
    intervalMs: config.worker.intervalMs,
    log,
    webhooks: {
      masterKey: resolveMasterKey(config.masterKey, config.dataDir),
      allowLocalReceivers: config.webhooks.allowLocalReceivers,
      leaseMs: config.webhooks.leaseMs,
    },
  });
  const chains = [...manifest.evm, ...manifest.solana].map((entry) => entry.chain);
  log(
    `reconciling reservations on ${chains.join(", ") || "no chains"} every ${config.worker.intervalMs} ms; building daily payout plans; delivering webhooks`,
  );
  // stop() lets passes and webhook attempts under way finish; the grace bounds it.
  stopOnSignal(
    async () => {
      await worker.stop();
      await database.close();
    },
    config.shutdownGraceMs,
    log,
  );
});
