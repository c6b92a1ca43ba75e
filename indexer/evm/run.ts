// Runs the Ponder app as a child process (Ponder has no supported programmatic API), records each EVM chain's
// head in `chain_checkpoints` (Ponder's own transactions record the indexed block: src/mirrorTrigger.ts) and
// relays each chain's websocket (headsRelay.ts). Used by `npm start` and by the `npm run indexer:evm` production
// role. Start-up, Ponder restarts and the checkpoint monitor all retry with bounded backoff
// (core/retry/backoff.ts): an RPC or database that is down is waited for, not fatal.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Pool } from "pg";
import { createPublicClient, http, type PublicClient } from "viem";
import type { DeploymentManifest, EvmManifestEntry } from "../../config/manifest";
import { ServiceError } from "../../core/errors/serviceError";
import {
  type BackoffPolicy,
  backoffPolicy,
  createBackoff,
  retryUntilSuccess,
} from "../../core/retry/backoff";
import { startPassLoop } from "../../core/retry/passLoop";
import { resetChainIfHistoryChanged } from "../chainHistory";
import { confirmCaughtUp, recordHead } from "../checkpoints";
import { indexerWatchdog } from "../watchdog";
import { evmChainsToIndex, LOCAL_CHAIN_IDS } from "./chains";
import { type ChainIdentity, deploymentSchemaName, EVM_APP_DIR } from "./deploymentSchema";
import { type HeadsRelay, startHeadsRelay } from "./headsRelay";
import { forgetLocalChainSync } from "./localSyncCache";

export interface EvmIndexerOptions {
  /** Connection string Ponder uses; the same database as `pool`. */
  databaseUrl: string;
  /** The service's pool: used to write checkpoints and to read Ponder's progress. */
  pool: Pool;
  /** The deployment manifest whose `evm` entries are indexed, as the entry point read it at start. */
  manifest: DeploymentManifest;
  /** Its path: Ponder's own process reads the manifest from there. */
  manifestPath: string;
  /** Schema that holds `chain_reservations` and `chain_checkpoints`. Default "public". */
  serviceSchema?: string;
  /** Stable schema where Ponder publishes views of its tables for operators. Default "evm_mirror". */
  viewsSchema?: string;
  /** Overrides the derived deployment schema (tests use a fresh one each). */
  deploymentSchema?: string;
  /** Port of Ponder's HTTP server (health only). Default 42069. */
  port?: number;
  /** How often Ponder polls each chain for new blocks. Default 1000 ms; local chains want 100-250. */
  pollingIntervalMs?: number;
  /**
   * Variables Ponder's process inherits besides the settings set here: entry points pass their own
   * environment (PATH, proxies, CA certificates). Default none.
   */
  environment?: Readonly<Record<string, string | undefined>>;
  /** Restart Ponder when it exits on its own. Default true. */
  restartOnExit?: boolean;
  /** Waits before restarting Ponder after exits: 1 s doubling to 5 s, reset once it has run 30 s. */
  restartBackoff?: Partial<BackoffPolicy>;
  /** Waits after failed start-up attempts and monitor ticks: from the tick interval doubling to 5 s. */
  backoff?: Partial<BackoffPolicy>;
  /**
   * The watchdog (../watchdog.ts): Ponder is killed and restarted when a chain's head is ahead of its
   * checkpoint and the checkpoint has not moved for this long (INDEXER_STALL_MS). Default 300000.
   */
  stallMs?: number;
  log?: (line: string) => void;
}

export interface EvmIndexer {
  deploymentSchema: string;
  /** Resolves once indexing has begun: Ponder's HTTP server answers /health and every chain has a checkpoint. */
  ready: Promise<void>;
  /**
   * Null while indexing runs (the Ponder process now running has answered /health, every chain's checkpoint
   * has been recorded, and no watchdog restart awaits progress); otherwise what it waits for. The role's
   * readiness.
   */
  indexing(): string | null;
  /** Sends `signal` to the Ponder process without stopping the runner (tests use SIGKILL for a crash). */
  kill(signal: NodeJS.Signals): void;
  /** The running Ponder process's id (benches sample its memory). */
  pid(): number | undefined;
  stop(): Promise<void>;
}

