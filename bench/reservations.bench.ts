// Reservations through the whole service on the local chains (test/e2e/support: localnet, both indexers, the API,
// the worker), with `npm start`'s timings (Solana slots of 400 ms, Hardhat blocks every 5 s besides those of
// transactions, Ponder woken by the node's new heads over its websocket and polling 200 ms when it has none, the
// Solana indexer's 1 s pass woken by its websocket, a worker pass every 1 s, prices republished every 20 s):
// - prepare throughput and latency per chain: production prepares read the registry over RPC (hold, wallet
//   count, price; Solana also a blockhash) and write the reservation and its ledger draft;
// - time from the wallet's submission (sign and send the commitment, wait until the registry accepts its reveal,
//   sign and send the reveal) to `confirmed`, per chain, twice: driven by the worker alone (nobody posts a hash; the
//   worker matches the mirror's partnerRef) and by POST status alone (worker stopped; the client posts the reveal's
//   hash every POST_STATUS_RETRY_MS until the answer is confirmed);
// - the copycat window, per chain: from a reservation being included on-chain (the holder's wallet sees it) to the
//   first `block` that validate signs for another wallet (a copycat asking every COPYCAT_POLL_MS); until then the
//   mirror has not seen it and validate answers `allow` (docs/decisions.md, "The copycat window").
// Everything but Hardhat and Ponder runs in this process, the load generator included.
// Database: DATABASE_URL when set (a fresh schema), else the embedded one.

import { LOCAL_EVM_BLOCK_MS } from "../scripts/localnet";
import { issueKey } from "../test/api/support/harness";
import type { ChainDriver, E2e, PaidSteps } from "../test/e2e/support";
import { DAY, startE2e, uniquePair } from "../test/e2e/support";
import { stopSharedEmbeddedServer } from "../test/support/testDatabase";
import type { Emit } from "./run";

const PREPARES_PER_CHAIN = 300;
/** Sequential prepares before the load: the warm-up, and the latency of one client alone. */
const SEQUENTIAL_PREPARES = 50;
const CONCURRENCY = 8;
const LAUNCHERS_PER_CHAIN = 4;
const CONFIRMATIONS_PER_CHAIN = 20;
const POST_STATUS_RETRY_MS = 100;
const STATUS_POLL_MS = 10;
const WINDOW_SAMPLES_PER_CHAIN = 30;
const COPYCAT_POLL_MS = 10;
const NPM_START_TIMINGS = {
  slotMs: 400,
  evmPollingIntervalMs: 200,
  solanaPollIntervalMs: 1000,
  workerIntervalMs: 1000,
  evmBlockMs: LOCAL_EVM_BLOCK_MS,
  // The Solana registry refuses prices older than 60 s and the bench runs for minutes (prepares 503 otherwise).
  priceRefreshMs: 20_000,
};

const note = (line: string) => process.stderr.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

interface Caller {
  post(path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }>;
}

