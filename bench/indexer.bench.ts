// Indexer speed through the API's read model: mined-to-visible latency p50/p90 per chain (time from the
// transaction's confirmation at the client to its row in chain_reservations), and Solana backfill
// throughput for 5,000 reservations. The EVM part runs Ponder, which needs Postgres: set DATABASE_URL.

import type { Pool } from "pg";
import { startEvmIndexer } from "../indexer/evm/run";
import { startSolanaIndexer } from "../indexer/solana";
import { startHardhatChain } from "../test/indexer/support/hardhatChain";
import { startSolanaTestChain } from "../test/indexer/support/solanaChain";
import { createTestDatabase, freePort, stopSharedEmbeddedServer } from "../test/support/testDatabase";
import type { Emit } from "./run";

const LATENCY_SAMPLES = 30;
const BACKFILL_RESERVATIONS = 5_000;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function visibleAfter(pool: Pool, txHash: string, since: number): Promise<number> {
  for (;;) {
    const { rowCount } = await pool.query("SELECT 1 FROM chain_reservations WHERE tx_hash = $1", [txHash]);
    if (rowCount) return performance.now() - since;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function evmLatency(emit: Emit): Promise<void> {
  if (!process.env.DATABASE_URL) {
    console.error("indexer bench: EVM part skipped, Ponder needs Postgres (set DATABASE_URL).");
    return;
  }
  const [database, chain] = await Promise.all([createTestDatabase(), startHardhatChain()]);
  const deploymentSchema = `evm_bench_${Date.now().toString(36)}`;
  const indexer = await startEvmIndexer({
    databaseUrl: database.url,
    pool: database.pool,
    manifestPath: chain.manifestPath,
    mirrorSchema: database.schema,
    viewsSchema: `${database.schema}_views`,
    deploymentSchema,
    port: await freePort(),
    pollingIntervalMs: 100,
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
    }
    samples.sort((a, b) => a - b);
    emit("evm_mined_to_visible_p50", percentile(samples, 50), "ms");
    emit("evm_mined_to_visible_p90", percentile(samples, 90), "ms");
  } finally {
    await indexer.stop();
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
    emit("solana_mined_to_visible_p50", percentile(samples, 50), "ms");
    emit("solana_mined_to_visible_p90", percentile(samples, 90), "ms");

    console.error(`indexer bench: sending ${BACKFILL_RESERVATIONS} Solana reservations for the backfill...`);
    for (let i = 0; i < BACKFILL_RESERVATIONS; i++) {
      if (i % 3 === 0) launcher = chain.newLauncher();
      await chain.reserve(launcher, `backfill ${i}`, "BKF");
      if (i % 1000 === 999) await chain.refreshPrice();
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
    emit("solana_backfill_events_per_second", rows[0].n / seconds, "events/s");
  } finally {
    await chain.stop();
    await database.close();
  }
}

export async function run(emit: Emit): Promise<void> {
  await evmLatency(emit);
  await solana(emit);
  await stopSharedEmbeddedServer();
}
