// Indexer speed through the API's read model: mined-to-visible latency p50/p90/p99 per chain (time from the
// transaction's confirmation at the client to its row in chain_reservations), and backfill throughput for
// 5,000 reservations on each chain, with the EVM backfill's peak RSS (EVM_BACKFILL_EVENTS, BENCH_RSS_LIMIT_MB).
// Runs on DATABASE_URL's Postgres, else on the embedded one.

import { setTimeout as sleep } from "node:timers/promises";
import { Worker } from "node:worker_threads";
import type { Keypair } from "@solana/web3.js";
import type { Pool } from "pg";
import { encodeFunctionData } from "viem";
import { readManifest } from "../config/manifest";
import { identityRegistryAbi } from "../contracts/abi/identityRegistry";
import { startEvmIndexer } from "../indexer/evm/run";
import { startSolanaIndexer } from "../indexer/solana";
import { solanaRpc } from "../indexer/solana/rpc";
import {
  type HardhatChain,
  ONE_DAY,
  reservationCalls,
  startHardhatChain,
} from "../test/indexer/support/hardhatChain";
import { startSolanaTestChain } from "../test/indexer/support/solanaChain";
import { createTestDatabase, freePort, stopSharedEmbeddedServer } from "../test/support/testDatabase";
import type { Emit } from "./run";
import { percentile } from "./support/stats";

const LATENCY_SAMPLES = 30;
/**
 * The latency case's Ponder runs as `npm start` runs it (scripts/start.ts): new heads over the node's websocket,
 * polling every 200 ms as the fallback. Polling alone every 100 ms spent half of Ponder's RPC budget (it starts
 * each RPC URL at 20 requests a second) and put a tenth of the samples behind its rate limit (docs/performance.md).
 */
const LATENCY_POLLING_MS = 200;
/**
 * A pause between latency samples. Back to back, a sample's commit and reveal came ~60 ms apart, ~30 blocks a
 * second: more block fetches than Ponder's RPC limit serves, so samples waited for the next second's budget.
 */
const LATENCY_SAMPLE_SPACING_MS = 500;
const BACKFILL_RESERVATIONS = 5_000;
/** The EVM backfill's event count (EVM_BACKFILL_EVENTS): smaller runs show how memory grows with it. */
const EVM_BACKFILL_EVENTS = Number(process.env.EVM_BACKFILL_EVENTS ?? BACKFILL_RESERVATIONS);
/** The bench process (which hosts the embedded server) stops the backfill past this RSS instead of dying. */
const RSS_LIMIT_MB = Number(process.env.BENCH_RSS_LIMIT_MB ?? 4096);

/**
 * Peak RSS (MB, from /proc) of this process (which hosts the embedded database server) and of Ponder's,
 * sampled on a worker thread: the main thread's timers starve while the embedded server is flooded. Past
 * BENCH_RSS_LIMIT_MB it kills Ponder, so the bench ends instead of the machine running out of memory.
 */
function watchMemory(ponderPid: number | undefined) {
  const shared = new Int32Array(new SharedArrayBuffer(12));
  const worker = new Worker(
    `const { workerData: { shared, pids, limitMb } } = require("node:worker_threads");
     const { readFileSync } = require("node:fs");
     const rss = (pid) => { try { return Math.round(Number(/VmRSS:\\s+(\\d+)/.exec(readFileSync("/proc/" + pid + "/status", "utf8"))[1]) / 1024); } catch { return 0; } };
     setInterval(() => {
       Atomics.store(shared, 0, Math.max(Atomics.load(shared, 0), rss(pids[0])));
       if (pids[1] !== undefined) Atomics.store(shared, 1, Math.max(Atomics.load(shared, 1), rss(pids[1])));
       if (Atomics.load(shared, 0) > limitMb && Atomics.exchange(shared, 2, 1) === 0 && pids[1] !== undefined)
         process.kill(pids[1], "SIGKILL");
     }, 250);`,
    { eval: true, workerData: { shared, pids: [process.pid, ponderPid], limitMb: RSS_LIMIT_MB } },
  );
  return {
    selfMb: () => Atomics.load(shared, 0),
    ponderMb: () => Atomics.load(shared, 1),
    overLimit: () => Atomics.load(shared, 2) === 1,
    stop: () => worker.terminate(),
  };
}

