// The fault proxy the resilience tests rely on: a real Postgres behind it answers, stops answering when cut
// or frozen, and answers again once restored.
import { expect } from "chai";
import pg from "pg";
import { type FaultProxy, startFaultProxy } from "./faultProxy";
import { createTestDatabase, type TestDatabase } from "./testDatabase";

describe("fault proxy in front of the test database", () => {
  let database: TestDatabase;
  let proxy: FaultProxy;
  let pool: pg.Pool;

  before(async () => {
    database = await createTestDatabase();
    const target = new URL(database.url);
    proxy = await startFaultProxy({ host: target.hostname, port: Number(target.port || 5432) });
    pool = new pg.Pool({ connectionString: proxy.urlThrough(database.url), max: 2 });
  });

  after(async () => {
    await pool?.end().catch(() => undefined);
    await proxy?.close();
    await database?.close();
  });

  it("passes queries, refuses them while cut, and passes again once restored", async () => {
    expect((await pool.query("SELECT 1 AS one")).rows[0].one).to.equal(1);
    proxy.cut();
    const refused = await pool.query("SELECT 1").then(
      () => "answered",
      () => "refused",
    );
    expect(refused).to.equal("refused");
    proxy.restore();
    expect((await pool.query("SELECT 2 AS two")).rows[0].two).to.equal(2);
  });

  it("holds a query while frozen and lets it finish once restored", async () => {
    await pool.query("SELECT 1");
    proxy.freeze();
    let settled = false;
    const pending = pool.query("SELECT 3 AS three").finally(() => {
      settled = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(settled).to.equal(false);
    proxy.restore();
    expect((await pending).rows[0].three).to.equal(3);
  });
});
