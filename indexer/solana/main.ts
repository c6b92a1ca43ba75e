// `npm run indexer:solana`: the Solana indexer as a production role, one process per manifest entry.
// Settings: DATABASE_URL, DEPLOYMENT_MANIFEST, SOLANA_COMMITMENT (finalized | confirmed, default finalized),
// SOLANA_POLL_INTERVAL_MS (default 1000).
import { readFileSync } from "node:fs";
import { openDatabaseWhenReachable } from "../../storage/openWhenReachable";
import { roleSettings, stopOnSignal } from "../role";
import { type Commitment, type SolanaManifestEntry, startSolanaIndexer } from "./index";

function commitment(): Commitment {
  const value = process.env.SOLANA_COMMITMENT ?? "finalized";
  if (value !== "finalized" && value !== "confirmed") {
    throw new Error(`SOLANA_COMMITMENT must be "finalized" or "confirmed", got "${value}".`);
  }
  return value;
}

async function main(): Promise<void> {
  const { databaseUrl, manifestPath } = roleSettings("indexer:solana");
  const entries = (JSON.parse(readFileSync(manifestPath, "utf8")) as { solana?: SolanaManifestEntry[] })
    .solana;
  if (!entries?.length) throw new Error(`The manifest at ${manifestPath} has no "solana" entries.`);
  // Opening migrates (under an advisory lock), so a role started before the API still finds its tables; a
  // database not reachable yet is waited for.
  const database = await openDatabaseWhenReachable(
    { kind: "postgres", url: databaseUrl },
    { log: (line) => console.error(`[indexer:solana] ${line}`) },
  );
  const { pool } = database;
  const indexers = await Promise.all(
    entries.map((manifestEntry) =>
      startSolanaIndexer({
        pool,
        manifestEntry,
        commitment: commitment(),
        pollIntervalMs: Number(process.env.SOLANA_POLL_INTERVAL_MS ?? 1000),
      }),
    ),
  );
  console.error(`[indexer:solana] following ${entries.map((entry) => entry.chain).join(", ")}`);
  stopOnSignal(async () => {
    await Promise.all(indexers.map((indexer) => indexer.stop()));
    await database.close();
  });
}

main().catch((error: Error) => {
  console.error(`indexer:solana could not start: ${error.message}`);
  process.exit(1);
});
