// `npm start`: the whole service in one process. Without configuration it is the embedded default:
// embedded database, local chains with both registries deployed (each with the sandbox's own deployment beside
// it), both indexers, the API. With DATABASE_URL and DEPLOYMENT_MANIFEST the same code runs against real
// Postgres and real chains.
// Ctrl-C stops everything in reverse order of start.
import { serveApi } from "../api/serve";
import { registryCatalogue } from "../chains/catalogue";
import { type Config, ConfigError, loadConfig } from "../config";
import { type DeploymentManifest, localManifestPath, ManifestError, readManifest } from "../config/manifest";
import { resolveMasterKey } from "../config/masterKey";
import { ENVIRONMENTS } from "../core/environment";
import { createSecretBox } from "../core/secrets/secretBox";
import { SANDBOX_DESIGNATED_LAUNCHER } from "../core/status/sandboxScenarios";
import { startEvmIndexer } from "../indexer/evm/run";
import { startSolanaIndexer } from "../indexer/solana";
import { ensureSigningKeys } from "../services/signing/signingKeyStore";
import { syncRegistrySigners } from "../services/signing/syncRegistrySigners";
import { type Database, openDatabase } from "../storage/database";
import { type Logger, lineSink } from "../telemetry/log";
import { databaseCheck, type Readiness } from "../telemetry/probes";
import { registerMasterKey, startRoleTelemetry } from "../telemetry/role";
import { startWorker } from "../worker";
import { databaseGauges } from "../worker/databaseGauges";
import { LOCAL_EVM_BLOCK_MS, startLocalnet } from "./localnet";
import { REGISTRY_ADMIN_KEYS } from "./registryAdminKeys";

type Stop = () => Promise<void>;
type Row = [label: string, value: string];

/** Local chains make blocks every few hundred ms; polling faster keeps the mirror within a second. */
const LOCAL_EVM_POLLING_MS = 200;

interface Chains {
  manifest: DeploymentManifest;
  manifestPath: string;
  /** True when this process started the chains (fresh registries, administered with the development keys). */
  local: boolean;
  rows: Row[];
}

/** The deployment manifest to serve, read once: the configured one, or that of local chains started here. */
async function chainsOf(config: Config, stops: Stop[], log: Logger): Promise<Chains> {
  if (config.chains.manifestPath) {
    const manifestPath = config.chains.manifestPath;
    return { manifest: readManifest(manifestPath), manifestPath, local: false, rows: [] };
  }
  const manifestPath = localManifestPath(config.dataDir);
  const localnet = await startLocalnet({
    evmPort: config.chains.localEvmPort,
    solanaPort: config.chains.localSolanaPort,
    manifestPath,
    evmBlockMs: LOCAL_EVM_BLOCK_MS,
    log: lineSink(log.child({ component: "localnet" })),
  });
  stops.push(() => localnet.stop());
  return {
    manifest: localnet.manifest,
    manifestPath,
    local: true,
    rows: [
      [
        "EVM chain (Hardhat)",
        `${localnet.evm.rpcUrl}  registry ${localnet.manifest.evm[0]?.registry}  sandbox registry ${localnet.manifest.evm[0]?.sandbox?.registry}`,
      ],
      [
        "Solana chain",
        `${localnet.solana.rpcUrl}  program ${localnet.manifest.solana[0]?.programId}  sandbox program ${localnet.manifest.solana[0]?.sandbox?.programId}`,
      ],
      ["Dev wallets", localnet.wallets.map((wallet) => wallet.name).join(", ")],
    ],
  };
}

async function startIndexers(
  config: Config,
  database: Database,
  chains: Chains,
  stops: Stop[],
  log: Logger,
  readiness: Readiness,
) {
  const local = config.chains.manifestPath === undefined;
  const evm = await startEvmIndexer({
    databaseUrl: database.url,
    pool: database.pool,
    manifest: chains.manifest,
    manifestPath: chains.manifestPath,
    port: config.indexers.ponderPort,
    pollingIntervalMs: config.indexers.evmPollingIntervalMs ?? (local ? LOCAL_EVM_POLLING_MS : undefined),
    viewsSchema: config.indexers.evmViewsSchema,
    serviceSchema: config.indexers.serviceSchema,
    environment: process.env,
    stallMs: config.indexers.stallMs,
    log: lineSink(log.child({ component: "indexer:evm" })),
  });
  stops.push(() => evm.stop());
  for (const entry of chains.manifest.solana) {
    const solana = await startSolanaIndexer({
      pool: database.pool,
      manifestEntry: entry,
      commitment: config.indexers.solanaCommitment,
      pollIntervalMs: config.indexers.solanaPollIntervalMs,
      stallMs: config.indexers.stallMs,
      log: lineSink(log.child({ component: "indexer:solana", chain: entry.chain })),
    });
    stops.push(() => solana.stop());
    readiness.condition(`indexing ${entry.chain}`, () => solana.indexing());
  }
  readiness.condition("indexing evm", () => evm.indexing());
  await evm.ready;
}

