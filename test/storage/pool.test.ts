// The service's pool classifies errors as they enter the service: an unreachable, lost or frozen database
// becomes a DatabaseUnavailableError that keeps node-postgres's error as its cause; SQL errors pass untouched.
import { expect } from "chai";
import type { Pool } from "pg";
import { createPool } from "../../storage/pool";
import { DatabaseUnavailableError, isDatabaseUnavailable } from "../../storage/unavailable";
import { type FaultProxy, startFaultProxy } from "../support/faultProxy";
import { createTestDatabase, type TestDatabase } from "../support/testDatabase";

describe("storage: the service's pool classifies database failures by type", () => {
  let database: TestDatabase;
  let proxy: FaultProxy;
  let pool: Pool;

  before(async () => {
    database = await createTestDatabase();
    const target = new URL(database.url);
    proxy = await startFaultProxy({ host: target.hostname, port: Number(target.port || 5432) });
    pool = createPool({ connectionString: proxy.urlThrough(database.url), max: 2, query_timeout: 500 });
  });

  afterEach(() => proxy.restore());

  after(async () => {
    await pool?.end().catch(() => undefined);
    await proxy?.close();
    await database?.close();
  });

  const failureOf = (work: Promise<unknown>) =>
    work.then(
      () => undefined,
      (error: unknown) => error,
    );

  it("passes a SQL error through as node-postgres reported it (not a database outage)", async () => {
    const error = (await failureOf(pool.query("SELEC 1"))) as { code?: string };
    expect(error).to.not.be.instanceOf(DatabaseUnavailableError);
    expect(error.code).to.equal("42601");
    expect(isDatabaseUnavailable(error)).to.equal(false);
  });

  it("turns a refused connection into DatabaseUnavailableError, keeping the cause", async () => {
    await pool.query("SELECT 1");
    proxy.cut();
    const error = await failureOf(pool.query("SELECT 1"));
    expect(error).to.be.instanceOf(DatabaseUnavailableError);
    expect((error as DatabaseUnavailableError).reason).to.equal("unreachable");
    expect((error as Error).cause).to.be.instanceOf(Error);
    expect(isDatabaseUnavailable(error)).to.equal(true);
  });

  it("turns a query on a checked-out client that times out on a frozen database into reason timeout", async () => {
    const client = await pool.connect();
    try {
      proxy.freeze();
      const error = await failureOf(client.query("SELECT 1"));
      expect(error).to.be.instanceOf(DatabaseUnavailableError);
      expect((error as DatabaseUnavailableError).reason).to.equal("timeout");
    } finally {
      client.release(true);
    }
  });

  it("answers again once the database is back", async () => {
    expect((await pool.query("SELECT 2 AS two")).rows[0].two).to.equal(2);
  });
});
