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
// - the copycat window, per chain: from the node's announcement of the block holding a reservation (EVM: the head
//   on the Hardhat node's `newHeads` websocket; Solana: the local RPC has no block notification and a transaction
//   lands in a slot announced before it, so the `logsNotification` of the reservation at the indexer's commitment)
//   to the first `block` that validate signs for another wallet (a copycat asking every COPYCAT_POLL_MS from before
//   the reservation is sent); until then the mirror has not seen it and validate answers `allow`
//   (docs/decisions.md, "The copycat window"). Validate runs beside it at half its maximum rate, open loop, on
//   other keys, free pairs of both chains: the maximum is measured first in the same environment (closed loop,
//   after a warm-up, the best of validate's levels in flight: support/validateLevels.ts), as
//   bench/validate.bench.ts does. Each sample is split where it can be seen from here: the announcement; the
//   indexer's step (EVM: the runner's heads relay passing that head to Ponder; Solana: the start of the pass that
//   wrote the row, the last to start before it), from indexer/progress.ts's diagnostics channel; the row in
//   `chain_reservations` (polled every ROW_POLL_MS); the first `block`. Metrics:
//   announced_to_first_block_<family>_p50/_p90/_p99/_samples; the steps announced_to_indexer_, indexer_to_row_,
//   announced_to_row_, row_to_first_block_<family>_*; mined_to_first_block_<family>_* (from the holder's wallet
//   seeing its transaction included); the load beside it (window_validate_*) and this process's event-loop delay.
// RESERVATIONS_CASES: a comma-separated subset of `window`, `prepare`, `confirm` (default: all three).
// Everything but Hardhat and Ponder runs in this process, the load generator included.
// Database: DATABASE_URL when set (a fresh schema), else the embedded one.

import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { loadavg } from "node:os";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { Pool as HttpPool } from "undici";
import { createPublicClient, http } from "viem";
import { WebSocket } from "ws";
import { normalizeIdentity } from "../core/fold";
import { INDEXER_PROGRESS_CHANNEL, type IndexerProgress } from "../indexer/progress";
import { LOCAL_EVM_BLOCK_MS } from "../scripts/localnet";
import { issueKey } from "../test/api/support/harness";
import type { ChainDriver, E2e, PaidSteps } from "../test/e2e/support";
import { DAY, startE2e, uniquePair } from "../test/e2e/support";
import { stopSharedEmbeddedServer } from "../test/support/testDatabase";
import type { Emit } from "./run";
import { chosenCases } from "./support/chosenCases";
import { closedLoop } from "./support/closedLoop";
import { percentile } from "./support/stats";
import { VALIDATE_CONNECTION_LEVELS, VALIDATE_MAX_CONNECTIONS } from "./support/validateLevels";
import { validationKeys } from "./support/validationKeys";

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
const ROW_POLL_MS = 5;
/** Validate load beside the window: how long its maximum is warmed up (at the largest level), and measured at each. */
const MAX_WARMUP_MS = 2_000;
const MAX_MEASURE_MS = 3_000;
/** Production keys allow 2000 validations a minute each: enough of them for the half rate over the whole case. */
const LOAD_KEYS = 150;
const LOAD_EVM_LAUNCHER = "0x1111111111111111111111111111111111111111";
const LOAD_SOLANA_LAUNCHER = "4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T";
const CASES = ["window", "prepare", "confirm"] as const;
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
  emit(`prepare_${driver.family}_latency_one_client_p50`, percentile(alone, 0.5), "ms");

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
  emit(`prepare_${driver.family}_latency_p50`, percentile(latencies, 0.5), "ms");
  emit(`prepare_${driver.family}_latency_p99`, percentile(latencies, 0.99), "ms");
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
      emit(`confirm_${driver.family}_by_${by}_p50`, percentile(samples, 0.5), "ms");
      emit(`confirm_${driver.family}_by_${by}_p90`, percentile(samples, 0.9), "ms");
    }),
  );
}

