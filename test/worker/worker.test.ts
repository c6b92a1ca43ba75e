// The worker loop on the test database: it reconciles on its own, survives a failing pass, and stops cleanly.
import { expect } from "chai";
import { startWorker, type Worker } from "../../worker";
import {
  clearTables,
  current,
  DAY,
  EVM_LAUNCHER,
  mirrorHold,
  prepare,
  seconds,
} from "../services/reservations/support";
import { createTestDatabase, type TestDatabase } from "../support/testDatabase";

async function until(condition: () => Promise<boolean>, what: string): Promise<void> {
  for (let attempt = 0; attempt < 500; attempt++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`gave up waiting: ${what}`);
}

describe("reservations: worker", function () {
  this.timeout(60_000);
  let db: TestDatabase;
  let worker: Worker | undefined;
  const lines: string[] = [];

  before(async () => {
    db = await createTestDatabase();
  });
  after(async () => {
    await worker?.stop();
    await db?.close();
  });
  beforeEach(async () => {
    await clearTables(db.pool);
    lines.length = 0;
  });
  afterEach(async () => {
    await worker?.stop();
    worker = undefined;
  });

  const settledPrepare = async (ticker: string, t0: Date) => {
    const reservation = await prepare(db.pool, { preparedAt: t0, ticker });
    await mirrorHold(db.pool, reservation, {
      launcher: EVM_LAUNCHER,
      reservedAt: seconds(t0, 10),
      expiresAt: seconds(t0, 10 + DAY),
      durationSeconds: DAY,
      feePaid: 42n,
      partnerRef: reservation.partnerRef,
      txHash: `0x${"ab".repeat(32)}`,
    });
    return reservation;
  };

  const start = () =>
    startWorker({
      pool: db.pool,
      registries: { production: new Map(), sandbox: new Map() },
      intervalMs: 20,
      log: (line) => lines.push(line),
    });

  it("confirms a settled prepare on its own and logs what each pass changed", async () => {
    const reservation = await settledPrepare("LOOP", new Date(Date.now() - 60_000));
    worker = start();

    await until(async () => (await current(db.pool, reservation)).status === "confirmed", "confirmation");
    await until(async () => lines.includes("reconcile: confirmed 1"), "log line");
  });

  it("logs a failing pass and keeps going; stop() ends the loop", async () => {
    await db.pool.query("ALTER TABLE chain_checkpoints RENAME TO chain_checkpoints_away");
    worker = start();
    await until(async () => lines.some((line) => line.startsWith("reconcile pass failed")), "failure line");
    const reservation = await settledPrepare("AGAIN", new Date(Date.now() - 60_000));
    await db.pool.query("ALTER TABLE chain_checkpoints_away RENAME TO chain_checkpoints");

    await until(async () => (await current(db.pool, reservation)).status === "confirmed", "recovery");

    await worker.stop();
    const late = await settledPrepare("LATE", new Date(Date.now() - 60_000));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await current(db.pool, late)).status).to.equal("pending_payment");
  });
});