export class EvmIndexerError extends ServiceError {
  constructor(message: string) {
    super(message);
  }
}

/** Ponder's CLI file: the package's `exports` hide it (and package.json), so look where Node would. */
function ponderCliPath(): string {
  for (const modules of require.resolve.paths("ponder") ?? []) {
    const cli = join(modules, "ponder", "dist", "esm", "bin", "ponder.js");
    if (existsSync(cli)) return cli;
  }
  throw new EvmIndexerError("The ponder package is not installed; run `npm install`.");
}
/** A Ponder that has run this long without exiting is healthy: its restart delays start over. */
const HEALTHY_RUN_MS = 30_000;
const STOP_GRACE_MS = 10_000;

async function chainIdentity(entry: EvmManifestEntry, client: PublicClient): Promise<ChainIdentity> {
  const reported = await client.getChainId();
  if (reported !== entry.chainId) {
    throw new EvmIndexerError(
      `The RPC of chain "${entry.chain}" reports chain id ${reported}, the manifest says ${entry.chainId}. Fix the manifest or the RPC URL.`,
    );
  }
  const block = await client.getBlock({ blockNumber: BigInt(entry.deployBlock) });
  const { chain, chainId, registry, deployBlock } = entry;
  return { chain, chainId, registry, deployBlock, deployBlockHash: block.hash };
}