/** When the node announced each block (EVM heads) or each program transaction (Solana logs), on its websocket. */
interface Announcements {
  /** The block or slot holding `hash` and when (performance.now()) it was announced; waits for it briefly. */
  announcedAt(hash: string): Promise<{ at: number; number: bigint }>;
  close(): void;
}

function websocketRpc(
  url: string,
  subscribe: object[],
  onNotification: (message: NotificationMessage) => void,
) {
  const socket = new WebSocket(url);
  const opened = new Promise<void>((resolve, reject) => {
    socket.once("open", () => {
      subscribe.forEach((params, index) => {
        socket.send(JSON.stringify({ jsonrpc: "2.0", id: index + 1, ...params }));
      });
      resolve();
    });
    socket.once("error", reject);
  });
  socket.on("message", (data) => {
    const at = performance.now();
    const message = JSON.parse(String(data)) as NotificationMessage;
    if (message.method !== undefined) onNotification({ ...message, at });
  });
  return { socket, opened };
}

interface NotificationMessage {
  method?: string;
  params?: { result?: Record<string, unknown> & { value?: Record<string, unknown> } };
  at?: number;
}

async function waitFor<T>(read: () => T | undefined, what: string): Promise<T> {
  const deadline = performance.now() + 5_000;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (performance.now() > deadline) throw new Error(`${what}: never announced`);
    await sleep(5);
  }
}

/** EVM: `newHeads` on the Hardhat node's websocket; the head whose block holds the transaction. */
async function evmAnnouncements(e2e: E2e): Promise<Announcements> {
  const entry = e2e.localnet.manifest.evm[0];
  if (entry?.wsUrl === undefined) throw new Error("the Hardhat node has no websocket (evmBlockMs unset)");
  const heads = new Map<bigint, number>();
  const { socket, opened } = websocketRpc(
    entry.wsUrl,
    [{ method: "eth_subscribe", params: ["newHeads"] }],
    (message) => {
      const number = message.params?.result?.number;
      if (typeof number === "string" && !heads.has(BigInt(number)))
        heads.set(BigInt(number), message.at ?? 0);
    },
  );
  await opened;
  const client = createPublicClient({ transport: http(entry.rpcUrl) });
  return {
    async announcedAt(hash) {
      const receipt = await client.getTransactionReceipt({ hash: hash as `0x${string}` });
      const at = await waitFor(() => heads.get(receipt.blockNumber), `block ${receipt.blockNumber}`);
      return { at, number: receipt.blockNumber };
    },
    close: () => socket.close(),
  };
}

/**
 * Solana: the local RPC offers slot, logs, account and signature notifications, no block notification. A
 * transaction lands in the open slot, announced (slotNotification) before the transaction was sent; the first
 * notice that the slot holds it is the logs notification at the indexer's commitment (finalized: the local chain
 * finalizes at once), which is also what wakes the indexer.
 */
async function solanaAnnouncements(e2e: E2e): Promise<Announcements> {
  const entry = e2e.localnet.manifest.solana[0];
  if (entry?.wsUrl === undefined) throw new Error("the localnet's Solana chain has no websocket");
  const logs = new Map<string, { at: number; number: bigint }>();
  const { socket, opened } = websocketRpc(
    entry.wsUrl,
    [{ method: "logsSubscribe", params: [{ mentions: [entry.programId] }, { commitment: "finalized" }] }],
    (message) => {
      const result = message.params?.result;
      const signature = result?.value?.signature;
      const slot = (result?.context as { slot?: number } | undefined)?.slot;
      if (message.method === "logsNotification" && typeof signature === "string" && !logs.has(signature))
        logs.set(signature, { at: message.at ?? 0, number: BigInt(slot ?? 0) });
    },
  );
  await opened;
  return {
    announcedAt: (signature) => waitFor(() => logs.get(signature), `transaction ${signature}`),
    close: () => socket.close(),
  };
}