/**
 * Local registries are deployed afresh on every start with empty decision signer sets: they are made to trust the
 * service's keys (both environments), so on-chain guards on the local chains accept its decisions from the first
 * launch. Real deployments are kept in step by the operator (signing-keys:sync).
 */
async function trustServiceKeysOnLocalChains(
  database: Database,
  masterKey: Buffer,
  chains: Chains,
  log: Logger,
) {
  if (!chains.local) return;
  await ensureSigningKeys(database.pool, createSecretBox(masterKey));
  for (const environment of ENVIRONMENTS) {
    const report = await syncRegistrySigners(database.pool, {
      environment,
      manifest: chains.manifest,
      admin: REGISTRY_ADMIN_KEYS,
      by: {
        actor: "service",
        reason: "local chains started: their registries trust the service's decision keys",
      },
    });
    for (const registry of report.registries) {
      if (registry.error !== null) {
        log.warn(
          `${registry.chain} ${environment} registry does not trust the decision keys: ${registry.error}`,
        );
      }
    }
  }
}

async function main(): Promise<void> {
  const config = loadConfig();
  const stops: Stop[] = [];
  // Every role of this process logs through one logger (readable lines on a terminal, JSON lines otherwise)
  // and shares one metrics and probe server.
  const telemetry = await startRoleTelemetry("start", config, { pretty: process.stderr.isTTY === true });
  const { log, readiness } = telemetry;
  stops.push(() => telemetry.close());
  const stopAll = async () => {
    for (const stop of stops.splice(0).reverse()) {
      await stop().catch((error: Error) => log.error({ err: error }, "stopping failed"));
    }
  };
  const onSignal = () => void stopAll().then(() => process.exit(0));
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);

  try {
    const migrations = readiness.step("migrations", "migrating the database");
    const started = readiness.step("started", "starting the chains, indexers, API and worker");
    const masterKey = resolveMasterKey(config.masterKey, config.dataDir);
    registerMasterKey(masterKey);
    const database = await openDatabase(config.database);
    stops.push(() => database.close());
    migrations.done();
    readiness.check("database", databaseCheck(database.pool));

    const chains = await chainsOf(config, stops, log);
    await trustServiceKeysOnLocalChains(database, masterKey, chains, log);
    await startIndexers(config, database, chains, stops, log, readiness);

    const registries = registryCatalogue(chains.manifest);
    const api = await serveApi({
      config,
      pool: database.pool,
      manifest: chains.manifest,
      registries,
      masterKey,
      log: log.child({ component: "api" }),
    });
    stops.push(() => api.close(config.shutdownGraceMs));
    const worker = startWorker({
      pool: database.pool,
      registries,
      intervalMs: config.worker.intervalMs,
      log: lineSink(log.child({ component: "worker" })),
      webhooks: {
        masterKey,
        allowLocalReceivers: config.webhooks.allowLocalReceivers,
        leaseMs: config.webhooks.leaseMs,
        drainMs: config.shutdownGraceMs,
      },
    });
    stops.push(() => worker.stop());
    telemetry.probes.addCollector(databaseGauges(database.pool));
    started.done();

    const port = new URL(api.url).port;
    printScreen([
      ["API (canonical)", `${api.url}/api/v1/health   openapi: ${api.url}/api/v1/openapi`],
      [
        "Lookup page",
        `${api.url}/   sandbox: http://${config.hosts.sandbox[0] ?? `sandbox.localhost:${port}`}/`,
      ],
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
      ["Metrics and probes", `${telemetry.probes.url}/metrics   /livez   /readyz`],
      [
        "Partner mail",
        config.mail.smtpUrl === undefined
          ? `written as .eml files to ${config.mail.directory} (set SMTP_URL to send)`
          : "sent over SMTP (SMTP_URL)",
      ],
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
  const known = error instanceof ConfigError || error instanceof ManifestError;
  console.error(known ? error.message : `Could not start: ${error.message}`);
  process.exit(1);
});
