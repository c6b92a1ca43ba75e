// `npm start`: the whole service in one process. Without configuration it is the embedded default:
// embedded database, local chains with both registries deployed, both indexers, the API. With
// DATABASE_URL and DEPLOYMENT_MANIFEST the same code runs against real Postgres and real chains.
// Ctrl-C stops everything in reverse order of start.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createApp } from "../api/app";
import { manifestChains } from "../api/decisions/chainCatalogue";
import { prepareDecisionData } from "../api/decisions/module";
import { listen } from "../api/server";
import { registryCatalogue } from "../chains/catalogue";
import { type Config, ConfigError, loadConfig } from "../config";
import { resolveMasterKey } from "../config/masterKey";
import { SANDBOX_DESIGNATED_LAUNCHER } from "../core/status/sandboxScenarios";
import { startEvmIndexer } from "../indexer/evm/run";
import { type SolanaManifestEntry, startSolanaIndexer } from "../indexer/solana";
import { startLocalnet } from "../localnet";
import { readManifest } from "../localnet/manifest";
import { type Database, openDatabase } from "../storage/database";
import { startWorker } from "../worker";

type Stop = () => Promise<void>;
type Row = [label: string, value: string];

const log = (line: string) => console.error(line);
/** Local chains make blocks every few hundred ms; polling faster keeps the mirror within a second. */
const LOCAL_EVM_POLLING_MS = 200;

/** The deployment manifest to index: the configured one, or local chains started here. */
async function chainsOf(config: Config, stops: Stop[]): Promise<{ manifestPath: string; rows: Row[] }> {
  if (config.chains.manifestPath) return { manifestPath: config.chains.manifestPath, rows: [] };
  const manifestPath = join(config.dataDir, "deployments", "local.json");
  const localnet = await startLocalnet({
    evmPort: config.chains.localEvmPort,
    solanaPort: config.chains.localSolanaPort,
    manifestPath,
    log,
  });
  stops.push(() => localnet.stop());
  return {
    manifestPath,
    rows: [
      ["EVM chain (Hardhat)", `${localnet.evm.rpcUrl}  registry ${localnet.manifest.evm[0]?.registry}`],
      ["Solana chain", `${localnet.solana.rpcUrl}  program ${localnet.manifest.solana[0]?.programId}`],
      ["Dev wallets", localnet.wallets.map((wallet) => wallet.name).join(", ")],
    ],
  };
}

async function startIndexers(config: Config, database: Database, manifestPath: string, stops: Stop[]) {
  const local = config.chains.manifestPath === undefined;
  const evm = await startEvmIndexer({
    databaseUrl: database.url,
    pool: database.pool,
    manifestPath,
    port: config.indexers.ponderPort,
    pollingIntervalMs: config.indexers.evmPollingIntervalMs ?? (local ? LOCAL_EVM_POLLING_MS : undefined),
    log,
  });
  stops.push(() => evm.stop());
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { solana?: SolanaManifestEntry[] };
  for (const entry of manifest.solana ?? []) {
    const solana = await startSolanaIndexer({
      pool: database.pool,
      manifestEntry: entry,
      commitment: config.indexers.solanaCommitment,
      log,
    });
    stops.push(() => solana.stop());
  }
  await evm.ready;
}

async function main(): Promise<void> {
  const config = loadConfig();
  const stops: Stop[] = [];
  const stopAll = async () => {
    for (const stop of stops.splice(0).reverse()) await stop().catch((error: Error) => log(error.message));
  };
  const onSignal = () => void stopAll().then(() => process.exit(0));
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);

  try {
    const masterKey = resolveMasterKey(config.masterKey, config.dataDir);
    const database = await openDatabase(config.database);
    stops.push(() => database.close());

    const chains = await chainsOf(config, stops);
    await startIndexers(config, database, chains.manifestPath, stops);

    const decisionChains = manifestChains(chains.manifestPath);
    await prepareDecisionData(database.pool, masterKey, decisionChains);
    const registries = registryCatalogue(readManifest(chains.manifestPath));
    const app = createApp({
      pool: database.pool,
      startedAt: new Date(),
      log,
      hosts: config.hosts,
      masterKey,
      anonymousRateLimitPerMinute: config.keylessRateLimitPerMinute,
      decisions: { chains: decisionChains },
      registries,
    });
    const api = await listen(app, config.api.host, config.api.port);
    stops.push(() => api.close());
    const worker = startWorker({
      pool: database.pool,
      registries,
      intervalMs: config.worker.intervalMs,
      log: (line) => log(`[worker] ${line}`),
    });
    stops.push(() => worker.stop());

    const port = new URL(api.url).port;
    printScreen([
      ["API (canonical)", `${api.url}/api/v1/health   openapi: ${api.url}/api/v1/openapi`],
      [
        "Sandbox host",
        `http://${config.hosts.sandbox[0] ?? `sandbox.localhost:${port}`}/api/v1/identity/check?name=SandboxFox&ticker=SFOX`,
      ],
      ["Production host", `http://${config.hosts.production[0] ?? `api.localhost:${port}`}/api`],
      [
        "Database",
        config.database.kind === "embedded"
          ? `${database.url} (embedded, files in ${config.database.dataDir})`
          : "DATABASE_URL",
      ],
      ["Deployment manifest", chains.manifestPath],
      ...chains.rows,
      [
        "SANDBOXFOX launcher",
        `EVM ${SANDBOX_DESIGNATED_LAUNCHER.evm}, Solana ${SANDBOX_DESIGNATED_LAUNCHER.solana}`,
      ],
    ]);
  } catch (error) {
    await stopAll();
    throw error;
  }
}

function printScreen(rows: Row[]): void {
  const width = Math.max(...rows.map(([label]) => label.length));
  const lines = rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`);
  console.log(["", "Identity protection service is running. Ctrl-C stops it.", "", ...lines, ""].join("\n"));
}

main().catch((error: Error) => {
  console.error(error instanceof ConfigError ? error.message : `Could not start: ${error.message}`);
  process.exit(1);
});
