// `npm run indexer:solana`: the Solana indexer as a production role, one indexer per manifest entry.
// Settings (config/settings.ts): DATABASE_URL, DEPLOYMENT_MANIFEST, SOLANA_COMMITMENT, SOLANA_POLL_INTERVAL_MS.
import { ManifestError, readManifest } from "../../config/manifest";
import { roleConfig, startRole, stopOnSignal } from "../../config/role";
import { openDatabaseWhenReachable } from "../../storage/openWhenReachable";
import { startSolanaIndexer } from "./index";

const ROLE = "indexer:solana";

startRole(ROLE, async () => {
  const { config, databaseUrl, manifestPath } = roleConfig(ROLE, process.env, { usesMasterKey: false });
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
    { log: (line) => console.error(`[${ROLE}] ${line}`) },
  );
  const { pool } = database;
  const indexers = await Promise.all(
    entries.map((manifestEntry) =>
      startSolanaIndexer({
        pool,
        manifestEntry,
        commitment: config.indexers.solanaCommitment,
        pollIntervalMs: config.indexers.solanaPollIntervalMs,
      }),
    ),
  );
  console.error(`[${ROLE}] following ${entries.map((entry) => entry.chain).join(", ")}`);
  stopOnSignal(
    async () => {
      await Promise.all(indexers.map((indexer) => indexer.stop()));
      await database.close();
    },
    config.shutdownGraceMs,
    (line) => console.error(`[${ROLE}] ${line}`),
  );
});
