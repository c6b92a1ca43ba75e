// The worker loop recovers by itself when its database or a chain's RPC goes away and comes back: a fault
// proxy (test/support/faultProxy.ts) cuts the real connection to Postgres or to a Hardhat node, and the
// reservations waiting on either move on once it is back, with no restart.
import { expect } from "chai";
import { registryCatalogue } from "../../chains/catalogue";
import { readManifest } from "../../config/manifest";
import { type Database, openDatabase } from "../../storage/database";
import { startWorker, type Worker } from "../../worker";
import { type HardhatChain, startHardhatChain } from "../indexer/support/hardhatChain";
import {
  checkpoint,
  clearTables,
  current,
  DAY,
  mirrorHold,
  prepare,
  seconds,
  submit,
} from "../services/reservations/support";
import { type FaultProxy, startFaultProxy } from "../support/faultProxy";
import { createTestDatabase, type TestDatabase } from "../support/testDatabase";

const CHAIN = "hardhat";

async function until(condition: () => Promise<boolean>, what: string): Promise<void> {
  for (let attempt = 0; attempt < 1_000; attempt++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`gave up waiting: ${what}`);
}

const proxyTo = (url: string) => {
  const { hostname, port } = new URL(url);
  return startFaultProxy({ host: hostname, port: Number(port) });
};

describe("reservations: worker recovery after its database or a chain RPC comes back", function () {
  this.timeout(120_000);
  let db: TestDatabase;
  let chain: HardhatChain;
  let databaseProxy: FaultProxy;
  let rpcProxy: FaultProxy;
  /** The worker's own pool, connected through `databaseProxy`. */
  let proxied: Database;
  let worker: Worker | undefined;
  const lines: string[] = [];

  before(async () => {
    [db, chain] = await Promise.all([createTestDatabase(), startHardhatChain(CHAIN)]);
    [databaseProxy, rpcProxy] = await Promise.all([proxyTo(db.url), proxyTo(chain.rpcUrl)]);
    proxied = await openDatabase({
      kind: "postgres",
      url: databaseProxy.urlThrough(db.url),
      schema: db.schema,
    });
  });
  beforeEach(async () => {
    await clearTables(db.pool);
    lines.length = 0;
  });
  afterEach(async () => {
    databaseProxy.restore();
    rpcProxy.restore();
    await worker?.stop();
    worker = undefined;
  });
  after(async () => {
    await proxied?.close();
    await Promise.all([databaseProxy?.close(), rpcProxy?.close()]);
    await chain?.stop();
    await db?.close();
  });

  const start = () => {
    const manifest = readManifest(chain.manifestPath);
    const throughProxy = {
      ...manifest,
      evm: manifest.evm.map((entry) => ({ ...entry, rpcUrl: rpcProxy.urlThrough(entry.rpcUrl) })),
    };
    return startWorker({
      pool: proxied.pool,
      registries: registryCatalogue(throughProxy, { timeoutMs: 1_000 }),
      intervalMs: 50,
      backoff: { maxDelayMs: 200 },
      log: (line) => lines.push(line),
    });
  };
  const logged = (pattern: RegExp) => async () => lines.some((line) => pattern.test(line));

  it("resumes after the database is cut for several passes, logging each failure and the recovery", async () => {
    worker = start();
    databaseProxy.cut();
    await until(logged(/^reconcile pass failed \(attempt 3\), retrying in \d+ ms: /), "three failed passes");
    const t0 = new Date(Date.now() - 60_000);
    const reservation = await prepare(db.pool, { preparedAt: t0, ticker: "BACK" });
    await mirrorHold(db.pool, reservation, {
      launcher: reservation.launcher,
      reservedAt: seconds(t0, 10),
      expiresAt: seconds(t0, 10 + DAY),
      durationSeconds: DAY,
      feePaid: 42n,
      partnerRef: reservation.partnerRef,
      txHash: `0x${"cd".repeat(32)}`,
    });
    expect((await current(db.pool, reservation)).status).to.equal("pending_payment");

    databaseProxy.restore();
    await until(async () => (await current(db.pool, reservation)).status === "confirmed", "confirmation");
    await until(logged(/^reconcile pass resumed after \d+ failed attempts$/), "recovery line");
  });

  it("decides a submitted transaction once the chain's RPC is back", async () => {
    const [wallet, payee] = chain.wallets;
    if (!wallet || !payee) throw new Error("no wallets");
    // A transfer succeeds without reserving anything: the reconciler fails it once the RPC says so.
    const hash = await wallet.walletClient.sendTransaction({
      to: payee.walletClient.account.address,
      value: 1n,
    });
    await wallet.publicClient.waitForTransactionReceipt({ hash });
    const reservation = await prepare(db.pool, {
      preparedAt: new Date(),
      chain: CHAIN,
      ticker: "RPCB",
      launcher: wallet.walletClient.account.address.toLowerCase(),
    });
    await submit(db.pool, reservation, hash, new Date());
    // The mirror is fresh well past the submission, so only the RPC's answer is missing.
    await checkpoint(db.pool, CHAIN, "evm", new Date(Date.now() + 60_000));

    rpcProxy.cut();
    worker = start();
    await until(logged(/^reconcile: chainUnavailable 1$/), "a pass that could not ask the chain");
    expect((await current(db.pool, reservation)).status).to.equal("submitted");

    rpcProxy.restore();
    await until(async () => (await current(db.pool, reservation)).status === "failed", "a decision");
    expect((await current(db.pool, reservation)).statusReason).to.match(/succeeded but made no reserve/);
  });
});
