// The whole service end to end on local chains: a test database, the localnet (both registries), both indexers,
// the API (responses checked against its OpenAPI document) and the worker, all on one clock that follows the
// chains' time when a test moves it. Wallets are real: a viem account and a web3.js Keypair sign exactly what
// prepare returned. Shared by the e2e tests and the reservations bench.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Connection, Keypair, LAMPORTS_PER_SOL, Transaction } from "@solana/web3.js";
import { expect } from "chai";
import {
  type Account,
  createPublicClient,
  createTestClient,
  createWalletClient,
  type Hash,
  http,
  keccak256,
  type PublicClient,
  parseEther,
  type TestClient,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { HostLists } from "../../api/platform/hosts";
import { registryCatalogue } from "../../chains/catalogue";
import type {
  EvmTransactionRequest,
  PreparedTransaction,
  RegistryCatalogue,
  RegistryClient,
  RegistryQuote,
  SolanaTransactionRequest,
} from "../../chains/registryClient";
import { writeManifestEntries } from "../../config/manifest";
import { normalizeIdentity } from "../../core/fold";
import type { ReservationDuration } from "../../core/reservation";
import { freshnessOf } from "../../core/status";
import { type EvmIndexer, startEvmIndexer } from "../../indexer/evm/run";
import { type SolanaIndexer, startSolanaIndexer } from "../../indexer/solana";
import { type Localnet, startLocalnet } from "../../scripts/localnet";
import { issueKeeperCredential, setLaunchReporting } from "../../services/identity/keeperCredentials";
import { manifestChains, readCheckpoints } from "../../services/mirror/chainCatalogue";
import { bindLaunchpad } from "../../services/partners/launchpads";
import type { ReservationView } from "../../services/reservations/record";
import { createLogger, silentLogger } from "../../telemetry/log";
import { startWorker, type Worker } from "../../worker";
import { bearer, issueKey, startTestApi, TEST_HOSTS, type TestApi } from "../api/support/harness";
import type { HttpResponse } from "../api/support/http";
import { tableLookup } from "../services/webhooks/support";
import { viemChainOf } from "../support/localChains";
import { createTestDatabase, freePort, type TestDatabase } from "../support/testDatabase";

export const DAY = 86_400;
export const PRODUCTION_HOST = TEST_HOSTS.production[0];
const NO_PARTNER_REF = `0x${"0".repeat(64)}` as const;
/** Poll step and patience of the waits below. */
const POLL_MS = 50;
const WAIT_MS = 30_000;

/**
 * Block times are whole seconds, and Hardhat stamps each block at least a second after its parent, so a busy
 * local EVM chain runs up to a few seconds ahead of wall time. The service's clock leads wall time by this
 * much, so a block just mined is never in the service's future (a hold that starts after "now" is not live yet).
 */
export const CLOCK_LEAD_MS = 3_000;

/** The service's clock: the chains' time (wall time plus however far the tests moved them, plus the lead). */
export class ChainClock {
  offsetMs = CLOCK_LEAD_MS;
  nowMs = (): number => Date.now() + this.offsetMs;
  now = (): Date => new Date(this.nowMs());
}

export interface SendOptions {
  /** Land the transaction even if it fails on-chain (EVM: fixed gas, no estimate; Solana: no preflight). */
  landEvenIfFailing?: boolean;
  /** EVM only: send this value instead of the prepared one (a wallet that pays too little). */
  value?: bigint;
}

/** A funded wallet of one chain that signs and sends prepared transactions. */
export interface ChainWallet {
  address: string;
  /** Its key, for transactions the registry client does not prepare (a launch through a guarded launchpad). */
  signer: { family: "evm"; account: Account } | { family: "solana"; keypair: Keypair };
  /** Signs exactly `prepared` and sends it; resolves with its hash once the chain included it. */
  signAndSend(prepared: PreparedTransaction, options?: SendOptions): Promise<string>;
  /**
   * Pays a prepare as a creator's wallet does: the commitment, then (once the registry accepts it) the reveal,
   * or a renewal's one transaction. Resolves with the paying transaction's hash; `options` apply to it.
   */
  pay(steps: PaidSteps, options?: SendOptions): Promise<string>;
}

/** What a prepare answers for the wallet: the first transaction and, for a new reservation, the reveal. */
export interface PaidSteps {
  transaction: PreparedTransaction;
  reveal: { transaction: PreparedTransaction } | null;
}

/**
 * The commitment first; the reveal once the registry would accept it. EVM: the next block is stamped at least a
 * second later, the local registries' minimum age. Solana: `afterCommit` waits for a later slot.
 */
async function payInSteps(
  send: (prepared: PreparedTransaction, options?: SendOptions) => Promise<string>,
  steps: PaidSteps,
  options: SendOptions | undefined,
  afterCommit: (hash: string) => Promise<void>,
): Promise<string> {
  if (steps.reveal === null) return send(steps.transaction, options);
  await afterCommit(await send(steps.transaction));
  return send(steps.reveal.transaction, options);
}

/** One chain as the tests drive it. */
export interface ChainDriver {
  chain: string;
  family: "evm" | "solana";
  registry: RegistryClient;
  newWallet(): Promise<ChainWallet>;
  /**
   * A reserve sent straight to the registry (no API, no prechecks), landed even if it fails; priced by `quote`
   * (default: a quote now).
   */
  reserveDirectly(wallet: ChainWallet, name: string, ticker: string, quote?: RegistryQuote): Promise<string>;
}

export interface E2e {
  localnet: Localnet;
  /** The manifest file of the local chains (what DEPLOYMENT_MANIFEST names for the operator CLI). */
  manifestPath: string;
  db: TestDatabase;
  api: TestApi;
  registries: RegistryCatalogue;
  clock: ChainClock;
  /** With the Hardhat node's test client (snapshots, reverts, mining). */
  evm: ChainDriver & { test: TestClient };
  solana: ChainDriver;
  /** A production key of a new partner with every partner scope. */
  key: { secret: string; partnerId: string; keyId: string };
  /**
   * Moves both chains' time forward by `seconds`, and the service's clock with them. Once moved, the chains'
   * clocks run ahead of the database's, so a mirror is as fresh as its head block: the EVM chain (automine,
   * no blocks of its own) stays fresh for the freshness bound after its last block, which this mines. The
   * prices are republished after it, unless `refreshPrices` is false: then they are held until the next
   * `localnet.refreshPrices()`.
   */
  warp(seconds: number, options?: { refreshPrices?: boolean }): Promise<void>;
  /** Resolves once both indexers have caught up with fresh data on the service's clock. */
  chainsFresh(): Promise<void>;
  /** Stops the worker (then only POST status and embed settle reconcile); resolves after its running pass. */
  stopWorker(): Promise<void>;
  /** Stops both indexers: the mirror no longer follows the chains (its checkpoints age out after the bound). */
  stopIndexers(): Promise<void>;
  stop(): Promise<void>;
}

/** Timings of the local chains, the indexers and the worker; the defaults are fast, for tests. */
export interface E2eTimings {
  /** Solana slot time (default 100 ms; a cluster and `npm start`: 400). */
  slotMs: number;
  /** Ponder's polling of the EVM chain (default 100 ms; `npm start` on local chains: 200). */
  evmPollingIntervalMs: number;
  /** The Solana indexer's pause between passes; its websocket wakes it earlier (default 100 ms; `npm start`: 1000). */
  solanaPollIntervalMs: number;
  /** Pause between worker passes (default 200 ms; `npm start`: WORKER_INTERVAL_MS, 1000). */
  workerIntervalMs: number;
  /**
   * The Hardhat node's block time; with it Ponder follows the node's websocket (default none: blocks only on
   * demand, Ponder polls; `npm start`: 5000, see scripts/localnet).
   */
  evmBlockMs?: number;
  /**
   * How often the localnet republishes prices (default 20 s, as `npm start`: a run can outlast Solana's 60 s
   * bound on a loaded machine). `warp(…, { refreshPrices: false })` holds them, so a test can let them go stale.
   */
  priceRefreshMs?: number;
}

const TEST_TIMINGS: E2eTimings = {
  slotMs: 100,
  evmPollingIntervalMs: 100,
  solanaPollIntervalMs: 100,
  workerIntervalMs: 200,
};

export interface E2eOptions {
  timings?: Partial<E2eTimings>;
  /** The API's host lists (default TEST_HOSTS). */
  hosts?: HostLists;
  log?: (line: string) => void;
}

/** `stop` run at most once: later calls share the first one's promise. */
function once(stop: () => Promise<void>): () => Promise<void> {
  let stopped: Promise<void> | undefined;
  return () => {
    stopped ??= stop();
    return stopped;
  };
}

/** Polls `read` until `done` holds; fails with the last value after `timeoutMs`. */
export async function waitUntil<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  what: string,
  timeoutMs = WAIT_MS,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`${what}: not reached in ${timeoutMs} ms; last: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

async function reserveDirectly(
  registry: RegistryClient,
  wallet: ChainWallet,
  name: string,
  ticker: string,
  quote?: RegistryQuote,
): Promise<string> {
  const prepared = await registry.prepareTransaction({
    identity: normalizeIdentity(name, ticker),
    launcher: wallet.address,
    durationSeconds: DAY,
    partnerRef: NO_PARTNER_REF,
    kind: "reserve",
    quote: quote ?? (await registry.quote(DAY)),
    secret: `0x${randomBytes(32).toString("hex")}`,
  });
  if (prepared === null) throw new Error(`registry ${registry.chain} built no transaction`);
  return wallet.pay(prepared, { landEvenIfFailing: true });
}

export function evmDriver(localnet: Localnet, registry: RegistryClient): ChainDriver & { test: TestClient } {
  const entry = localnet.manifest.evm[0];
  if (entry === undefined) throw new Error("the localnet has no EVM chain");
  const chain = viemChainOf(entry);
  const publicClient: PublicClient = createPublicClient({ chain, transport: http() });
  const test = createTestClient({ mode: "hardhat", chain, transport: http() });
  const send = async (account: Account, prepared: PreparedTransaction, options: SendOptions = {}) => {
    const request = prepared as EvmTransactionRequest;
    expect(request.family).to.equal("evm");
    const wallet = createWalletClient({ account, chain, transport: http() });
    const signed = await wallet.signTransaction(
      await wallet.prepareTransactionRequest({
        to: request.to as `0x${string}`,
        data: request.data,
        value: options.value ?? BigInt(request.value),
        ...(options.landEvenIfFailing ? { gas: 500_000n } : {}),
      }),
    );
    // Hardhat mines a reverting transaction and still answers the send with the revert.
    await publicClient.sendRawTransaction({ serializedTransaction: signed }).catch((error: unknown) => {
      if (!options.landEvenIfFailing) throw error;
    });
    const hash: Hash = keccak256(signed);
    await publicClient.waitForTransactionReceipt({ hash, pollingInterval: POLL_MS });
    return hash;
  };
  const driver: ChainDriver & { test: TestClient } = {
    chain: entry.chain,
    family: "evm",
    registry,
    test,
    async newWallet() {
      const account = privateKeyToAccount(generatePrivateKey());
      await test.setBalance({ address: account.address, value: parseEther("100") });
      const signAndSend = (prepared: PreparedTransaction, options?: SendOptions) =>
        send(account, prepared, options);
      return {
        address: account.address,
        signer: { family: "evm", account },
        signAndSend,
        pay: (steps, options) => payInSteps(signAndSend, steps, options, async () => undefined),
      };
    },
    reserveDirectly: (wallet, name, ticker, quote) => reserveDirectly(registry, wallet, name, ticker, quote),
  };
  return driver;
}

async function confirmedSignature(connection: Connection, signature: string): Promise<void> {
  await landedSlot(connection, signature);
}

/** The slot a signature was confirmed in. */
async function landedSlot(connection: Connection, signature: string): Promise<number> {
  const status = await waitUntil(
    async () => (await connection.getSignatureStatuses([signature])).value[0],
    (status) => status?.confirmationStatus === "confirmed" || status?.confirmationStatus === "finalized",
    `Solana signature ${signature}`,
  );
  return status?.slot ?? 0;
}

/** Waits until transactions sent now land in a slot after `slot` (a commitment's reveal needs one). */
async function pastSlot(connection: Connection, slot: number): Promise<void> {
  await waitUntil(
    () => connection.getSlot("processed"),
    (current) => current > slot,
    `a slot after ${slot}`,
  );
}

export function solanaDriver(localnet: Localnet, registry: RegistryClient): ChainDriver {
  const entry = localnet.manifest.solana[0];
  if (entry === undefined) throw new Error("the localnet has no Solana chain");
  // HTTP only: confirmations are polled, so no websocket is ever opened.
  const connection = new Connection(entry.rpcUrl, "confirmed");
  const send = async (keypair: Keypair, prepared: PreparedTransaction, options: SendOptions = {}) => {
    const request = prepared as SolanaTransactionRequest;
    expect(request.family).to.equal("solana");
    const transaction = Transaction.from(Buffer.from(request.tx, "base64"));
    transaction.partialSign(keypair);
    const signature = await connection.sendRawTransaction(transaction.serialize(), {
      skipPreflight: options.landEvenIfFailing ?? false,
    });
    await confirmedSignature(connection, signature);
    return signature;
  };
  return {
    chain: entry.chain,
    family: "solana",
    registry,
    async newWallet() {
      const keypair = Keypair.generate();
      localnet.solana.chain.airdrop(keypair.publicKey.toBase58(), 100n * BigInt(LAMPORTS_PER_SOL));
      const signAndSend = (prepared: PreparedTransaction, options?: SendOptions) =>
        send(keypair, prepared, options);
      return {
        address: keypair.publicKey.toBase58(),
        signer: { family: "solana", keypair },
        signAndSend,
        pay: (steps, options) =>
          payInSteps(signAndSend, steps, options, async (signature) =>
            pastSlot(connection, await landedSlot(connection, signature)),
          ),
      };
    },
    reserveDirectly: (wallet, name, ticker, quote) => reserveDirectly(registry, wallet, name, ticker, quote),
  };
}

export async function startE2e(options: E2eOptions = {}): Promise<E2e> {
  const log = options.log ?? (() => undefined);
  const timings = { ...TEST_TIMINGS, ...options.timings };
  const stops: (() => Promise<unknown>)[] = [];
  const stop = async () => {
    for (const step of stops.splice(0).reverse()) await step().catch((error: Error) => log(error.message));
  };
  try {
    const clock = new ChainClock();
    // The database and the chains start side by side; whichever started is stopped if the other failed.
    const [started, chains] = await Promise.allSettled([
      createTestDatabase(),
      startLocalnet({
        evmPort: 0,
        solanaPort: 0,
        slotMs: timings.slotMs,
        evmBlockMs: timings.evmBlockMs,
        manifestPath: null,
        priceRefreshMs: timings.priceRefreshMs ?? 20_000,
      }),
    ]);
    if (started.status === "fulfilled") stops.push(() => started.value.close());
    if (chains.status === "fulfilled") stops.push(() => chains.value.stop());
    if (started.status === "rejected") throw started.reason;
    if (chains.status === "rejected") throw chains.reason;
    const db = started.value;
    const localnet = chains.value;
    const manifestDir = mkdtempSync(join(tmpdir(), "e2e-manifest-"));
    const manifestPath = join(manifestDir, "local.json");
    writeManifestEntries(manifestPath, localnet.manifest);
    stops.push(async () => rmSync(manifestDir, { recursive: true, force: true }));

    const registries = registryCatalogue(localnet.manifest, { now: clock.nowMs });
    const evm = evmDriver(localnet, registries.production.get("hardhat") as RegistryClient);
    const solana = solanaDriver(localnet, registries.production.get("solana") as RegistryClient);

    const deploymentSchema = `e2e_${Date.now().toString(36)}`;
    const viewsSchema = `${db.schema}_views`;
    const evmIndexer: EvmIndexer = await startEvmIndexer({
      databaseUrl: db.url,
      pool: db.pool,
      manifest: localnet.manifest,
      manifestPath,
      serviceSchema: db.schema,
      viewsSchema,
      deploymentSchema,
      port: await freePort(),
      pollingIntervalMs: timings.evmPollingIntervalMs,
      restartOnExit: false,
      log,
    });
    const stopEvmIndexer = once(() => evmIndexer.stop());
    stops.push(async () => {
      await stopEvmIndexer();
      for (const schema of [deploymentSchema, viewsSchema])
        await db.pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    });
    const solanaEntry = localnet.manifest.solana[0];
    if (solanaEntry === undefined) throw new Error("the localnet has no Solana chain");
    const solanaIndexer: SolanaIndexer = await startSolanaIndexer({
      pool: db.pool,
      manifestEntry: solanaEntry,
      pollIntervalMs: timings.solanaPollIntervalMs,
      log,
    });
    const stopSolanaIndexer = once(() => solanaIndexer.stop());
    stops.push(stopSolanaIndexer);

    // Webhooks to local receivers: a test registers an endpoint at 127.0.0.1 and the worker delivers to it.
    const webhooks = { allowLocalReceivers: true, lookup: tableLookup({}) };
    const api = await startTestApi({
      db,
      deps: {
        registries,
        decisions: { chains: manifestChains(localnet.manifest) },
        now: clock.nowMs,
        log: options.log === undefined ? silentLogger() : createLogger({ level: "info" }),
        webhooks,
        ...(options.hosts ? { hosts: options.hosts } : {}),
      },
    });
    stops.push(() => api.close());
    const worker: Worker = startWorker({
      pool: db.pool,
      registries,
      intervalMs: timings.workerIntervalMs,
      now: clock.now,
      log,
      webhooks: { ...webhooks, masterKey: api.masterKey },
    });
    stops.push(() => worker.stop());
    const key = await issueKey(api, "production", { rateLimitPerMinute: 2_000 });

    const chainsFresh = async () => {
      await waitUntil(
        () => readCheckpoints(db.pool),
        (chains) =>
          chains.length === 2 &&
          chains.every(({ checkpoint }) => freshnessOf(checkpoint, clock.now()).state === "fresh"),
        "both chains indexed and fresh",
      );
    };
    await Promise.all([evmIndexer.ready, solanaIndexer.caughtUp]);
    await chainsFresh();

    return {
      localnet,
      manifestPath,
      db,
      api,
      registries,
      clock,
      evm,
      solana,
      key,
      chainsFresh,
      stopWorker: () => worker.stop(),
      async stopIndexers() {
        await Promise.all([stopEvmIndexer(), stopSolanaIndexer()]);
      },
      async warp(seconds, warpOptions = {}) {
        const refreshPrices = warpOptions.refreshPrices ?? true;
        if (!refreshPrices) await localnet.holdPrices();
        await evm.test.increaseTime({ seconds });
        await evm.test.mine({ blocks: 1 });
        localnet.solana.chain.warpTime(seconds);
        clock.offsetMs += seconds * 1000;
        if (refreshPrices) await localnet.refreshPrices();
        await chainsFresh();
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Lets the e2e partner's key report launches, as a keeper, for `launchpad`; returns the keeper credential. */
export async function launchpadKeeper(
  e2e: E2e,
  launchpad: string,
  label: string,
  by: { actor: string; reason: string },
): Promise<string> {
  const { pool } = e2e.db;
  const keeper = (await issueKeeperCredential(pool, e2e.key.partnerId, label, by)).credential;
  await setLaunchReporting(pool, e2e.key.keyId, true, by);
  await bindLaunchpad(pool, launchpad, e2e.key.partnerId, by);
  return keeper;
}

/** POST /api/v1`path` with the e2e partner's key and `keeper`'s credential, as the launch-reporting routes take. */
export function keeperPost(e2e: E2e, keeper: string, path: string, body: object): Promise<HttpResponse> {
  return e2e.api.call({
    method: "POST",
    path: `/api/v1${path}`,
    headers: { authorization: `Bearer ${e2e.key.secret}`, "x-service-keeper": keeper },
    body,
  });
}
/** The partner API as the tests call it: a production key, every answer checked against the OpenAPI document. */
export function partnerApi(e2e: E2e) {
  const { api, key } = e2e;
  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    api.call({ method, path: `/api/v1${path}`, headers: { ...bearer(key.secret), ...headers }, body });
  const reservation = (response: HttpResponse) => response.body as PreparedReservation;
  return {
    quote: (chain: string, durationSeconds: ReservationDuration = DAY) =>
      call("GET", `/reservations/quote?chain=${chain}&durationSeconds=${durationSeconds}`),
    prepare: (body: PrepareBody, headers: Record<string, string> = {}) =>
      call("POST", "/reservations/prepare", { durationSeconds: DAY, ...body }, headers),
    submit: (reservationId: string, transactionHash: string) =>
      call("POST", "/reservations/status", { reservationId, transactionHash }),
    status: async (reservationId: string) =>
      reservation(await call("GET", `/reservations/status?reservationId=${reservationId}`)),
    /** Polls GET status until the reservation reaches `status`. */
    statusBecomes: (reservationId: string, status: ReservationView["status"]) =>
      waitUntil(
        async () => reservation(await call("GET", `/reservations/status?reservationId=${reservationId}`)),
        (current) => current.status === status,
        `reservation ${reservationId} ${status}`,
      ),
    validate: (body: { chain: string; name: string; ticker: string; launcher: string }) =>
      call("POST", "/launches/validate", body),
    check: async (chain: string, name: string, ticker: string) =>
      (
        await api.call({
          path: `/api/v1/identity/check?chain=${chain}&name=${encodeURIComponent(name)}&ticker=${ticker}`,
          host: PRODUCTION_HOST,
        })
      ).body as { status: string; decision: string },
  };
}

export interface PrepareBody {
  chain: string;
  name: string;
  ticker: string;
  launcher: string;
  durationSeconds?: number;
}

export type PreparedReservation = ReservationView & {
  transaction: PreparedTransaction;
  reveal: { transaction: PreparedTransaction; commitment: string } | null;
  quote: { amount: string; unit: string; simulated: boolean };
};

/** Prepares through the API (201 expected) and returns the reservation with its transaction. */
export async function prepared(
  partner: ReturnType<typeof partnerApi>,
  body: PrepareBody,
  headers: Record<string, string> = {},
): Promise<PreparedReservation> {
  const response = await partner.prepare(body, headers);
  expect(response.status, response.text).to.equal(201);
  return response.body as PreparedReservation;
}

let pairs = 0;
const letters = (n: number): string =>
  (n >= 26 ? letters(Math.floor(n / 26) - 1) : "") + String.fromCharCode(65 + (n % 26));

/** A pair no other test of the process used: the chains and the database are shared across tests. */
export function uniquePair(word: string): { name: string; ticker: string } {
  pairs += 1;
  const tag = letters(pairs + 26 * 27);
  return { name: `${word} ${tag}`, ticker: `${word.slice(0, 3)}${tag}`.toUpperCase() };
}
