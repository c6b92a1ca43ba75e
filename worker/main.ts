// `npm run worker`: the reservation and webhook worker as a production role, any number of replicas. Reads the typed
// configuration (DATABASE_URL, MASTER_KEY, DEPLOYMENT_MANIFEST, WORKER_INTERVAL_MS, WEBHOOK_*, LOG_LEVEL, METRICS_*)
// and the manifest's chains. Its metrics (with the database gauges: chain lag, outbox backlog) and probes listen on
// the internal address before the database opens: unready until migrations ran, and whenever the database does
// not answer.
import { registryCatalogue } from "../chains/catalogue";
import { readManifest } from "../config/manifest";
import { resolveMasterKey } from "../config/masterKey";
import { roleConfig, startRole, stopOnSignal } from "../config/role";
import { openDatabaseWhenReachable } from "../storage/openWhenReachable";
import { lineSink } from "../telemetry/log";
import { databaseCheck } from "../telemetry/probes";
import { registerMasterKey, startRoleTelemetry } from "../telemetry/role";
import { databaseGauges } from "./databaseGauges";
import { startWorker } from "./index";

const ROLE = "worker";

startRole(ROLE, async () => {
  const { config, manifestPath } = roleConfig(ROLE, process.env);
  const telemetry = await startRoleTelemetry(ROLE, config);
  const { log, readiness } = telemetry;
  const migrations = readiness.step("migrations", "migrating the database");
  const manifest = readManifest(manifestPath);
  const masterKey = resolveMasterKey(config.masterKey, config.dataDir);
  registerMasterKey(masterKey);
  // Opening migrates (under an advisory lock), so a worker started before the API still finds its tables; a
  // database not reachable yet is waited for.
  const database = await openDatabaseWhenReachable(config.database, {
    log: lineSink(log.child({ component: "database" }), "warn"),
  });
  migrations.done();
  readiness.check("database", databaseCheck(database.pool));
  telemetry.probes.addCollector(databaseGauges(database.pool));
  const worker = startWorker({
    pool: database.pool,
    registries: registryCatalogue(manifest),
    intervalMs: config.worker.intervalMs,
    log: lineSink(log.child({ component: "jobs" })),
    webhooks: {
      masterKey,
      allowLocalReceivers: config.webhooks.allowLocalReceivers,
      leaseMs: config.webhooks.leaseMs,
      drainMs: config.shutdownGraceMs,
    },
  });
  const chains = [...manifest.evm, ...manifest.solana].map((entry) => entry.chain);
  log.info(
    `reconciling reservations on ${chains.join(", ") || "no chains"} every ${config.worker.intervalMs} ms; building daily payout plans; delivering webhooks`,
  );
  // stop() lets passes and webhook attempts under way finish; attempts get at most the grace, then keep their lease.
  stopOnSignal(
    async () => {
      await worker.stop();
      await database.close();
      await telemetry.close();
    },
    config.shutdownGraceMs,
    (line) => log.info(line),
  );
});