export async function startEvmIndexer(options: EvmIndexerOptions): Promise<EvmIndexer> {
  const log = options.log ?? ((line: string) => process.stderr.write(`[indexer:evm] ${line}\n`));
  const serviceSchema = options.serviceSchema ?? "public";
  const deployments = evmChainsToIndex(options.manifest, options.manifestPath);
  const clients = new Map(
    deployments.map((entry) => [entry.chain, createPublicClient({ transport: http(entry.rpcUrl) })]),
  );
  const pollingIntervalMs = options.pollingIntervalMs ?? 1000;
  const monitorIntervalMs = Math.min(pollingIntervalMs, 1000);
  // The deployment schema is named after the chains' identities, so Ponder cannot start before they are
  // read; a wrong chain id is a misconfiguration and ends the start at once.
  const identities = await retryUntilSuccess(
    async () => {
      const read = await Promise.all(
        deployments.map((entry) => chainIdentity(entry, clients.get(entry.chain) as PublicClient)),
      );
      for (const identity of read) {
        await resetChainIfHistoryChanged(
          options.pool,
          identity.chain,
          `${identity.registry}@${identity.deployBlockHash}`,
        );
      }
      return read;
    },
    {
      backoff: createBackoff({
        what: "EVM indexer start-up",
        log,
        policy: backoffPolicy(monitorIntervalMs, options.backoff),
      }),
      isFatal: (error) => error instanceof EvmIndexerError,
    },
  );
  await forgetLocalChainSync(
    options.pool,
    deployments.map((entry) => entry.chainId).filter((chainId) => LOCAL_CHAIN_IDS.has(chainId)),
  );
  const deploymentSchema = options.deploymentSchema ?? deploymentSchemaName(identities);
  const port = options.port ?? 42069;
  const relays = new Map<string, HeadsRelay>();
  for (const entry of deployments) {
    if (entry.wsUrl !== undefined) {
      relays.set(entry.chain, await startHeadsRelay({ chain: entry.chain, target: entry.wsUrl, log }));
    }
  }
  const relayUrls = JSON.stringify(
    Object.fromEntries([...relays].map(([chain, relay]) => [chain, relay.url])),
  );

  let child: ChildProcess | undefined;
  let stopping = false;
  let restartTimer: NodeJS.Timeout | undefined;
  let healthyTimer: NodeJS.Timeout | undefined;
  const restarts = createBackoff({
    what: "Ponder",
    log,
    policy: backoffPolicy(1000, options.restartBackoff),
  });

  // Whether the current Ponder process has answered /health; a new process starts unanswered.
  let reporting = false;
  // Whether a checkpoint of every chain has been recorded. Ponder answers /health before it writes its first
  // one, and until then a chain has a head without an indexed block: not indexed, which the worker's posture
  // sample would announce as chain.degraded (held for the recovery dwell) if it ran then.
  let checkpointed = false;
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  const markReadyOnceIndexing = () => {
    if (reporting && checkpointed) markReady();
  };
  const launch = () => {
    reporting = false;
    for (const relay of relays.values()) relay.reset();
    child = spawn(
      process.execPath,
      [
        ponderCliPath(),
        "--root",
        EVM_APP_DIR,
        "--log-format",
        "json",
        "--log-level",
        "warn",
        "start",
        "--schema",
        deploymentSchema,
        "--views-schema",
        options.viewsSchema ?? "evm_mirror",
        "--port",
        String(port),
        "--hostname",
        "127.0.0.1",
      ],
      {
        cwd: EVM_APP_DIR,
        env: {
          ...options.environment,
          PONDER_TELEMETRY_DISABLED: "true",
          // Ponder prefers PORT over --port; the service's own PORT (the API's) must not reach it.
          PORT: String(port),
          DATABASE_URL: options.databaseUrl,
          DATABASE_SCHEMA: deploymentSchema,
          IDENTITY_MANIFEST: options.manifestPath,
          SERVICE_SCHEMA: serviceSchema,
          EVM_POLLING_INTERVAL_MS: String(pollingIntervalMs),
          EVM_HEADS_RELAYS: relayUrls,
          // Every chain in this one process and its one connection pool (isolated ordering would otherwise give
          // each chain a worker thread with a pool of its own: ponder.config.ts).
          PONDER_MAX_THREADS: "1",
        },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    const forward = (chunk: Buffer) => {
      for (const line of chunk.toString().split("\n")) if (line.trim()) log(line);
    };
    child.stdout?.on("data", forward);
    child.stderr?.on("data", forward);
    healthyTimer = setTimeout(() => restarts.succeeded(), HEALTHY_RUN_MS);
    const launched = child;
    const isCurrent = () =>
      !stopping && child === launched && launched.exitCode === null && launched.signalCode === null;
    void waitForHealth(port, () => !isCurrent()).then(() => {
      if (!isCurrent()) return;
      reporting = true;
      markReadyOnceIndexing();
    });
    child.once("exit", (code, signal) => {
      reporting = false;
      clearTimeout(healthyTimer);
      if (stopping) return;
      const exit = `exited (${signal ?? `code ${code}`})`;
      if (options.restartOnExit ?? true) restartTimer = setTimeout(launch, restarts.failed(exit));
      else log(`Ponder ${exit}.`);
    });
  };
  launch();

  const watchdog = indexerWatchdog({
    pool: options.pool,
    family: "evm",
    stallMs: options.stallMs ?? 300_000,
    restarts: "Ponder",
    // SIGKILL: a stopped or wedged process cannot act on SIGTERM. The exit handler starts a new one.
    restart: () => child?.kill("SIGKILL"),
    log,
  });
  const monitor = startCheckpointMonitor({
    pool: options.pool,
    deploymentSchema,
    deployments,
    clients,
    intervalMs: monitorIntervalMs,
    backoff: options.backoff,
    log,
    observe: (chain, head, indexed) => watchdog.observe(chain, head, indexed),
    observeHead: (chain, head) => relays.get(chain)?.observeHead(head),
    recordedEveryChain() {
      checkpointed = true;
      markReadyOnceIndexing();
    },
  });

  return {
    deploymentSchema,
    ready,
    indexing() {
      if (!reporting) return "Ponder has not answered /health yet";
      if (!checkpointed) return "Ponder has not written a checkpoint of every chain yet";
      return watchdog.restarting();
    },
    kill(signal) {
      child?.kill(signal);
    },
    pid: () => child?.pid,
    async stop() {
      stopping = true;
      watchdog.stop();
      markReady(); // a runner stopped before it was ready leaves no caller waiting on `ready`
      clearTimeout(restartTimer);
      clearTimeout(healthyTimer);
      await monitor.stop();
      await stopChild(child);
      for (const relay of relays.values()) await relay.close();
    },
  };
}

async function stopChild(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), STOP_GRACE_MS);
  await exited;
  clearTimeout(timer);
}

