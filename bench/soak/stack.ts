// Everything the soak runs, started as an operator would: a private PostgreSQL the bench may restart, the local
// chains (Hardhat node mining a block every few seconds, as a live chain does, and the litesvm Solana RPC), a
// TCP fault proxy in front of the Solana RPC and its websocket that the deployment manifest points the service
// at, then `npm start` on that database and manifest. Setup as a partner: production API keys from the
// operator's key store, the published signing keys, and one identity per chain reserved on-chain by a real
// wallet (prepared through the API, signed and sent by the wallet, seen by the mirror).
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Connection, Keypair } from "@solana/web3.js";
import { createPublicClient, http } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { registryCatalogue } from "../../chains/catalogue";
import type { RegistryClient } from "../../chains/registryClient";
import { type DeploymentManifest, writeManifestEntries } from "../../config/manifest";
import type { PublicKeyEntry } from "../../core/keyring/publicKeyEntry";
import { type Localnet, startLocalnet } from "../../scripts/localnet";
import { createApiKey } from "../../services/partners/apiKeyStore";
import { openDatabase } from "../../storage/database";
import {
  type ChainDriver,
  DAY,
  evmDriver,
  type PaidSteps,
  solanaDriver,
  uniquePair,
} from "../../test/e2e/support";
import { type FaultProxy, startFaultProxy } from "../../test/support/faultProxy";
import { freePort } from "../../test/support/testDatabase";
import { type PrivatePostgres, startPrivatePostgres } from "../support/privatePostgres";
import { type ServiceProcess, startServiceProcess } from "../support/serviceProcess";
import { checkPath, HEALTH_PATH, KEYS_PATH, type RequestCase, type SoakChain } from "./cases";
import { type SoakClient, soakClient } from "./client";

/** A live chain makes blocks on its own; the indexers' recovery is judged by their catching up with them. */
const EVM_BLOCK_SECONDS = 2;
const SETUP_WAIT_MS = 120_000;
const SETUP_POLL_MS = 500;
const SETUP_TIMEOUT_MS = 10_000;
/** Production keys are limited to 2000 a minute; the load spreads over enough keys to stay well below. */
const KEY_RATE_LIMIT = 2_000;
const KEY_SHARE_OF_LIMIT = 0.75;

export interface SoakStack {
  apiUrl: string;
  postgres: PrivatePostgres;
  service: ServiceProcess;
  /** Cuts the Solana RPC (HTTP and websocket) as the service sees it; `restore()` undoes it. */
  solanaLink: { cut(): void; restore(): void };
  chains: SoakChain[];
  apiKeys: string[];
  partnerId: string;
  publicKeys: PublicKeyEntry[];
  /** Each chain's head (EVM block, Solana slot), read from the nodes directly. */
  heads(): Promise<Map<string, number>>;
  stop(): Promise<void>;
}

export interface StackOptions {
  validatePerSecond: number;
  log(line: string): void;
}

async function waitFor<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + SETUP_WAIT_MS;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`${what}: not reached in ${SETUP_WAIT_MS / 1000} s; last: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, SETUP_POLL_MS));
  }
}

async function withinTimeout<T>(what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what}: no answer in ${SETUP_TIMEOUT_MS / 1000} s`)),
      SETUP_TIMEOUT_MS,
    );
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The manifest the service reads: the localnet's, with the Solana URLs going through the proxies. */
function manifestThrough(manifest: DeploymentManifest, http: FaultProxy, ws: FaultProxy): DeploymentManifest {
  return {
    evm: manifest.evm,
    solana: manifest.solana.map((entry) => ({
      ...entry,
      rpcUrl: http.urlThrough(entry.rpcUrl),
      ...(entry.wsUrl === undefined ? {} : { wsUrl: ws.urlThrough(entry.wsUrl) }),
    })),
  };
}

/** Production keys of one partner, enough for `validatePerSecond` within each key's limit. */
async function issueKeys(databaseUrl: string, validatePerSecond: number) {
  const database = await openDatabase({ kind: "postgres", url: databaseUrl });
  try {
    const count = Math.ceil((validatePerSecond * 60) / (KEY_RATE_LIMIT * KEY_SHARE_OF_LIMIT));
    const keys: string[] = [];
    let partnerId: string | undefined;
    for (let index = 0; index < count; index += 1) {
      const { record, issued } = await createApiKey(database.pool, {
        environment: "production",
        scopes: ["launch:validate", "reservation:prepare"],
        rateLimitPerMinute: KEY_RATE_LIMIT,
        label: `soak bench ${index + 1}`,
        createdBy: "soak bench",
        ...(partnerId === undefined ? {} : { partnerId }),
      });
      partnerId = record.partnerId;
      keys.push(issued.secret);
    }
    return { keys, partnerId: partnerId as string };
  } finally {
    await database.close();
  }
}

/** Reserves a fresh identity for a new wallet through the API and waits until the service blocks others on it. */
async function reserveOnChain(client: SoakClient, apiKey: string, driver: ChainDriver, other: string) {
  const wallet = await driver.newWallet();
  const reserved = uniquePair("Soak");
  const prepared = await client.post(
    "/api/v1/reservations/prepare",
    { chain: driver.chain, ...reserved, launcher: wallet.address, durationSeconds: DAY },
    { authorization: `Bearer ${apiKey}` },
  );
  if (prepared.status !== 201)
    throw new Error(
      `prepare on ${driver.chain} answered ${prepared.status}: ${JSON.stringify(prepared.body)}`,
    );
  // Commit, then reveal once the registry accepts it (docs/commit-reveal.md): the commitment alone holds nothing.
  await wallet.pay(prepared.body as PaidSteps);
  const blocked: RequestCase = {
    route: "check",
    chain: driver.chain,
    identity: reserved,
    launcher: other,
    expected: "block",
    reservedForSomeoneElse: true,
  };
  await waitFor(
    `the mirror holding the reservation on ${driver.chain}`,
    async () => (await client.get(checkPath(blocked))).body,
    (body) => (body as { decision?: string } | undefined)?.decision === "block",
  );
  return { reserved, owner: wallet.address };
}

