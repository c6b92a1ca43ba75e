// `npm run indexer:evm`: the EVM indexer as a production role. Settings (config/settings.ts): DATABASE_URL,
// DEPLOYMENT_MANIFEST, EVM_POLLING_INTERVAL_MS, PONDER_PORT, EVM_VIEWS_SCHEMA, IDENTITY_MIRROR_SCHEMA.
import { readManifest } from "../../config/manifest";
import { roleConfig, startRole, stopOnSignal } from "../../config/role";
import { openDatabaseWhenReachable } from "../../storage/openWhenReachable";
import { startEvmIndexer } from "./run";

const ROLE = "indexer:evm";

startRole(ROLE, async () => {
  const { config, databaseUrl, manifestPath } = roleConfig(ROLE, process.env, { usesMasterKey: false });
  const manifest = readManifest(manifestPath);
  // Opening migrates (under an advisory lock), so a role started before the API still finds its tables; a
  // database not reachable yet is waited for.
  const database = await openDatabaseWhenReachable(
    { kind: "postgres", url: databaseUrl },
    { log: (line) => console.error(`[${ROLE}] ${line}`) },
  );
  const indexer = await startEvmIndexer({
    databaseUrl,
    pool: database.pool,
    manifest,
    manifestPath,
    pollingIntervalMs: config.indexers.evmPollingIntervalMs,
    port: config.indexers.ponderPort,
    viewsSchema: config.indexers.evmViewsSchema,
    mirrorSchema: config.indexers.mirrorSchema,
    environment: process.env,
    stallMs: config.indexers.stallMs,
  });
  console.error(`[${ROLE}] Ponder deployment schema ${indexer.deploymentSchema}, manifest ${manifestPath}`);
  stopOnSignal(
    async () => {
      await indexer.stop();
      await database.close();
    },
    config.shutdownGraceMs,
    (line) => console.error(`[${ROLE}] ${line}`),
  );
});