/** The indexers' progress (indexer/progress.ts): per chain, block or slot number → when each step reached it. */
function indexerProgress(): {
  /** When `step` of `chain` reached `number` or beyond, between `after` and `before`. */
  reached(
    chain: string,
    step: IndexerProgress["step"],
    number: bigint,
    after: number,
    before: number,
  ): number | undefined;
  close(): void;
} {
  const events: IndexerProgress[] = [];
  const listener = (message: unknown) => events.push(message as IndexerProgress);
  subscribe(INDEXER_PROGRESS_CHANNEL, listener);
  return {
    reached(chain, step, number, after, before) {
      const matching = events.filter(
        (event) =>
          event.chain === chain &&
          event.step === step &&
          event.number >= number &&
          event.at >= after &&
          event.at <= before,
      );
      // EVM: the relay passing that head on. Solana: passes never overlap, so the last one to begin before the
      // row appeared is the one that wrote it.
      return (step === "head-relayed" ? matching[0] : matching.at(-1))?.at;
    },
    close: () => unsubscribe(INDEXER_PROGRESS_CHANNEL, listener),
  };
}

interface WindowSample {
  /** The node's announcement of the block or slot holding the reservation. */
  announced: number;
  /** The holder's wallet saw the transaction included. */
  included: number;
  /** EVM: the heads relay passed the block on to Ponder; Solana: the pass that mirrors the slot began. */
  indexer: number | undefined;
  /** The reservation's row was in `chain_reservations` (polled). */
  row: number;
  /** The copycat's first signed `block`. */
  blocked: number;
}

/**
 * One reservation: a copycat validates every COPYCAT_POLL_MS from before the reservation is sent until its first
 * `block`, while the table is polled for the reservation's row.
 */
async function copycatWindow(
  e2e: E2e,
  driver: ChainDriver,
  announcements: Announcements,
  progress: ReturnType<typeof indexerProgress>,
): Promise<WindowSample> {
  // A key per sample: a copycat asking every 10 ms would pass a key's limit (at most 2000 a minute) over many.
  const api = await caller(e2e);
  const [holder, copycat] = await Promise.all([driver.newWallet(), driver.newWallet()]);
  const pair = uniquePair("Window");
  const identity = normalizeIdentity(pair.name, pair.ticker);
  // Reservations at random phases of the indexers' loops.
  await sleep(Math.random() * 1000);
  const sent = performance.now();
  let done = false;
  const blocked = (async () => {
    for (;;) {
      const answer = await api.post("/launches/validate", {
        chain: driver.chain,
        ...pair,
        launcher: copycat.address,
      });
      if (answer.status !== 200) throw new Error(`validate answered ${answer.status}`);
      if (answer.body.decision === "block") return performance.now();
      await sleep(COPYCAT_POLL_MS);
    }
  })();
  const row = (async () => {
    while (!done) {
      const { rowCount } = await e2e.db.pool.query(
        "SELECT 1 FROM chain_reservations WHERE chain = $1 AND normalized_name = $2 AND normalized_ticker = $3",
        [driver.chain, identity.normalizedName, identity.normalizedTicker],
      );
      if (rowCount) return performance.now();
      await sleep(ROW_POLL_MS);
    }
    return Number.NaN;
  })();
  try {
    const hash = await driver.reserveDirectly(holder, pair.name, pair.ticker);
    const included = performance.now();
    const { at: announced, number } = await announcements.announcedAt(hash);
    const sample = { announced, included, row: await row, blocked: await blocked };
    // The relay may pass a head on just before this process's own subscription hears it; a Solana pass may read
    // the head slot before the transaction lands in it and list the transaction after.
    const indexer =
      driver.family === "evm"
        ? progress.reached(driver.chain, "head-relayed", number, sent, sample.row)
        : progress.reached(driver.chain, "pass-started", 0n, sent, sample.row);
    return { ...sample, indexer };
  } finally {
    done = true;
  }
}

function emitPercentiles(emit: Emit, metric: string, values: readonly number[]): void {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  for (const p of [50, 90, 99]) emit(`${metric}_p${p}`, Math.round(percentile(sorted, p / 100)), "ms");
}

interface ValidateLoad {
  stop(): Promise<{ rate: number; p50: number; p99: number; errors: number }>;
}

