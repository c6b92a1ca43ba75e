// The EVM indexer role recovers by itself: its database cut for several checkpoint-monitor ticks (Ponder and the
// monitor both connect through a fault proxy, test/support/faultProxy.ts), then a Ponder process that exits,
// and each time a reservation made afterwards reaches the mirror with no restart of the role. One test: every
// Ponder start costs seconds.
import type { EvmIndexer } from "../../indexer/evm/run";
import { type Database, openDatabase } from "../../storage/database";
import { type FaultProxy, startFaultProxy } from "../support/faultProxy";
import { createTestDatabase, type TestDatabase } from "../support/testDatabase";
import { type HardhatChain, startHardhatChain } from "./support/hardhatChain";
import { closeIndexerDatabase, startTestEvmIndexer } from "./support/ponderIndexer";
import { awaitMirrored, waitFor } from "./support/readModel";

const CHAIN = "hardhat-supervised";

describe("EVM indexer supervision: database cut and Ponder exits", function () {
  this.timeout(240_000);
  let database: TestDatabase;
  let chain: HardhatChain;
  let databaseProxy: FaultProxy;
  /** The runner's own pool, connected through `databaseProxy`. */
  let proxied: Database;
  let indexer: EvmIndexer | undefined;
  const deploymentSchema = `evm_sup_${Date.now().toString(36)}`;
  const lines: string[] = [];

  before(async () => {
    [database, chain] = await Promise.all([createTestDatabase(), startHardhatChain(CHAIN)]);
    const { hostname, port } = new URL(database.url);
    databaseProxy = await startFaultProxy({ host: hostname, port: Number(port) });
    proxied = await openDatabase({
      kind: "postgres",
      url: databaseProxy.urlThrough(database.url),
      schema: database.schema,
    });
  });

  after(async () => {
    databaseProxy?.restore();
    await indexer?.stop();
    await proxied?.close();
    await databaseProxy?.close();
    await chain?.stop();
    if (database) await closeIndexerDatabase(database, deploymentSchema);
  });

  const logged = (pattern: RegExp) => lines.some((line) => pattern.test(line));
  /** A reservation made now reaches the mirror, and the checkpoint reaches its block. */
  const reservationIsMirrored = async (name: string) => {
    const wallet = chain.wallets[lines.length % chain.wallets.length];
    if (!wallet) throw new Error("no wallet");
    await awaitMirrored(database.pool, CHAIN, await chain.reserve(wallet, name, "SUPV"));
  };

  it("resumes the checkpoint monitor after a database cut and restarts Ponder when it exits", async () => {
    indexer = await startTestEvmIndexer(database, chain.manifestPath, deploymentSchema, {
      databaseUrl: databaseProxy.urlThrough(database.url),
      pool: proxied.pool,
      backoff: { maxDelayMs: 300 },
      restartBackoff: { initialDelayMs: 200, maxDelayMs: 500 },
      log: (line) => lines.push(line),
    });
    await indexer.ready;
    await reservationIsMirrored("before the cut");

    databaseProxy.cut();
    await waitFor(
      async () => logged(/^EVM checkpoint monitor failed \(attempt 3\), retrying in \d+ ms: /),
      (done) => done,
    );
    databaseProxy.restore();
    await reservationIsMirrored("after the cut");
    // Ponder's own transactions move the indexed block, so the monitor may resume a moment after the mirror.
    await waitFor(
      async () => logged(/^EVM checkpoint monitor resumed after \d+ failed attempts$/),
      (done) => done,
    );

    indexer.kill("SIGKILL");
    await waitFor(
      async () => logged(/^Ponder failed \(attempt \d+\), retrying in \d+ ms: exited \(SIGKILL\)$/),
      (done) => done,
    );
    await reservationIsMirrored("after the exit");
  });
});