async function visibleAfter(pool: Pool, txHash: string, since: number): Promise<number> {
  for (;;) {
    const { rowCount } = await pool.query("SELECT 1 FROM chain_reservations WHERE tx_hash = $1", [txHash]);
    if (rowCount) return performance.now() - since;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function evmLatency(emit: Emit): Promise<void> {
  const [database, chain] = await Promise.all([createTestDatabase(), startHardhatChain()]);
  const deploymentSchema = `evm_bench_${Date.now().toString(36)}`;
  const manifestPath = chain.manifestWithWebsocket(chain.wsUrl);
  const indexer = await startEvmIndexer({
    databaseUrl: database.url,
    pool: database.pool,
    manifest: readManifest(manifestPath),
    manifestPath,
    serviceSchema: database.schema,
    viewsSchema: `${database.schema}_views`,
    deploymentSchema,
    port: await freePort(),
    pollingIntervalMs: LATENCY_POLLING_MS,
    log: () => undefined,
  });
  try {
    await indexer.ready;
    const samples: number[] = [];
    for (let i = 0; i < LATENCY_SAMPLES; i++) {
      const wallet = chain.wallets[i % chain.wallets.length];
      if (!wallet) throw new Error("no wallet");
      const { hash } = await chain.reserve(wallet, `latency ${i}`, "LAT");
      const mined = performance.now();
      samples.push(await visibleAfter(database.pool, hash, mined));
      if ((i + 1) % chain.wallets.length === 0) await chain.increaseTime(2 * 86_400);
      await sleep(LATENCY_SAMPLE_SPACING_MS);
    }
    samples.sort((a, b) => a - b);
    emit("evm_mined_to_visible_p50", percentile(samples, 0.5), "ms");
    emit("evm_mined_to_visible_p90", percentile(samples, 0.9), "ms");
    emit("evm_mined_to_visible_p99", percentile(samples, 0.99), "ms");
  } finally {
    await indexer.stop();
    await chain.stop();
    for (const schema of [deploymentSchema, `${database.schema}_views`]) {
      await database.pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    }
    await database.close();
  }
}

/**
 * Sends `count` reservations from impersonated, funded addresses (3 each, the per-wallet limit) in
 * JSON-RPC batches of about 100 (automine: one block each): a batch of commitments, then a batch of their reveals
 * (each block is stamped at least a second after the last, the local registry's minimum commitment age), then mines
 * past Ponder's 30-block local finality window. (With automine off and blocks of 100, the Hardhat node grew past
 * 10 GB.)
 */
async function seedEvmReservations(chain: HardhatChain, count: number): Promise<void> {
  const fee = await chain.wallets[0]?.publicClient.readContract({
    address: chain.deployment.registry,
    abi: identityRegistryAbi,
    functionName: "quote",
    args: [ONE_DAY],
  });
  // Hardhat answers the calls of a batch concurrently: fund and impersonate in one batch, send in the next.
  const batch = async (calls: { method: string; params: unknown[] }[]) => {
    const response = await fetch(chain.rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(calls.map((call, id) => ({ jsonrpc: "2.0", id, ...call }))),
    });
    const answers = (await response.json()) as { error?: { message: string } }[];
    const failed = answers.find((answer) => answer.error);
    if (failed) throw new Error(`seeding reservations failed: ${failed.error?.message}`);
  };
  const senderOf = (i: number): `0x${string}` =>
    `0x${(0x10000 + Math.floor(i / 3)).toString(16).padStart(40, "0")}`;
  for (let start = 0; start < count; start += 99) {
    const indexes = Array.from({ length: Math.min(99, count - start) }, (_, k) => start + k);
    const senders = [...new Set(indexes.map(senderOf))];
    if (start % 990 === 0) await chain.refreshPrice();
    await batch(
      senders.flatMap((sender) => [
        { method: "hardhat_setBalance", params: [sender, "0xde0b6b3a7640000000"] },
        { method: "hardhat_impersonateAccount", params: [sender] },
      ]),
    );
    const calls = indexes.map((i) => ({
      from: senderOf(i),
      ...reservationCalls(senderOf(i), `backfill ${i}`, "BKF", `0x${"0".repeat(64)}`),
    }));
    const send = (value: bigint, data: (call: (typeof calls)[number]) => `0x${string}`) =>
      batch(
        calls.map((call) => ({
          method: "eth_sendTransaction",
          params: [
            {
              from: call.from,
              to: chain.deployment.registry,
              gas: "0x7a120",
              value: `0x${value.toString(16)}`,
              data: data(call),
            },
          ],
        })),
      );
    await send(0n, (call) => encodeFunctionData(call.commit));
    await send(fee ?? 0n, (call) => encodeFunctionData(call.reveal));
  }
  await chain.rpc("hardhat_mine", ["0x40"]);
}

async function evmBackfill(emit: Emit): Promise<void> {
  const embedded = !process.env.DATABASE_URL;
  const [database, chain] = await Promise.all([createTestDatabase(), startHardhatChain()]);
  const deploymentSchema = `evm_bench_backfill_${Date.now().toString(36)}`;
  const where = embedded ? "embedded" : "postgres";
  try {
    console.error(`indexer bench: sending ${EVM_BACKFILL_EVENTS} EVM reservations for the backfill...`);
    await seedEvmReservations(chain, EVM_BACKFILL_EVENTS);
    const started = performance.now();
    const indexer = await startEvmIndexer({
      databaseUrl: database.url,
      pool: database.pool,
      manifest: readManifest(chain.manifestPath),
      manifestPath: chain.manifestPath,
      serviceSchema: database.schema,
      viewsSchema: `${database.schema}_views`,
      deploymentSchema,
      port: await freePort(),
      pollingIntervalMs: 100,
      restartOnExit: false,
      log: () => undefined,
    });
    const peaks = watchMemory(indexer.pid());
    let indexed = 0;
    try {
      await indexer.ready;
      const ready = performance.now();
      for (;;) {
        const { rows } = await database.pool.query("SELECT count(*)::int AS n FROM chain_reservations");
        indexed = rows[0].n;
        if (indexed >= EVM_BACKFILL_EVENTS) break;
        if (peaks.overLimit()) {
          console.error(
            `indexer bench: EVM backfill stopped at ${indexed} of ${EVM_BACKFILL_EVENTS} events: RSS past BENCH_RSS_LIMIT_MB (${RSS_LIMIT_MB} MB)`,
          );
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const done = performance.now();
      if (indexed >= EVM_BACKFILL_EVENTS) {
        emit(
          `evm_backfill_${where}_events_per_second`,
          EVM_BACKFILL_EVENTS / ((done - ready) / 1000),
          "events/s",
        );
        emit(
          `evm_backfill_${where}_events_per_second_incl_ponder_start`,
          EVM_BACKFILL_EVENTS / ((done - started) / 1000),
          "events/s",
        );
      }
      emit(`evm_backfill_${where}_events_indexed`, indexed, "events");
      emit(`evm_backfill_${where}_peak_rss_bench_process`, peaks.selfMb(), "MB");
      emit(`evm_backfill_${where}_peak_rss_ponder`, peaks.ponderMb(), "MB");
    } finally {
      await peaks.stop();
      await indexer.stop();
    }
  } finally {
    await chain.stop();
    for (const schema of [deploymentSchema, `${database.schema}_views`]) {
      await database.pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    }
    await database.close();
  }
}

async function solana(emit: Emit): Promise<void> {
  const [database, chain] = await Promise.all([createTestDatabase(), startSolanaTestChain()]);
  try {
    // Latency at `confirmed` (the local RPC's finalized trails it by its configured lag, 0 here).
    const live = await startSolanaIndexer({
      pool: database.pool,
      manifestEntry: chain.entry,
      commitment: "confirmed",
      pollIntervalMs: 100,
      log: () => undefined,
    });
    await live.caughtUp;
    const samples: number[] = [];
    let launcher = chain.newLauncher();
    for (let i = 0; i < LATENCY_SAMPLES; i++) {
      if (i % 3 === 0) launcher = chain.newLauncher();
      const signature = await chain.reserve(launcher, `latency ${i}`, "LAT");
      samples.push(await visibleAfter(database.pool, signature, performance.now()));
    }
    await live.stop();
    samples.sort((a, b) => a - b);
    emit("solana_mined_to_visible_p50", percentile(samples, 0.5), "ms");
    emit("solana_mined_to_visible_p90", percentile(samples, 0.9), "ms");
    emit("solana_mined_to_visible_p99", percentile(samples, 0.99), "ms");

    console.error(`indexer bench: sending ${BACKFILL_RESERVATIONS} Solana reservations for the backfill...`);
    // 30 in flight (10 launchers x 3, the per-wallet limit); the local price is kept under its 60 s max age.
    let refreshedAt = Date.now();
    for (let start = 0; start < BACKFILL_RESERVATIONS; start += 30) {
      if (Date.now() - refreshedAt > 20_000) {
        await chain.refreshPrice();
        refreshedAt = Date.now();
      }
      const launchers = Array.from({ length: 10 }, () => chain.newLauncher());
      const count = Math.min(30, BACKFILL_RESERVATIONS - start);
      await Promise.all(
        Array.from({ length: count }, (_, k) =>
          chain.reserve(launchers[Math.floor(k / 3)] as Keypair, `backfill ${start + k}`, "BKF"),
        ),
      );
    }
    await database.pool.query(
      "DELETE FROM chain_reservations; DELETE FROM solana_cursors; DELETE FROM solana_applied_transactions",
    );
    const started = performance.now();
    const backfill = await startSolanaIndexer({
      pool: database.pool,
      manifestEntry: chain.entry,
      commitment: "confirmed",
      log: () => undefined,
    });
    await backfill.caughtUp;
    const seconds = (performance.now() - started) / 1000;
    await backfill.stop();
    const { rows } = await database.pool.query("SELECT count(*)::int AS n FROM chain_reservations");
    const eventsPerSecond = rows[0].n / seconds;
    emit("solana_backfill_events_per_second", eventsPerSecond, "events/s");
    // Baseline: the same signatures fetched the same way (batches of 25 getTransaction), nothing decoded
    // or written. The ratio is the share of raw RPC speed the indexer keeps.
    const bare = await bareFetchPerSecond(chain.entry.rpcUrl, chain.entry.programId);
    emit("solana_backfill_bare_rpc_fetch_per_second", bare, "tx/s");
    emit("solana_backfill_ratio_to_bare_rpc", eventsPerSecond / bare, "ratio");
  } finally {
    await chain.stop();
    await database.close();
  }
}

async function bareFetchPerSecond(rpcUrl: string, programId: string): Promise<number> {
  const rpc = solanaRpc(rpcUrl);
  const signatures: string[] = [];
  let before: string | undefined;
  for (;;) {
    const page = await rpc<{ signature: string }[]>("getSignaturesForAddress", [
      programId,
      { limit: 1000, commitment: "confirmed", ...(before ? { before } : {}) },
    ]);
    signatures.push(...page.map((entry) => entry.signature));
    if (page.length < 1000) break;
    before = page.at(-1)?.signature;
  }
  const started = performance.now();
  for (let start = 0; start < signatures.length; start += 25) {
    await Promise.all(
      signatures
        .slice(start, start + 25)
        .map((signature) =>
          rpc("getTransaction", [
            signature,
            { commitment: "confirmed", encoding: "json", maxSupportedTransactionVersion: 0 },
          ]),
        ),
    );
  }
  return signatures.length / ((performance.now() - started) / 1000);
}

export async function run(emit: Emit): Promise<void> {
  await evmLatency(emit);
  await evmBackfill(emit);
  await solana(emit);
  await stopSharedEmbeddedServer();
}