/** Launch validations of free pairs on both chains, alternating, through `pool` with `keys` in turn. */
function validateSender(e2e: E2e, keys: readonly string[]) {
  const pool = new HttpPool(e2e.api.url, { connections: VALIDATE_MAX_CONNECTIONS });
  const launchers = { evm: LOAD_EVM_LAUNCHER, solana: LOAD_SOLANA_LAUNCHER };
  return {
    async send(index: number): Promise<number> {
      const driver = index % 2 === 0 ? e2e.evm : e2e.solana;
      try {
        const response = await pool.request({
          method: "POST",
          path: "/api/v1/launches/validate",
          headers: {
            "content-type": "application/json",
            authorization: `Bearer ${keys[index % keys.length]}`,
          },
          body: JSON.stringify({
            chain: driver.chain,
            name: `Load Launch ${index % 5000}`,
            ticker: `LL${index % 89}`,
            launcher: launchers[driver.family],
          }),
        });
        await response.body.dump();
        return response.statusCode;
      } catch {
        return 0;
      }
    },
    close: () => pool.close(),
  };
}

type Sender = ReturnType<typeof validateSender>;

/**
 * The maximum validate rate beside everything else, closed loop after a warm-up: the best of validate's levels of
 * requests in flight, with the level it was reached at.
 */
async function maxValidateRate(sender: Sender): Promise<{ rate: number; connections: number }> {
  await closedLoop(sender.send, MAX_WARMUP_MS, VALIDATE_MAX_CONNECTIONS);
  let best = { rate: 0, connections: 0 };
  for (const connections of VALIDATE_CONNECTION_LEVELS) {
    const sample = await closedLoop(sender.send, MAX_MEASURE_MS, connections);
    const rate = sample.latencies.length / sample.seconds;
    if (rate > best.rate) best = { rate, connections };
  }
  return best;
}

