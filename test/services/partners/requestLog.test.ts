// The request log recorder on a real database: one statement writes a whole batch (log lines and daily counts);
// while the table is locked (a slow database) the bounded queue drops and counts instead of growing or
// blocking, and writes the kept entries (and the usage of all of them) once the lock is gone; housekeeping
// keeps 1,000 lines per key within 7 days and 30 days of counts.
import { expect } from "chai";
import {
  pruneRequestLog,
  type RequestLogEntry,
  recentRequests,
  requestRecorder,
  usageOf,
} from "../../../services/partners/requestLog";
import { createTestDatabase, type TestDatabase } from "../../support/testDatabase";

const DAY_MS = 86_400_000;

function entry(keyId: string, index: number, at = new Date()): RequestLogEntry {
  return {
    keyId,
    partnerId: `ptn_${keyId}`,
    method: "GET",
    path: `/api/v1/sandbox/keys`,
    route: "GET /v1/sandbox/keys",
    status: index % 10 === 9 ? 429 : 200,
    latencyMs: 1.4,
    requestId: `req_${index.toString(16).padStart(16, "0")}`,
    at,
  };
}

describe("partners: request log recorder", function () {
  this.timeout(30_000);
  let db: TestDatabase;
  before(async () => {
    db = await createTestDatabase();
  });
  after(async () => {
    await db.close();
  });

  it("writes concurrent entries in batches: lines per key and counts per day and route", async () => {
    const statements: string[] = [];
    const watched = new Proxy(db.pool, {
      get(target, property, receiver) {
        if (property === "query") {
          return (text: string, values: unknown[]) => {
            statements.push(text);
            return target.query(text, values);
          };
        }
        return Reflect.get(target, property, receiver);
      },
    });
    const recorder = requestRecorder(watched, () => undefined);
    for (let index = 0; index < 100; index += 1) recorder.record(entry("key_batch", index));
    await recorder.drain();
    expect(statements.length, "one statement per batch, not per request").to.be.at.most(2);
    expect(await recentRequests(db.pool, "key_batch", 1000)).to.have.length(100);
    const usage = await usageOf(db.pool, "key_batch", 1, Date.now());
    expect(usage).to.deep.equal([
      {
        day: new Date().toISOString().slice(0, 10),
        route: "GET /v1/sandbox/keys",
        requests: 100,
        rateLimited: 10,
      },
    ]);
  });

  it("drops and counts entries beyond its bound while the database is stuck, then writes the kept ones", async () => {
    const lines: string[] = [];
    const recorder = requestRecorder(db.pool, (line) => lines.push(line), { maxQueue: 5, maxBatch: 500 });
    const locker = await db.pool.connect();
    try {
      await locker.query("BEGIN");
      await locker.query("LOCK TABLE api_request_log IN ACCESS EXCLUSIVE MODE");
      for (let index = 0; index < 20; index += 1) recorder.record(entry("key_stuck", index));
      expect(recorder.lost()).to.deep.equal({ dropped: 15, failed: 0 });
    } finally {
      await locker.query("ROLLBACK");
      locker.release();
    }
    await recorder.drain();
    expect(await recentRequests(db.pool, "key_stuck", 1000)).to.have.length(5);
    const [counted] = await usageOf(db.pool, "key_stuck", 1, Date.now());
    expect(counted?.requests, "a dropped line is still counted").to.equal(20);
    expect(lines).to.deep.equal(["request log: queue full (5), 1 entries dropped so far"]);
  });

  it("keeps each key's last 1,000 lines within 7 days, and 30 days of counts", async () => {
    const now = Date.now();
    const recorder = requestRecorder(db.pool, () => undefined);
    for (let index = 0; index < 1005; index += 1) recorder.record(entry("key_busy", index));
    recorder.record(entry("key_old", 1, new Date(now - 8 * DAY_MS)));
    recorder.record(entry("key_old", 2, new Date(now - DAY_MS)));
    recorder.record(entry("key_old", 3, new Date(now - 31 * DAY_MS)));
    await recorder.drain();
    await pruneRequestLog(db.pool, now);
    const busy = await recentRequests(db.pool, "key_busy", 1000);
    expect(busy).to.have.length(1000);
    expect(busy[0]?.requestId).to.equal(entry("key_busy", 1004).requestId);
    expect(busy.at(-1)?.requestId).to.equal(entry("key_busy", 5).requestId);
    const old = await recentRequests(db.pool, "key_old", 1000);
    expect(old.map((line) => line.requestId)).to.deep.equal([entry("key_old", 2).requestId]);
    const counts = await usageOf(db.pool, "key_old", 60, now);
    expect(counts.map((row) => row.day)).to.deep.equal([
      new Date(now - DAY_MS).toISOString().slice(0, 10),
      new Date(now - 8 * DAY_MS).toISOString().slice(0, 10),
    ]);
  });
});
