// `npm run indexer:evm`: the EVM indexer as a production role. Settings: DATABASE_URL, DEPLOYMENT_MANIFEST,
// EVM_POLLING_INTERVAL_MS (default 1000), PONDER_PORT (default 42069), EVM_VIEWS_SCHEMA (default evm_mirror),
// IDENTITY_MIRROR_SCHEMA (schema of the API's tables, default public).
import { openDatabaseWhenReachable } from "../../storage/openWhenReachable";
import { roleSettings, stopOnSignal } from "../role";
import { startEvmIndexer } from "./run";

async function main(): Promise<void> {
  const { databaseUrl, manifestPath } = roleSettings("indexer:evm");
  // Opening migrates (under an advisory lock), so a role started before the API still finds its tables; a
  // database not reachable yet is waited for.
  const database = await openDatabaseWhenReachable(
    { kind: "postgres", url: databaseUrl },
    { log: (line) => console.error(`[indexer:evm] ${line}`) },
  );
  const { pool } = database;
  const indexer = await startEvmIndexer({
    databaseUrl,
    pool,
    manifestPath,
    pollingIntervalMs: Number(process.env.EVM_POLLING_INTERVAL_MS ?? 1000),
    port: Number(process.env.PONDER_PORT ?? 42069),
    viewsSchema: process.env.EVM_VIEWS_SCHEMA ?? "evm_mirror",
    mirrorSchema: process.env.IDENTITY_MIRROR_SCHEMA ?? "public",
  });
  console.error(
    `[indexer:evm] Ponder deployment schema ${indexer.deploymentSchema}, manifest ${manifestPath}`,
  );
  stopOnSignal(async () => {
    await indexer.stop();
    await database.close();
  });
}

main().catch((error: Error) => {
  console.error(`indexer:evm could not start: ${error.message}`);
  process.exit(1);
});