/** Open loop at `rate` until stopped: requests start on schedule whatever the answers do. */
function startValidateLoad(sender: Sender, rate: number): ValidateLoad {
  const latencies: number[] = [];
  let errors = 0;
  let stopped = false;
  const pending = new Set<Promise<void>>();
  const started = performance.now();
  let sentCount = 0;
  const loop = (async () => {
    for (let index = 0; !stopped; index += 1) {
      const wait = started + (index * 1000) / rate - performance.now();
      if (wait > 1) await sleep(wait);
      const sentAt = performance.now();
      sentCount += 1;
      const request = sender.send(index).then((status) => {
        if (status !== 200) errors += 1;
        latencies.push(performance.now() - sentAt);
        pending.delete(request);
      });
      pending.add(request);
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      const seconds = (performance.now() - started) / 1000;
      await Promise.all(pending);
      latencies.sort((a, b) => a - b);
      return {
        rate: sentCount / seconds,
        p50: percentile(latencies, 0.5),
        p99: percentile(latencies, 0.99),
        errors,
      };
    },
  };
}

async function copycatWindows(e2e: E2e, emit: Emit): Promise<void> {
  const sender = validateSender(e2e, await validationKeys(e2e.db.pool, LOAD_KEYS));
  const { rate: max, connections } = await maxValidateRate(sender);
  const rate = Math.max(1, Math.floor(max / 2));
  note(
    `validate beside the window: maximum ${Math.round(max)} req/s (closed loop, ${connections} in flight), open loop at ${rate} req/s`,
  );
  const load = startValidateLoad(sender, rate);
  // The API, the load, the Solana chain and its indexer share this process's event loop: its stalls are everyone's.
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  const progress = indexerProgress();
  const watchers = { evm: await evmAnnouncements(e2e), solana: await solanaAnnouncements(e2e) };
  try {
    await Promise.all(
      [e2e.evm, e2e.solana].map(async (driver) => {
        const samples: WindowSample[] = [];
        for (let index = 0; index < WINDOW_SAMPLES_PER_CHAIN; index++) {
          const sample = await copycatWindow(e2e, driver, watchers[driver.family], progress);
          samples.push(sample);
          const step = (from: number | undefined, to: number | undefined) =>
            from === undefined || to === undefined ? "?" : (to - from).toFixed(0);
          note(
            `${driver.family} #${index + 1}: announced → first block ${step(sample.announced, sample.blocked)} ms (→ indexer ${step(sample.announced, sample.indexer)}, → row ${step(sample.indexer ?? sample.announced, sample.row)}, → block ${step(sample.row, sample.blocked)}); included → first block ${step(sample.included, sample.blocked)}`,
          );
        }
        const family = driver.family;
        const window = samples.map((sample) => sample.blocked - sample.announced);
        emitPercentiles(emit, `announced_to_first_block_${family}`, window);
        emit(`announced_to_first_block_${family}_samples`, window.length, "count");
        emitPercentiles(
          emit,
          `announced_to_indexer_${family}`,
          samples.map((s) => (s.indexer ?? Number.NaN) - s.announced),
        );
        emitPercentiles(
          emit,
          `indexer_to_row_${family}`,
          samples.map((s) => s.row - (s.indexer ?? Number.NaN)),
        );
        emitPercentiles(
          emit,
          `announced_to_row_${family}`,
          samples.map((s) => s.row - s.announced),
        );
        emitPercentiles(
          emit,
          `row_to_first_block_${family}`,
          samples.map((s) => s.blocked - s.row),
        );
        emitPercentiles(
          emit,
          `mined_to_first_block_${family}`,
          samples.map((s) => s.blocked - s.included),
        );
      }),
    );
  } finally {
    watchers.evm.close();
    watchers.solana.close();
    progress.close();
    loopDelay.disable();
    const beside = await load.stop();
    sender.close();
    note(
      `validate beside: ${beside.rate.toFixed(0)} req/s, p50 ${beside.p50.toFixed(1)} ms, p99 ${beside.p99.toFixed(1)} ms, ${beside.errors} not 200`,
    );
    emit("window_validate_max_rate", Math.round(max), "req/s");
    emit("window_validate_load_rate", Math.round(beside.rate), "req/s");
    emit("window_validate_load_p50", Math.round(beside.p50 * 10) / 10, "ms");
    emit("window_validate_load_p99", Math.round(beside.p99 * 10) / 10, "ms");
    emit("window_validate_load_errors", beside.errors, "requests");
    emit("window_event_loop_delay_p99", Math.round(loopDelay.percentile(99) / 1e6), "ms");
    emit("window_event_loop_delay_max", Math.round(loopDelay.max / 1e6), "ms");
  }
}

export async function run(emit: Emit): Promise<void> {
  const cases = chosenCases("RESERVATIONS_CASES", CASES);
  note(`database: ${process.env.DATABASE_URL ? "DATABASE_URL (Postgres)" : "embedded (PGlite)"}`);
  const e2e = await startE2e({ timings: NPM_START_TIMINGS });
  try {
    if (cases.has("window")) {
      note(
        `copycat window: ${WINDOW_SAMPLES_PER_CHAIN} reservations per chain, a copycat validating every ${COPYCAT_POLL_MS} ms, load average ${loadavg()
          .map((load) => load.toFixed(2))
          .join(" ")}`,
      );
      await copycatWindows(e2e, emit);
      note(
        `load average after the window: ${loadavg()
          .map((load) => load.toFixed(2))
          .join(" ")}`,
      );
    }
    if (cases.has("prepare"))
      for (const driver of [e2e.evm, e2e.solana]) await prepareLoad(e2e, driver, emit);
    if (cases.has("confirm")) {
      note(`confirmations driven by the worker alone (pass every ${NPM_START_TIMINGS.workerIntervalMs} ms)`);
      await confirmations(e2e, "worker", emit);
      await e2e.stopWorker();
      note(
        `confirmations driven by POST status alone (worker stopped, a POST every ${POST_STATUS_RETRY_MS} ms)`,
      );
      await confirmations(e2e, "post_status", emit);
    }
  } finally {
    await e2e.stop();
    await stopSharedEmbeddedServer();
  }
}
