// The EVM indexer (Ponder) as the indexer tests run it: against a test database and a local chain's manifest,
// mirroring into the database's schema, its views beside it, on a port of its own; and the schemas it leaves.
import { readManifest } from "../../../config/manifest";
import { type EvmIndexer, type EvmIndexerOptions, startEvmIndexer } from "../../../indexer/evm/run";
import { freePort } from "../../../net/ports";
import type { TestDatabase } from "../../support/testDatabase";

/**
 * Options a test may set beyond those fixed here (polling every 100 ms and a silent log by default); the
 * connection (databaseUrl, pool) too, to reach the database through a fault proxy.
 */
type TestIndexerOptions = Partial<
  Omit<EvmIndexerOptions, "manifest" | "manifestPath" | "serviceSchema" | "viewsSchema">
>;

export async function startTestEvmIndexer(
  database: TestDatabase,
  manifestPath: string,
  deploymentSchema: string,
  options: TestIndexerOptions = {},
): Promise<EvmIndexer> {
  return startEvmIndexer({
    databaseUrl: database.url,
    pool: database.pool,
    manifest: readManifest(manifestPath),
    manifestPath,
    serviceSchema: database.schema,
    viewsSchema: `${database.schema}_views`,
    deploymentSchema,
    port: await freePort(),
    pollingIntervalMs: 100,
    log: () => undefined,
    ...options,
  });
}

/** Drops the indexers' deployment schemas and the views schema, then closes the database (what `close()` leaves behind). */
export async function closeIndexerDatabase(
  database: TestDatabase,
  ...deploymentSchemas: string[]
): Promise<void> {
  for (const schema of [...deploymentSchemas, `${database.schema}_views`]) {
    await database.pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  }
  await database.close();
}
