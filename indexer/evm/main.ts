// `npm run indexer:evm`: the EVM indexer as a production role. Settings (config/settings.ts): DATABASE_URL,
// DEPLOYMENT_MANIFEST, EVM_POLLING_INTERVAL_MS, PONDER_PORT, EVM_VIEWS_SCHEMA, SERVICE_SCHEMA.
import { readManifest } from "../../config/manifest";
import { roleConfig, startRole, stopOnSignal } from "../../config/role";
import { openDatabaseWhenReachable } from "../../storage/openWhenReachable";
import { lineSink } from "../../telemetry/log";
import { databaseCheck } from "../../telemetry/probes";
import { startRoleTelemetry } from "../../telemetry/role";
import { startEvmIndexer } from "./run";

const ROLE = "indexer:evm";

startRole(ROLE, async () => {
  const { config, databaseUrl, manifestPath } = roleConfig(ROLE, process.env, { usesMasterKey: false });
  const telemetry = await startRoleTelemetry(ROLE, config);
  const { log, readiness } = telemetry;
  const migrations = readiness.step("migrations", "migrating the database");
  const manifest = readManifest(manifestPath);
  // Opening migrates (under an advisory lock), so a role started before the API still finds its tables; a
  // database not reachable yet is waited for.
  const database = await openDatabaseWhenReachable(
    { kind: "postgres", url: databaseUrl },
    { log: lineSink(log.child({ component: "database" }), "warn") },
  );
  migrations.done();
  readiness.check("database", databaseCheck(database.pool));
  const indexer = await startEvmIndexer({
    databaseUrl,
    pool: database.pool,
    manifest,
    manifestPath,
    pollingIntervalMs: config.indexers.evmPollingIntervalMs,
    port: config.indexers.ponderPort,
    viewsSchema: config.indexers.evmViewsSchema,
    serviceSchema: config.indexers.serviceSchema,
    environment: process.env,
    log: lineSink(log.child({ component: "ponder" })),
    stallMs: config.indexers.stallMs,
  });
  // Ready once the Ponder process now running has answered /health and every chain has a checkpoint, unless a
  // watchdog restart awaits progress.
  readiness.condition("indexing", () => indexer.indexing());
  log.info(`Ponder deployment schema ${indexer.deploymentSchema}, manifest ${manifestPath}`);
  stopOnSignal(
    async () => {
      await indexer.stop();
      await database.close();
      await telemetry.close();
    },
    config.shutdownGraceMs,
    (line) => log.info(line),
  );
});