async function waitForHealth(port: number, cancelled: () => boolean): Promise<void> {
  while (!cancelled()) {
    try {
      // Bounded: a stopped (SIGSTOP) Ponder accepts the connection and never answers.
      const response = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(1000) });
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

interface MonitorOptions {
  pool: Pool;
  deploymentSchema: string;
  deployments: EvmManifestEntry[];
  clients: Map<string, PublicClient>;
  intervalMs: number;
  backoff?: Partial<BackoffPolicy>;
  log: (line: string) => void;
  /** Each chain's head and checkpoint after every tick (the watchdog). */
  observe: (chain: string, head: bigint, indexed: bigint) => Promise<void>;
  /** Each chain's head as soon as it is read (its heads relay). */
  observeHead: (chain: string, head: bigint) => void;
  /** After each tick that recorded a checkpoint of every chain. */
  recordedEveryChain: () => void;
}

/**
 * Every interval: the head of each chain from its RPC, recorded (confirming a mirror that has caught up with it)
 * and shown to its heads relay; then how far Ponder has indexed it, for the watchdog, read from the deployment's
 * `_ponder_checkpoint` table (never through Ponder's HTTP /status, see src/api/index.ts). The indexed block reaches
 * `chain_checkpoints` through the trigger on that table, in the transaction that indexed it, never from here: a
 * copy made here could outrun the rows (after a restart Ponder reverts rows without touching its checkpoint).
 */
function startCheckpointMonitor(options: MonitorOptions): { stop(): Promise<void> } {
  const checkpointTable = `${quote(options.deploymentSchema)}._ponder_checkpoint`;
  const failures = createBackoff({
    what: "EVM checkpoint monitor",
    log: options.log,
    policy: backoffPolicy(options.intervalMs, options.backoff),
  });
  const tick = async () => {
    const heads = new Map<string, bigint>();
    for (const entry of options.deployments) {
      const head = await (options.clients.get(entry.chain) as PublicClient).getBlockNumber({ cacheTime: 0 });
      await recordHead(options.pool, entry.chain, "evm", head);
      await confirmCaughtUp(options.pool, entry.chain, head);
      options.observeHead(entry.chain, head);
      heads.set(entry.chain, head);
    }
    const exists = await options.pool.query("SELECT to_regclass($1) AS oid", [checkpointTable]);
    if (!exists.rows[0]?.oid) return;
    const { rows } = await options.pool.query<{ chain_name: string; latest_checkpoint: string }>(
      `SELECT chain_name, latest_checkpoint FROM ${checkpointTable}`,
    );
    for (const row of rows) {
      const { blockNumber } = decodePonderCheckpoint(row.latest_checkpoint);
      const head = heads.get(row.chain_name);
      if (head !== undefined) await options.observe(row.chain_name, head, blockNumber);
    }
    const recorded = new Set(rows.map((row) => row.chain_name));
    if (options.deployments.every((entry) => recorded.has(entry.chain))) options.recordedEveryChain();
  };
  const loop = startPassLoop({ pass: tick, intervalMs: options.intervalMs, backoff: failures });
  return { stop: () => loop.stop() };
}

/** Ponder's checkpoint string: 10 digits block timestamp, 16 chain id, 16 block number, then the event. */
export function decodePonderCheckpoint(checkpoint: string): { blockTimestamp: bigint; blockNumber: bigint } {
  return { blockTimestamp: BigInt(checkpoint.slice(0, 10)), blockNumber: BigInt(checkpoint.slice(26, 42)) };
}

function quote(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
