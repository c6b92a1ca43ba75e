// `npm run api`: the API alone, as a production role that runs as any number of replicas behind a load balancer.
// Replicas share nothing but Postgres (rate windows, idempotency, decisions, the outbox), so the role needs
// DATABASE_URL; the indexers and the worker run as their own roles. Reads the typed configuration
// (DATABASE_URL, MASTER_KEY, DEPLOYMENT_MANIFEST, HOST, PORT, the host lists, LOG_LEVEL, METRICS_*) and the
// manifest once at start. Its metrics and probes listen on the internal address before the database opens:
// unready until migrations ran and the signing keys are loaded, and whenever the database does not answer.
import { registryCatalogue } from "../chains/catalogue";
import { readManifest } from "../config/manifest";
import { resolveMasterKey } from "../config/masterKey";
import { roleConfig, startRole, stopOnSignal } from "../config/role";
import { openDatabase } from "../storage/database";
import { databaseCheck } from "../telemetry/probes";
import { registerMasterKey, startRoleTelemetry } from "../telemetry/role";
import { serveApi } from "./serve";

const ROLE = "api";

startRole(ROLE, async () => {
  const { config, manifestPath } = roleConfig(ROLE, process.env);
  const telemetry = await startRoleTelemetry(ROLE, config);
  const { log, readiness } = telemetry;
  const migrations = readiness.step("migrations", "migrating the database");
  const signer = readiness.step("signer", "loading the signing keys");
  const manifest = readManifest(manifestPath);
  const masterKey = resolveMasterKey(config.masterKey, config.dataDir);
  registerMasterKey(masterKey);
  // Opening migrates under an advisory lock, so replicas started together migrate once.
  const database = await openDatabase(config.database);
  migrations.done();
  readiness.check("database", databaseCheck(database.pool));
  const server = await serveApi({
    config,
    pool: database.pool,
    manifest,
    registries: registryCatalogue(manifest),
    masterKey,
    log,
  });
  signer.done();
  log.info(
    `listening on ${server.url} (chains: ${[...manifest.evm, ...manifest.solana].map((entry) => entry.chain).join(", ") || "none"})`,
  );
  stopOnSignal(
    async () => {
      await server.close(config.shutdownGraceMs);
      await database.close();
      await telemetry.close();
    },
    config.shutdownGraceMs,
    (line) => log.info(line),
  );
});
