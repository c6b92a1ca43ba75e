// `npm run demo`: the whole reservation flow against the running service (`npm start`, the embedded default) on
// every chain of its deployment manifest, each step printed: quote, prepare, the wallet signs and sends exactly
// what prepare returned, POST status, confirmed (from chain state, by the indexers and the worker), the identity
// check reads reserved, validate allows the launcher and blocks another wallet. The wallets are the funded local
// dev wallets. It creates a production API key labelled "demo" (printed, with how to revoke it).
import { randomInt } from "node:crypto";
import { existsSync } from "node:fs";
import { Connection, Transaction } from "@solana/web3.js";
import { Pool } from "pg";
import { type BaseError, createPublicClient, createWalletClient, defineChain, type Hash, http } from "viem";
import type { EvmTransactionRequest, SolanaTransactionRequest } from "../chains/registryClient";
import { type Config, ConfigError, loadConfig, manifestPathOf } from "../config";
import { type EvmManifestEntry, readManifest, type SolanaManifestEntry } from "../config/manifest";
import { ServiceError } from "../core/errors/serviceError";
import { createApiKey } from "../services/partners/apiKeyStore";
import { PARTNER_SCOPES } from "../services/partners/scopes";
import { type DevWalletName, devWallet } from "./localnet/devWallets";

const START_HINT = "start the service first: npm start";
const DAY = 86_400;
const CONFIRM_TIMEOUT_MS = 60_000;
const POLL_MS = 250;
/** Launchers in the order tried; the next one takes over when a wallet holds its 3 active reservations. */
const LAUNCHERS: readonly DevWalletName[] = ["creator", "launcher", "operator", "deployer"];
const FAMILY_NAMES = { evm: "EVM", solana: "Solana" } as const;

/** A problem the user can fix; printed without a stack. */
class DemoError extends ServiceError {}

const print = (line = "") => console.log(line);
const step = (label: string, text: string) => print(`  ${label.padEnd(10)} ${text}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Where the running service listens: its own configuration (a wildcard listen address is reached locally). */
function apiBaseUrl(config: Config): string {
  const host = ["0.0.0.0", "::"].includes(config.api.host) ? "127.0.0.1" : config.api.host;
  return `http://${host.includes(":") ? `[${host}]` : host}:${config.api.port}`;
}

function databaseUrl(config: Config): string {
  const source = config.database;
  return source.kind === "postgres"
    ? source.url
    : `postgres://postgres@${source.host}:${source.port}/postgres?sslmode=disable`;
}

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

