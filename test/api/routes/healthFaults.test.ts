// GET /v1/health while the database is frozen (as a SIGSTOPped server) or cut (as a stopped one): a 503
// envelope within health's bound that says the database is down, no pile-up of pool connections behind the
// frozen server, and 200 again once the database is back.
import { expect } from "chai";
import type { Pool } from "pg";
import { quoteIdentifier } from "../../../storage/database";
import { createPool } from "../../../storage/pool";
import { type FaultProxy, startFaultProxy } from "../../support/faultProxy";
import { createTestDatabase, type TestDatabase } from "../../support/testDatabase";
import { expectEnvelope, startTestApi, type TestApi } from "../support/harness";

const HEALTH = { path: "/api/v1/health" };
const POOL_SIZE = 4;

describe("api: health while the database is frozen or cut", () => {
  let db: TestDatabase;
  let proxy: FaultProxy;
  let pool: Pool;
  let api: TestApi;

  before(async () => {
    db = await createTestDatabase();
    const target = new URL(db.url);
    proxy = await startFaultProxy({ host: target.hostname, port: Number(target.port || 5432) });
    pool = createPool({
      connectionString: proxy.urlThrough(db.url),
      options: `-c search_path=${quoteIdentifier(db.schema)}`,
      max: POOL_SIZE,
    });
    pool.on("error", () => undefined);
    api = await startTestApi({
      db: { ...db, pool },
      deps: { decisions: { chains: [], dataPathTimeoutMs: 500 } },
    });
    // One clock minute for the whole file: the once-a-minute housekeeping (rate windows, idempotency records)
    // then runs on the first, healthy request, and its statements never count among health's connections.
    api.clock.set(Date.UTC(2030, 0, 1, 0, 0, 10));
  });

  afterEach(() => proxy.restore());

  after(async () => {
    await api?.close();
    await pool?.end().catch(() => undefined);
    await proxy?.close();
    await db?.close();
  });

  async function expectHealthy(): Promise<void> {
    const response = await api.call(HEALTH);
    expect(response.status, response.text).to.equal(200);
    expect(response.body).to.nested.include({ "database.ok": true });
  }

  /** Waits until no statement holds a pool connection (the first request's housekeeping has finished). */
  async function poolSettled(): Promise<void> {
    for (let tries = 0; tries < 200 && pool.totalCount - pool.idleCount > 0; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(pool.totalCount - pool.idleCount, "connections busy before the freeze").to.equal(0);
  }

  it("frozen: 503 naming the database as down, one probe at a time, 200 once restored", async () => {
    await expectHealthy();
    await poolSettled();
    proxy.freeze();
    // Twice the pool's size, at once and then again: none may hang, and none may keep a connection.
    for (let round = 0; round < 2; round += 1) {
      const answers = await Promise.all(Array.from({ length: 2 * POOL_SIZE }, () => api.call(HEALTH)));
      for (const response of answers) {
        expectEnvelope(response, 503, "service_unavailable");
        expect((response.body as { error: { details: unknown } }).error.details).to.deep.equal({
          database: { ok: false, reason: "timeout" },
          chains: "unavailable",
          requestId: response.headers["request-id"],
        });
      }
    }
    expect(pool.waitingCount, "requests queued for a pool connection").to.equal(0);
    expect(pool.totalCount - pool.idleCount, "pool connections held by health").to.be.at.most(1);
    proxy.restore();
    await expectHealthy();
  });

  it("cut: 503 naming the database as unreachable, 200 once restored", async () => {
    await expectHealthy();
    proxy.cut();
    const response = await api.call(HEALTH);
    expectEnvelope(response, 503, "service_unavailable");
    expect((response.body as { error: { details: unknown } }).error.details).to.deep.equal({
      database: { ok: false, reason: "unreachable" },
      chains: "unavailable",
      requestId: response.headers["request-id"],
    });
    proxy.restore();
    await expectHealthy();
  });
});
