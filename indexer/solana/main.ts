// `npm run indexer:solana`: the Solana indexer as a production role, one indexer per manifest entry.
// Settings (config/settings.ts): DATABASE_URL, DEPLOYMENT_MANIFEST, SOLANA_COMMITMENT, SOLANA_POLL_INTERVAL_MS,
// INDEXER_STALL_MS.
import { ManifestError, readManifest } from "../../config/manifest";
import { roleConfig, startRole, stopOnSignal } from "../../config/role";
import { openDatabaseWhenReachable } from "../../storage/openWhenReachable";
import { lineSink } from "../../telemetry/log";
import { databaseCheck } from "../../telemetry/probes";
import { startRoleTelemetry } from "../../telemetry/role";
import { startSolanaIndexer } from "./index";

const ROLE = "indexer:solana";

startRole(ROLE, async () => {
  const { config, databaseUrl, manifestPath } = roleConfig(ROLE, process.env, { usesMasterKey: false });
  const telemetry = await startRoleTelemetry(ROLE, config);
  const { log, readiness } = telemetry;
  const migrations = readiness.step("migrations", "migrating the database");
  const entries = readManifest(manifestPath).solana;
  if (entries.length === 0) {
    throw new ManifestError(
      `The deployment manifest ${manifestPath} has no "solana" entries: nothing to index.`,
    );
  }
  // Opening migrates (under an advisory lock), so a role started before the API still finds its tables; a
  // database not reachable yet is waited for.
  const database = await openDatabaseWhenReachable(
    { kind: "postgres", url: databaseUrl },
    { log: lineSink(log.child({ component: "database" }), "warn") },
  );
  migrations.done();
  readiness.check("database", databaseCheck(database.pool));
  const { pool } = database;
  const indexers = await Promise.all(
    entries.map((manifestEntry) =>
      startSolanaIndexer({
        pool,
        manifestEntry,
        commitment: config.indexers.solanaCommitment,
        pollIntervalMs: config.indexers.solanaPollIntervalMs,
        stallMs: config.indexers.stallMs,
        log: lineSink(log.child({ component: "indexer", chain: manifestEntry.chain })),
      }),
    ),
  );
  // Ready once every loop has completed a pass, and not while the watchdog restarts one.
  for (const [index, indexer] of indexers.entries()) {
    readiness.condition(`indexing ${entries[index]?.chain}`, () => indexer.indexing());
  }
  log.info(`following ${entries.map((entry) => entry.chain).join(", ")}`);
  stopOnSignal(
    async () => {
      await Promise.all(indexers.map((indexer) => indexer.stop()));
      await database.close();
      await telemetry.close();
    },
    config.shutdownGraceMs,
    (line) => log.info(line),
  );
});
