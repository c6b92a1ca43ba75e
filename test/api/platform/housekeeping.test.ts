// The API's per-minute housekeeping (pruning finished rate windows and expired idempotency records) survives a
// database outage: a tick that fails is logged, and the next minute's tick runs and prunes once the database is
// back. The API's pool goes through a fault proxy (test/support/faultProxy.ts).
import { expect } from "chai";
import { createApp } from "../../../api/app";
import { listen, type RunningServer } from "../../../api/server";
import { type Database, openDatabase } from "../../../storage/database";
import { type FaultProxy, startFaultProxy } from "../../support/faultProxy";
import { memoryLogger } from "../../support/logs";
import { createTestDatabase, type TestDatabase } from "../../support/testDatabase";
import { TEST_HOSTS } from "../support/harness";

const MINUTE = 60_000;

describe("API housekeeping across a database outage", () => {
  let database: TestDatabase;
  let proxy: FaultProxy;
  let proxied: Database;
  let server: RunningServer;
  // One minute past a tenth minute: the first test's ticks never start the request log's retention run.
  let clock = Math.floor(Date.now() / (10 * MINUTE)) * 10 * MINUTE + MINUTE;
  const logs = memoryLogger("info");

  before(async () => {
    database = await createTestDatabase();
    const { hostname, port } = new URL(database.url);
    proxy = await startFaultProxy({ host: hostname, port: Number(port) });
    proxied = await openDatabase({
      kind: "postgres",
      url: proxy.urlThrough(database.url),
      schema: database.schema,
    });
    const app = createApp({
      pool: proxied.pool,
      startedAt: new Date(),
      log: logs.log,
      hosts: TEST_HOSTS,
      now: () => clock,
    });
    server = await listen(app, "127.0.0.1", 0);
  });
  after(async () => {
    proxy?.restore();
    await server?.close();
    await proxied?.close();
    await proxy?.close();
    await database?.close();
  });

  const request = () => fetch(`${server.url}/api/no-such-route`, { headers: { host: TEST_HOSTS.base[0] } });
  const finishedWindows = async () =>
    (await database.pool.query("SELECT count(*)::int AS n FROM rate_limit_windows")).rows[0].n as number;
  const until = async (condition: () => Promise<boolean> | boolean, what: string) => {
    for (let attempt = 0; attempt < 500; attempt++) {
      if (await condition()) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`gave up waiting: ${what}`);
  };

  it("logs a failed tick and prunes on the next minute's tick once the database is back", async () => {
    await database.pool.query(
      "INSERT INTO rate_limit_windows (subject, window_start, request_count) VALUES ('old', to_timestamp(0), 1)",
    );
    proxy.cut();
    await request();
    await until(
      () => logs.messages().some((line) => line.startsWith("housekeeping failed")),
      "the failure logged",
    );

    proxy.restore();
    clock += MINUTE;
    await request();
    await until(async () => (await finishedWindows()) === 0, "the next tick's pruning");
    expect(logs.messages().filter((line) => line.startsWith("housekeeping failed"))).to.have.length(1);
  });

  it("runs one tick at a time: while the database is frozen, later minutes take no more connections", async () => {
    const busy = () => proxied.pool.totalCount - proxied.pool.idleCount;
    await until(() => busy() === 0, "the pool settled");
    proxy.freeze();
    clock += MINUTE;
    await Promise.race([request(), new Promise((resolve) => setTimeout(resolve, 200))]);
    await until(() => busy() >= 1, "the frozen tick holding its connections");
    const heldByOneTick = busy();
    for (let minute = 0; minute < 3; minute += 1) {
      clock += MINUTE;
      await Promise.race([request(), new Promise((resolve) => setTimeout(resolve, 100))]);
    }
    expect(busy()).to.equal(heldByOneTick);
    // The request log's retention run (every tenth minute) is one at a time too: one more connection, once.
    for (let step = 0; step < 3; step += 1) {
      clock = (Math.floor(clock / (10 * MINUTE)) + 1) * 10 * MINUTE;
      await Promise.race([request(), new Promise((resolve) => setTimeout(resolve, 100))]);
    }
    await until(() => busy() === heldByOneTick + 1, "the frozen retention run holding its connection");
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(busy()).to.equal(heldByOneTick + 1);
    proxy.restore();
    await until(() => busy() === 0, "the tick finished once the database thawed");
  });
});
