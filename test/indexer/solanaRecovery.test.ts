// The Solana indexer recovers by itself, without a restart, when its database or its RPC goes away for
// several passes and comes back, and when either is down as it starts: a fault proxy (test/support/
// faultProxy.ts) cuts the real connection, then a reservation made on the local chain must reach the mirror
// and the checkpoint must advance.
import { expect } from "chai";
import { type SolanaIndexer, startSolanaIndexer } from "../../indexer/solana";
import { type Database, openDatabase } from "../../storage/database";
import { type FaultProxy, startFaultProxy } from "../support/faultProxy";
import { createTestDatabase, type TestDatabase } from "../support/testDatabase";
import { indexedNumber, mirrorRows, waitFor } from "./support/readModel";
import { type SolanaTestChain, startSolanaTestChain } from "./support/solanaChain";

const CHAIN = "solana-recovery";
const FAST_RETRY = { attempts: 3, initialDelayMs: 20, maxDelayMs: 50, timeoutMs: 500 };

const proxyTo = (url: string) => {
  const { hostname, port } = new URL(url);
  return startFaultProxy({ host: hostname, port: Number(port) });
};

describe("Solana indexer recovery after its database or RPC comes back", function () {
  this.timeout(120_000);
  let database: TestDatabase;
  let chain: SolanaTestChain;
  let databaseProxy: FaultProxy;
  let rpcProxy: FaultProxy;
  /** The indexer's own pool, connected through `databaseProxy`. */
  let proxied: Database;
  let indexer: SolanaIndexer | undefined;
  let lines: string[] = [];

  before(async () => {
    [database, chain] = await Promise.all([createTestDatabase(), startSolanaTestChain(CHAIN)]);
    [databaseProxy, rpcProxy] = await Promise.all([proxyTo(database.url), proxyTo(chain.entry.rpcUrl)]);
    proxied = await openDatabase({
      kind: "postgres",
      url: databaseProxy.urlThrough(database.url),
      schema: database.schema,
    });
  });

  afterEach(async () => {
    databaseProxy.restore();
    rpcProxy.restore();
    await indexer?.stop();
    indexer = undefined;
    lines = [];
  });

  after(async () => {
    await proxied?.close();
    await Promise.all([databaseProxy?.close(), rpcProxy?.close()]);
    await chain?.stop();
    await database?.close();
  });

  const start = () =>
    startSolanaIndexer({
      pool: proxied.pool,
      manifestEntry: { ...chain.entry, rpcUrl: rpcProxy.urlThrough(chain.entry.rpcUrl) },
      commitment: "confirmed",
      pollIntervalMs: 100,
      retry: FAST_RETRY,
      backoff: { maxDelayMs: 300 },
      log: (line) => lines.push(line),
    });

  const indexedSlot = async () => Number(await indexedNumber(database.pool, CHAIN));

  /** Waits until a pass has failed, then long enough for several more to fail (a condition, not a timing). */
  const throughSeveralFailedPasses = async () => {
    await waitFor(
      async () => lines.filter((line) => /failed/i.test(line)).length,
      (count) => count > 0,
    );
    await new Promise((resolve) => setTimeout(resolve, 1_500));
  };

  /** A reservation made after the fault reaches the mirror and the checkpoint moves past `slotBefore`. */
  const recovers = async (slotBefore: number, name: string) => {
    const signature = await chain.reserve(chain.newLauncher(), name, "RCVR");
    await waitFor(
      () => mirrorRows(database.pool, CHAIN),
      (rows) => rows.some((row) => row.tx_hash === signature),
    );
    expect(await waitFor(indexedSlot, (slot) => slot > slotBefore)).to.be.greaterThan(slotBefore);
  };

  it("resumes after the database is cut for several passes, logging each failure and the recovery", async () => {
    indexer = await start();
    await indexer.caughtUp;
    const slotBefore = await indexedSlot();

    databaseProxy.cut();
    await throughSeveralFailedPasses();
    databaseProxy.restore();
    await recovers(slotBefore, "after database cut");

    const failures = lines.filter((line) => line.includes("failed (attempt"));
    expect(failures.length).to.be.at.least(2);
    expect(failures[0]).to.match(
      /^Solana indexer pass \(solana-recovery\) failed \(attempt 1\), retrying in \d+ ms: /,
    );
    // The pass that wrote the rows logs its recovery once it returns, which may be after they are visible.
    const resumed = (line: string) => /resumed after \d+ failed attempts?$/.test(line);
    expect(
      await waitFor(
        async () => lines.some(resumed),
        (found) => found,
      ),
    ).to.equal(true);
  });

  it("resumes after the RPC is cut for several passes", async () => {
    indexer = await start();
    await indexer.caughtUp;
    const slotBefore = await indexedSlot();

    rpcProxy.cut();
    await throughSeveralFailedPasses();
    rpcProxy.restore();
    await recovers(slotBefore, "after rpc cut");
    expect(lines.some((line) => line.includes("the Solana RPC stayed unavailable"))).to.equal(true);
  });

  it("starts while its database and RPC are down, and catches up once they are back", async () => {
    databaseProxy.cut();
    rpcProxy.cut();
    const slotBefore = await indexedSlot();
    indexer = await start();
    let caughtUp = false;
    void indexer.caughtUp.then(() => {
      caughtUp = true;
    });
    await throughSeveralFailedPasses();
    expect(caughtUp, "caught up while everything was down").to.equal(false);

    databaseProxy.restore();
    rpcProxy.restore();
    await indexer.caughtUp;
    await recovers(slotBefore, "after start down");
  });

  it("rejects caughtUp when stopped before its first complete pass", async () => {
    rpcProxy.cut();
    indexer = await start();
    await indexer.stop();
    const outcome = await indexer.caughtUp.then(
      () => "resolved",
      (error: Error) => error.message,
    );
    indexer = undefined;
    expect(outcome).to.match(/stopped before it caught up/);
  });
});