/** Keep-alive HTTP with a production key of its own (each key has its own rate window). */
async function caller(e2e: E2e): Promise<Caller> {
  const { secret } = await issueKey(e2e.api, "production", { rateLimitPerMinute: 2_000 });
  return {
    async post(path, body) {
      const response = await fetch(`${e2e.api.url}/api/v1${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    },
  };
}

async function prepareLoad(e2e: E2e, driver: ChainDriver, emit: Emit): Promise<void> {
  const api = await caller(e2e);
  const launchers = await Promise.all(
    Array.from({ length: LAUNCHERS_PER_CHAIN }, async () => (await driver.newWallet()).address),
  );
  const prepare = async (index: number) => {
    const started = performance.now();
    const answer = await api.post("/reservations/prepare", {
      chain: driver.chain,
      ...uniquePair("Bench"),
      launcher: launchers[index % launchers.length],
      durationSeconds: DAY,
    });
    if (answer.status !== 201)
      throw new Error(`prepare answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    return performance.now() - started;
  };
  const alone: number[] = [];
  for (let index = 0; index < SEQUENTIAL_PREPARES; index++) alone.push(await prepare(index));
  alone.sort((a, b) => a - b);
  emit(`prepare_${driver.family}_latency_one_client_p50`, percentile(alone, 50), "ms");

  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < PREPARES_PER_CHAIN) {
        const index = next++;
        latencies.push(await prepare(index));
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  emit(`prepare_${driver.family}_throughput`, PREPARES_PER_CHAIN / seconds, "req/s");
  emit(`prepare_${driver.family}_latency_p50`, percentile(latencies, 50), "ms");
  emit(`prepare_${driver.family}_latency_p99`, percentile(latencies, 99), "ms");
  note(
    `${driver.chain}: ${PREPARES_PER_CHAIN} prepares at concurrency ${CONCURRENCY} in ${seconds.toFixed(1)} s`,
  );
}

type Driver = "worker" | "post_status";

/**
 * Submission to confirmed for one reservation: a fresh funded wallet, prepare, then from the commitment's sending
 * on: commit, reveal, wait.
 */
async function confirmationTime(e2e: E2e, api: Caller, driver: ChainDriver, by: Driver): Promise<number> {
  const wallet = await driver.newWallet();
  // Submissions at random phases of the worker's loop (back to back, they would all start just after a pass).
  await sleep(Math.random() * NPM_START_TIMINGS.workerIntervalMs);
  const prepared = await api.post("/reservations/prepare", {
    chain: driver.chain,
    ...uniquePair("Settle"),
    launcher: wallet.address,
    durationSeconds: DAY,
  });
  if (prepared.status !== 201)
    throw new Error(`prepare answered ${prepared.status}: ${JSON.stringify(prepared.body)}`);
  const reservationId = prepared.body.reservationId as string;
  const submitted = performance.now();
  const hash = await wallet.pay({
    transaction: prepared.body.transaction as PaidSteps["transaction"],
    reveal: prepared.body.reveal as PaidSteps["reveal"],
  });
  for (;;) {
    const status =
      by === "worker"
        ? (
            await e2e.db.pool.query<{ status: string }>(
              "SELECT status FROM reservations WHERE reservation_id = $1",
              [reservationId],
            )
          ).rows[0]?.status
        : (await api.post("/reservations/status", { reservationId, transactionHash: hash })).body.status;
    if (status === "confirmed") return performance.now() - submitted;
    if (status === "failed" || status === "expired")
      throw new Error(`reservation ${reservationId} ${status}`);
    await sleep(by === "worker" ? STATUS_POLL_MS : POST_STATUS_RETRY_MS);
  }
}

async function confirmations(e2e: E2e, by: Driver, emit: Emit): Promise<void> {
  // Both chains at once, one reservation at a time on each.
  await Promise.all(
    [e2e.evm, e2e.solana].map(async (driver) => {
      const api = await caller(e2e);
      const samples: number[] = [];
      for (let index = 0; index < CONFIRMATIONS_PER_CHAIN; index++) {
        samples.push(await confirmationTime(e2e, api, driver, by));
      }
      samples.sort((a, b) => a - b);
      emit(`confirm_${driver.family}_by_${by}_p50`, percentile(samples, 50), "ms");
      emit(`confirm_${driver.family}_by_${by}_p90`, percentile(samples, 90), "ms");
    }),
  );
}

/** Inclusion (the holder's wallet saw it) to the first signed `block` of a copycat's validate, in ms. */
async function copycatWindow(e2e: E2e, driver: ChainDriver): Promise<number> {
  // A key per sample: a copycat asking every 10 ms would pass a key's limit (at most 2000 a minute) over many.
  const api = await caller(e2e);
  const [holder, copycat] = await Promise.all([driver.newWallet(), driver.newWallet()]);
  const pair = uniquePair("Window");
  // Reservations at random phases of the indexers' loops.
  await sleep(Math.random() * 1000);
  await driver.reserveDirectly(holder, pair.name, pair.ticker);
  const mined = performance.now();
  for (;;) {
    const answer = await api.post("/launches/validate", {
      chain: driver.chain,
      ...pair,
      launcher: copycat.address,
    });
    if (answer.status !== 200) throw new Error(`validate answered ${answer.status}`);
    if (answer.body.decision === "block") return performance.now() - mined;
    await sleep(COPYCAT_POLL_MS);
  }
}

async function copycatWindows(e2e: E2e, emit: Emit): Promise<void> {
  await Promise.all(
    [e2e.evm, e2e.solana].map(async (driver) => {
      const samples: number[] = [];
      for (let index = 0; index < WINDOW_SAMPLES_PER_CHAIN; index++) {
        samples.push(await copycatWindow(e2e, driver));
      }
      samples.sort((a, b) => a - b);
      emit(`mined_to_first_block_${driver.family}_p50`, percentile(samples, 50), "ms");
      emit(`mined_to_first_block_${driver.family}_p90`, percentile(samples, 90), "ms");
      emit(`mined_to_first_block_${driver.family}_p99`, percentile(samples, 99), "ms");
      emit(`mined_to_first_block_${driver.family}_samples`, samples.length, "count");
    }),
  );
}

export async function run(emit: Emit): Promise<void> {
  note(`database: ${process.env.DATABASE_URL ? "DATABASE_URL (Postgres)" : "embedded (PGlite)"}`);
  const e2e = await startE2e({ timings: NPM_START_TIMINGS });
  try {
    note(
      `copycat window: ${WINDOW_SAMPLES_PER_CHAIN} reservations per chain, a copycat validating every ${COPYCAT_POLL_MS} ms`,
    );
    await copycatWindows(e2e, emit);
    for (const driver of [e2e.evm, e2e.solana]) await prepareLoad(e2e, driver, emit);
    note(`confirmations driven by the worker alone (pass every ${NPM_START_TIMINGS.workerIntervalMs} ms)`);
    await confirmations(e2e, "worker", emit);
    await e2e.stopWorker();
    note(
      `confirmations driven by POST status alone (worker stopped, a POST every ${POST_STATUS_RETRY_MS} ms)`,
    );
    await confirmations(e2e, "post_status", emit);
  } finally {
    await e2e.stop();
    await stopSharedEmbeddedServer();
  }
}
