// The EVM indexer end to end: a Hardhat node with the registry, the Ponder app started by startEvmIndexer,
// and the API's read model checked against what the chain did. One Ponder process serves the whole suite
// (restarted only by the crash test).
import { expect } from "chai";
import { foldedHash, foldV1 } from "../../core/fold";
import type { EvmIndexer } from "../../indexer/evm/run";
import { createTestDatabase, freePort, type TestDatabase } from "../support/testDatabase";
import { type HardhatChain, ONE_DAY, startHardhatChain } from "./support/hardhatChain";
import { closeIndexerDatabase, startTestEvmIndexer } from "./support/ponderIndexer";
import { mirrorRows, waitFor } from "./support/readModel";

const CHAIN = "hardhat";

describe("EVM indexer (Ponder) on a local Hardhat chain", function () {
  this.timeout(120_000);
  let database: TestDatabase;
  let chain: HardhatChain;
  let indexer: EvmIndexer;
  const deploymentSchema = `evm_test_${Date.now().toString(36)}`;
  let ponderPort: number;
  // `npm start` runs the indexer in the API's process, where PORT is the API's port.
  let apiPort: number;

  const start = async () => {
    ponderPort = await freePort();
    indexer = await startTestEvmIndexer(database, chain.manifestPath, deploymentSchema, {
      port: ponderPort,
      restartOnExit: false,
      // As the entry points do: the starting process's PORT (the API's) must still not reach Ponder.
      environment: process.env,
    });
    await indexer.ready;
  };

  before(async () => {
    [database, chain] = await Promise.all([createTestDatabase(), startHardhatChain(CHAIN)]);
    apiPort = await freePort();
    const previousPort = process.env.PORT;
    process.env.PORT = String(apiPort);
    try {
      await start();
    } finally {
      if (previousPort === undefined) delete process.env.PORT;
      else process.env.PORT = previousPort;
    }
  });

  it("serves Ponder on its own port, not on the PORT of the process that starts it", async () => {
    expect((await fetch(`http://127.0.0.1:${ponderPort}/health`)).status).to.equal(200);
    const apiPortTaken = await fetch(`http://127.0.0.1:${apiPort}/health`).then(
      () => true,
      () => false,
    );
    expect(apiPortTaken, "the API's port is left free").to.equal(false);
  });

  after(async () => {
    await indexer?.stop();
    await chain?.stop();
    if (database) await closeIndexerDatabase(database, deploymentSchema);
  });

  it("mirrors a reservation with the folded strings, both hashes and a lowercase launcher", async () => {
    const wallet = chain.wallets[0];
    if (!wallet) throw new Error("no wallet");
    const { hash, blockNumber } = await chain.reserve(wallet, "Moon Dog", "mdog");
    const [row] = await waitFor(
      () => mirrorRows(database.pool, CHAIN),
      (rows) => rows.length === 1,
    );
    const block = await wallet.publicClient.getBlock({ blockNumber });
    expect(row).to.include({
      chain: CHAIN,
      normalized_name: foldV1("Moon Dog"),
      normalized_ticker: "MDOG",
      name_hash: foldedHash(foldV1("Moon Dog")),
      ticker_hash: foldedHash("MDOG"),
      launcher: wallet.walletClient.account.address.toLowerCase(),
      tx_hash: hash,
      block_number: blockNumber.toString(),
      duration_seconds: ONE_DAY,
    });
    expect(row?.reserved_at.getTime()).to.equal(Number(block.timestamp) * 1000);
    expect(row?.expires_at.getTime()).to.equal((Number(block.timestamp) + ONE_DAY) * 1000);
    expect(Number(row?.fee_paid)).to.be.greaterThan(0);
    expect(row?.partner_ref).to.match(/^0x[0-9a-f]{64}$/);
  });

  it("records the head and the indexed block with its time in chain_checkpoints", async () => {
    const head = await chain.wallets[0]?.publicClient.getBlockNumber({ cacheTime: 0 });
    const checkpoint = await waitFor(
      async () =>
        (await database.pool.query("SELECT * FROM chain_checkpoints WHERE chain = $1", [CHAIN])).rows[0],
      // Ponder's trigger records the indexed block in the transaction that indexed it, the monitor the head at
      // its next tick: either may arrive first.
      (row) =>
        row !== undefined &&
        BigInt(row.indexed_number ?? -1) >= (head ?? 0n) &&
        BigInt(row.head_number ?? -1) >= (head ?? 0n),
    );
    expect(checkpoint.family).to.equal("evm");
    expect(checkpoint.indexed_block_time).to.be.instanceOf(Date);
    expect(checkpoint.head_seen_at).to.be.instanceOf(Date);
  });

  it("reflects a renewal in the last 12 hours: later expiry, whole window and summed fees", async () => {
    const wallet = chain.wallets[0];
    if (!wallet) throw new Error("no wallet");
    const [before] = await mirrorRows(database.pool, CHAIN);
    await chain.increaseTime(ONE_DAY - 6 * 3600);
    const { hash } = await chain.renew(wallet, "Moon Dog", "mdog");
    const [after] = await waitFor(
      () => mirrorRows(database.pool, CHAIN),
      (rows) => rows[0]?.tx_hash === hash,
    );
    expect(after?.expires_at.getTime()).to.equal((before?.expires_at.getTime() ?? 0) + ONE_DAY * 1000);
    expect(after?.reserved_at.getTime()).to.equal(before?.reserved_at.getTime());
    expect(after?.duration_seconds).to.equal(2 * ONE_DAY);
    expect(BigInt(after?.fee_paid ?? 0)).to.equal(2n * BigInt(before?.fee_paid ?? 0));
    const renewals = await database.pool.query(`SELECT * FROM "${database.schema}_views".renewal`);
    expect(renewals.rows).to.have.length(1);
  });

  it("after expiry, a new holder's reservation replaces the record", async () => {
    const [holder, newcomer] = chain.wallets;
    if (!holder || !newcomer) throw new Error("no wallets");
    await chain.increaseTime(2 * ONE_DAY);
    const { hash } = await chain.reserve(newcomer, "moon-dog", "MDOG");
    const rows = await waitFor(
      () => mirrorRows(database.pool, CHAIN),
      (current) => current[0]?.tx_hash === hash,
    );
    expect(rows).to.have.length(1);
    expect(rows[0]?.launcher).to.equal(newcomer.walletClient.account.address.toLowerCase());
    expect(rows[0]?.duration_seconds).to.equal(ONE_DAY);
  });

  it("loses and duplicates nothing across a kill -9 of Ponder in the middle of a stream of reservations", async () => {
    const wallets = chain.wallets.slice(2, 12);
    const names = wallets.flatMap((_, w) => [0, 1].map((i) => `crash w${w} n${i}`));
    const stream = (async () => {
      for (const [index, name] of names.entries()) {
        await chain.reserve(wallets[index % wallets.length] as (typeof wallets)[number], name, "CRSH");
      }
    })();
    await waitFor(
      () => mirrorRows(database.pool, CHAIN),
      (rows) => rows.some((row) => row.normalized_name.startsWith("CRASHW")),
    );
    indexer.kill("SIGKILL");
    await stream;
    await start();
    const rows = await waitFor(
      () => mirrorRows(database.pool, CHAIN),
      (current) => current.filter((row) => row.normalized_ticker === "CRSH").length >= names.length,
    );
    const crashed = rows.filter((row) => row.normalized_ticker === "CRSH").map((row) => row.normalized_name);
    expect(crashed.sort()).to.deep.equal(names.map((name) => foldV1(name)).sort());
  });

  it("follows a reorg: a block replaced at the same height leaves the mirror equal to the canonical chain", async () => {
    const [first, second] = chain.wallets.slice(12, 14);
    if (!first || !second) throw new Error("no wallets");
    // Both commit before the snapshot: the reorg replaces one block, a reveal by another.
    const orphanCommitted = await chain.commit(first, "orphaned pair", "ORPH");
    const canonicalCommitted = await chain.commit(second, "canonical pair", "CANO");
    const snapshot = await chain.rpc<string>("evm_snapshot");
    const orphan = await orphanCommitted.reveal();
    await waitFor(
      () => mirrorRows(database.pool, CHAIN),
      (rows) => rows.some((row) => row.tx_hash === orphan.hash),
    );
    await chain.rpc("evm_revert", [snapshot]);
    const canonical = await canonicalCommitted.reveal();
    expect(canonical.blockNumber).to.equal(orphan.blockNumber);
    await chain.rpc("hardhat_mine", ["0x3"]);
    const rows = await waitFor(
      () => mirrorRows(database.pool, CHAIN),
      (current) =>
        current.some((row) => row.tx_hash === canonical.hash) &&
        !current.some((row) => row.tx_hash === orphan.hash),
    );
    expect(rows.map((row) => row.normalized_ticker)).to.not.include("ORPH");
  });

  it("leaves the session of the API's connections as it was (on the embedded database they share one)", async () => {
    const { rows } = await database.pool.query(
      "SELECT current_setting('search_path') AS search_path, current_setting('transaction_read_only') AS read_only",
    );
    expect(rows[0].read_only).to.equal("off");
    expect(rows[0].search_path).to.include(database.schema);
    await database.pool.query(
      "INSERT INTO chain_histories (chain, history_id) VALUES ('session-probe', 'x')",
    );
    await database.pool.query("DELETE FROM chain_histories WHERE chain = 'session-probe'");
  });
});