function client(baseUrl: string, secret: string) {
  const call = async (method: string, path: string, body?: unknown, keyed = true): Promise<Answer> => {
    let response: Response;
    try {
      response = await fetch(`${baseUrl}/api/v1${path}`, {
        method,
        headers: {
          ...(keyed ? { authorization: `Bearer ${secret}` } : {}),
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (error) {
      throw new DemoError(
        `The API at ${baseUrl} does not answer (${(error as Error).message}): ${START_HINT}`,
      );
    }
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  return { call };
}

function expectStatus(answer: Answer, status: number, what: string): Record<string, unknown> {
  if (answer.status !== status) {
    throw new DemoError(`${what} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  }
  return answer.body;
}

const errorCode = (answer: Answer) => (answer.body.error as { code?: string } | undefined)?.code;

/** A fresh pair for each run, letters only (digits and symbols fold into letters). */
function randomPair(): { name: string; ticker: string } {
  const letters = Array.from({ length: 5 }, () => String.fromCharCode(65 + randomInt(26))).join("");
  return { name: `Demo Otter ${letters}`, ticker: `D${letters}` };
}

async function createDemoKey(config: Config): Promise<{ secret: string; keyId: string; partnerId: string }> {
  const pool = new Pool({ connectionString: databaseUrl(config), max: 1 });
  pool.on("error", () => undefined);
  try {
    const { record, issued } = await createApiKey(pool, {
      environment: "production",
      scopes: PARTNER_SCOPES,
      rateLimitPerMinute: 600,
      label: "demo",
      createdBy: "demo",
    });
    return { secret: issued.secret, keyId: record.keyId, partnerId: record.partnerId };
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "ECONNREFUSED" || code === "ENOTFOUND") {
      throw new DemoError(`The service's database (${config.database.kind}) does not answer: ${START_HINT}`);
    }
    throw error;
  } finally {
    await pool.end();
  }
}

/** When the registry accepts a commitment's reveal, as POST /v1/reservations/status answers a commit. */
interface RevealTiming {
  revealableAt: string;
  revealableSlot: number | null;
}

/** What a chain needs from the demo: a dev wallet's address, and how that wallet signs and sends. */
interface ChainSide {
  chain: string;
  family: "evm" | "solana";
  address(wallet: DevWalletName): string;
  /** Signs exactly the prepared transaction as `wallet`, sends it and waits until the chain included it. */
  signAndSend(wallet: DevWalletName, transaction: unknown): Promise<{ hash: string; where: string }>;
  /** Waits until the chain's next block would accept the reveal. */
  waitUntilRevealable(timing: RevealTiming): Promise<void>;
}

function describe(transaction: EvmTransactionRequest | SolanaTransactionRequest): string {
  return transaction.family === "evm"
    ? `to ${transaction.to}, value ${transaction.value} wei, data ${transaction.data.slice(0, 10)}… (${(transaction.data.length - 2) / 2} bytes)`
    : `${Buffer.from(transaction.tx, "base64").length} bytes, fee payer ${transaction.feePayer}, blockhash ${transaction.recentBlockhash}`;
}

function evmSide(entry: EvmManifestEntry): ChainSide {
  const chain = defineChain({
    id: entry.chainId,
    name: entry.chain,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [entry.rpcUrl] } },
  });
  const publicClient = createPublicClient({ chain, transport: http() });
  return {
    chain: entry.chain,
    family: "evm",
    address: (wallet) => devWallet(wallet).evm.address,
    async signAndSend(wallet, transaction) {
      const request = transaction as EvmTransactionRequest;
      const walletClient = createWalletClient({ account: devWallet(wallet).evm, chain, transport: http() });
      const hash: Hash = await walletClient
        .sendTransaction({
          to: request.to as `0x${string}`,
          data: request.data,
          value: BigInt(request.value),
        })
        .catch((error: BaseError) => {
          throw new DemoError(`The chain refused the transaction: ${error.details || error.shortMessage}`);
        });
      const receipt = await publicClient.waitForTransactionReceipt({ hash });
      if (receipt.status !== "success") throw new DemoError(`The transaction ${hash} reverted.`);
      return { hash, where: `mined in block ${receipt.blockNumber}` };
    },
    async waitUntilRevealable({ revealableAt }) {
      // The next block is stamped at the node's clock or later: wait for the wall clock to pass the time.
      await sleep(Math.max(0, Date.parse(revealableAt) - Date.now()));
    },
  };
}

function solanaSide(entry: SolanaManifestEntry): ChainSide {
  const connection = new Connection(entry.rpcUrl, "confirmed");
  return {
    chain: entry.chain,
    family: "solana",
    address: (wallet) => devWallet(wallet).solana.publicKey.toBase58(),
    async signAndSend(wallet, transaction) {
      const request = transaction as SolanaTransactionRequest;
      const signed = Transaction.from(Buffer.from(request.tx, "base64"));
      signed.partialSign(devWallet(wallet).solana);
      const signature = await connection.sendRawTransaction(signed.serialize()).catch((error: Error) => {
        throw new DemoError(`The chain refused the transaction: ${error.message}`);
      });
      const deadline = Date.now() + CONFIRM_TIMEOUT_MS;
      for (;;) {
        const status = (await connection.getSignatureStatuses([signature])).value[0];
        if (status?.err)
          throw new DemoError(`The transaction ${signature} failed: ${JSON.stringify(status.err)}`);
        if (status?.confirmationStatus === "confirmed" || status?.confirmationStatus === "finalized") {
          return { hash: signature, where: `confirmed in slot ${status.slot}` };
        }
        if (Date.now() > deadline) throw new DemoError(`The transaction ${signature} did not land in time.`);
        await sleep(POLL_MS);
      }
    },
    async waitUntilRevealable({ revealableSlot }) {
      // Once the cluster processes the revealable slot, a reveal sent now lands in it or later.
      while ((await connection.getSlot("processed")) < (revealableSlot ?? 0)) await sleep(POLL_MS);
    },
  };
}

async function runChain(api: ReturnType<typeof client>, side: ChainSide): Promise<void> {
  const pair = randomPair();
  print();
  print(`== ${side.chain} (${FAMILY_NAMES[side.family]}): pair "${pair.name}" / ${pair.ticker}, 1 day`);

  const quote = expectStatus(
    await api.call("GET", `/reservations/quote?chain=${side.chain}&durationSeconds=${DAY}`),
    200,
    "quote",
  ) as {
    tier: { usd: string };
    quote: { amount: string; unit: string; priceUsd: number; expiresAt: string };
  };
  step(
    "quote",
    `${quote.tier.usd} USD = ${quote.quote.amount} ${quote.quote.unit} (at ${quote.quote.priceUsd} USD, valid until ${quote.quote.expiresAt})`,
  );

  // A dev wallet with a free slot (each holds at most 3 active reservations; earlier runs may have used some).
  let launcher: DevWalletName | undefined;
  let prepared: Record<string, unknown> | undefined;
  for (const wallet of LAUNCHERS) {
    const answer = await api.call("POST", "/reservations/prepare", {
      chain: side.chain,
      ...pair,
      launcher: side.address(wallet),
      durationSeconds: DAY,
    });
    if (answer.status === 409 && errorCode(answer) === "reservation_limit_reached") continue;
    prepared = expectStatus(answer, 201, "prepare");
    launcher = wallet;
    break;
  }
  if (launcher === undefined || prepared === undefined) {
    throw new DemoError(
      `Every dev wallet holds 3 active reservations on ${side.chain}; restart npm start (fresh local chains) or wait for them to expire.`,
    );
  }
  const reservationId = prepared.reservationId as string;
  const commit = prepared.transaction as EvmTransactionRequest | SolanaTransactionRequest;
  const reveal = prepared.reveal as {
    transaction: EvmTransactionRequest | SolanaTransactionRequest;
    minCommitmentAge: { seconds: number } | { slots: number };
  };
  step(
    "prepare",
    `${reservationId}: ${prepared.status}, ${prepared.kind} for launcher ${side.address(launcher)} (dev wallet "${launcher}")`,
  );
  step("", `1. commit: ${describe(commit)} (names no pair)`);
  step(
    "",
    `2. reveal: ${describe(reveal.transaction)}, once the commitment is ${"seconds" in reveal.minCommitmentAge ? `${reveal.minCommitmentAge.seconds} s` : `${reveal.minCommitmentAge.slots} slot(s)`} old`,
  );

  const committed = await side.signAndSend(launcher, commit);
  step("commit", `the wallet signed and sent ${committed.hash} (${committed.where})`);
  const seen = expectStatus(
    await api.call("POST", "/reservations/status", { reservationId, transactionHash: committed.hash }),
    200,
    "POST status (commit)",
  ) as { status: string; step: string; commitOnChain: RevealTiming | null };
  step("status", `POST /v1/reservations/status -> ${seen.status}, step ${seen.step}`);
  if (seen.commitOnChain === null)
    throw new DemoError("The registry does not hold the commitment just mined.");
  await side.waitUntilRevealable(seen.commitOnChain);

  const sent = await side.signAndSend(launcher, reveal.transaction);
  step("reveal", `the wallet signed and sent ${sent.hash} (${sent.where})`);

  const submittedAt = Date.now();
  const submitted = expectStatus(
    await api.call("POST", "/reservations/status", { reservationId, transactionHash: sent.hash }),
    200,
    "POST status",
  );
  step("status", `POST /v1/reservations/status -> ${submitted.status}, step ${submitted.step}`);

  let current = submitted;
  while (current.status !== "confirmed") {
    if (current.status === "failed" || current.status === "expired") {
      throw new DemoError(`The reservation ended ${current.status}: ${current.statusReason}`);
    }
    if (Date.now() - submittedAt > CONFIRM_TIMEOUT_MS) {
      throw new DemoError(
        `Not confirmed after ${CONFIRM_TIMEOUT_MS / 1000} s (status ${current.status}): are the indexers and the worker running (npm start)?`,
      );
    }
    await sleep(POLL_MS);
    current = expectStatus(
      await api.call("GET", `/reservations/status?reservationId=${reservationId}`),
      200,
      "GET status",
    );
  }
  step(
    "confirmed",
    `after ${((Date.now() - submittedAt) / 1000).toFixed(1)} s: fee ${current.feePaid} ${current.feeUnit}, protected until ${current.expiresAt}`,
  );

  const query = `chain=${side.chain}&name=${encodeURIComponent(pair.name)}&ticker=${pair.ticker}`;
  const check = expectStatus(
    await api.call("GET", `/identity/check?${query}`, undefined, false),
    200,
    "check",
  );
  step(
    "check",
    `GET /v1/identity/check -> ${check.status} (authorized launcher ${check.authorizedLauncher})`,
  );
  if (check.status !== "reserved") throw new DemoError(`The check reads ${check.status}, not reserved.`);

  const other = LAUNCHERS.find((wallet) => wallet !== launcher) as DevWalletName;
  for (const [who, wallet] of [
    ["launcher", launcher],
    ["another wallet", other],
  ] as const) {
    const decision = expectStatus(
      await api.call("POST", "/launches/validate", {
        chain: side.chain,
        ...pair,
        launcher: side.address(wallet),
      }),
      200,
      "validate",
    );
    const verified = expectStatus(
      await api.call("POST", "/decisions/verify", decision, false),
      200,
      "verify",
    );
    step(
      who === "launcher" ? "validate" : "",
      `${who} ${side.address(wallet)} -> ${decision.decision} (${decision.reason}), signed by ${decision.keyId}, verify: ${verified.valid ? "valid" : `invalid (${verified.reason})`}`,
    );
  }
}

async function main(): Promise<void> {
  const config = loadConfig();
  const baseUrl = apiBaseUrl(config);
  const manifestPath = manifestPathOf(config);
  if (!existsSync(manifestPath)) {
    throw new DemoError(`No deployment manifest at ${manifestPath}: ${START_HINT}`);
  }
  // The service must answer (whatever its health) before anything is created.
  await client(baseUrl, "").call("GET", "/health", undefined, false);
  const key = await createDemoKey(config);
  print(`Reservation demo against ${baseUrl} (chains from ${manifestPath}).`);
  print(
    `Created a production API key labelled "demo": ${key.keyId} (partner ${key.partnerId}). Revoke it with: npm run operator -- api-keys:revoke --key ${key.keyId} --actor you --reason "demo done"`,
  );
  const manifest = readManifest(manifestPath);
  const api = client(baseUrl, key.secret);
  for (const entry of manifest.evm) await runChain(api, evmSide(entry));
  for (const entry of manifest.solana) await runChain(api, solanaSide(entry));
  print();
  print("Done: every chain reserved, confirmed from chain state, and protected for its launcher only.");
}

main().catch((error: Error) => {
  console.error(error instanceof DemoError || error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