export async function startSoakStack(options: StackOptions): Promise<SoakStack> {
  const { log } = options;
  const stops: (() => unknown)[] = [];
  const stop = async () => {
    for (const step of stops.splice(0).reverse())
      await Promise.resolve()
        .then(step)
        .catch((error: Error) => log(error.message));
  };
  try {
    const folder = mkdtempSync(join(tmpdir(), "bench-soak-"));
    stops.push(() => rmSync(folder, { recursive: true, force: true }));
    log("starting a private PostgreSQL cluster...");
    const postgres = await startPrivatePostgres();
    stops.push(() => postgres.destroy());

    log("starting the local chains (Hardhat node, litesvm Solana RPC)...");
    const localnet: Localnet = await startLocalnet({ evmPort: 0, solanaPort: 0, manifestPath: null });
    stops.push(() => localnet.stop());
    const direct = registryCatalogue(localnet.manifest);
    const evm = evmDriver(localnet, direct.production.get("hardhat") as RegistryClient);
    const solana = solanaDriver(localnet, direct.production.get("solana") as RegistryClient);
    await evm.test.setIntervalMining({ interval: EVM_BLOCK_SECONDS });

    const solanaEntry = localnet.manifest.solana[0];
    if (solanaEntry === undefined) throw new Error("the localnet has no Solana chain");
    const port = (url: string) => Number(new URL(url).port);
    const httpProxy = await startFaultProxy({ host: "127.0.0.1", port: port(solanaEntry.rpcUrl) });
    stops.push(() => httpProxy.close());
    if (solanaEntry.wsUrl === undefined) throw new Error("the localnet's Solana chain has no websocket");
    const wsProxy = await startFaultProxy({ host: "127.0.0.1", port: port(solanaEntry.wsUrl) });
    stops.push(() => wsProxy.close());
    const manifestPath = join(folder, "deployment.json");
    writeManifestEntries(manifestPath, manifestThrough(localnet.manifest, httpProxy, wsProxy));

    const apiPort = await freePort();
    const logPath = join(tmpdir(), `bench-soak-service-${Date.now()}.log`);
    log(`starting the service (npm start; its log: ${logPath})...`);
    const service = await startServiceProcess(
      {
        DATABASE_URL: postgres.url,
        MASTER_KEY: randomBytes(32).toString("base64"),
        DEPLOYMENT_MANIFEST: manifestPath,
        DATA_DIR: join(folder, "data"),
        HOST: "127.0.0.1",
        PORT: String(apiPort),
        BASE_HOSTS: "127.0.0.1",
        PRODUCTION_HOSTS: "api.localhost",
        SANDBOX_HOSTS: "sandbox.localhost",
        PONDER_PORT: String(await freePort()),
        // One load generator on one address: the keyless limit would only measure itself.
        KEYLESS_RATE_LIMIT_PER_MINUTE: "0",
      },
      logPath,
    );
    stops.push(() => service.stop());
    const apiUrl = `http://127.0.0.1:${apiPort}`;
    const client = soakClient(apiUrl, 4, SETUP_TIMEOUT_MS);
    stops.push(() => client.close());

    await waitFor(
      "every chain ok in /v1/health",
      async () => (await client.get(HEALTH_PATH)).body,
      (body) => (body as { status?: string } | undefined)?.status === "ok",
    );
    const { keys: apiKeys, partnerId } = await issueKeys(postgres.url, options.validatePerSecond);
    const publicKeys = (
      (await client.get(`${KEYS_PATH}?environment=production`)).body as { keys: PublicKeyEntry[] }
    ).keys;
    log("reserving one identity per chain with a real wallet...");
    const others = {
      evm: privateKeyToAccount(generatePrivateKey()).address,
      solana: Keypair.generate().publicKey.toBase58(),
    };
    const chains: SoakChain[] = [];
    for (const driver of [evm, solana]) {
      const other = others[driver.family];
      const { reserved, owner } = await reserveOnChain(client, apiKeys[0] as string, driver, other);
      chains.push({
        chain: driver.chain,
        family: driver.family,
        free: uniquePair("Open"),
        reserved,
        owner,
        other,
      });
    }

    const evmNode = createPublicClient({ transport: http(localnet.evm.rpcUrl) });
    const solanaNode = new Connection(solanaEntry.rpcUrl, "finalized");
    return {
      apiUrl,
      postgres,
      service,
      solanaLink: {
        cut() {
          httpProxy.cut();
          wsProxy.cut();
        },
        restore() {
          httpProxy.restore();
          wsProxy.restore();
        },
      },
      chains,
      apiKeys,
      partnerId,
      publicKeys,
      async heads() {
        const [block, slot] = await withinTimeout(
          "reading the chains' heads",
          Promise.all([evmNode.getBlockNumber({ cacheTime: 0 }), solanaNode.getSlot()]),
        );
        return new Map([
          [evm.chain, Number(block)],
          [solana.chain, slot],
        ]);
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
