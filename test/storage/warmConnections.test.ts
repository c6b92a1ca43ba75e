// A quiet spell must not cost the next requests a new connection and the planning of their statements: the
// pool keeps WARM_CONNECTIONS open past its idle timeout and closes only the ones beyond them.
import { expect } from "chai";
import { IDLE_TIMEOUT_MS, WARM_CONNECTIONS } from "../../storage/database";
import { createTestDatabase, type TestDatabase } from "../support/testDatabase";

describe("storage: the pool keeps warm connections through a quiet spell", function () {
  this.timeout(IDLE_TIMEOUT_MS + 15_000);
  let database: TestDatabase;

  before(async () => {
    database = await createTestDatabase();
  });

  after(async () => {
    await database?.close();
  });

  it(`closes idle connections beyond ${WARM_CONNECTIONS} after the idle timeout, and keeps those`, async () => {
    const { pool } = database;
    await Promise.all(Array.from({ length: 5 }, () => pool.query("SELECT pg_sleep(0.2)")));
    expect(pool.totalCount).to.be.greaterThan(WARM_CONNECTIONS);
    await new Promise((resolve) => setTimeout(resolve, IDLE_TIMEOUT_MS + 1_000));
    expect(pool.totalCount).to.equal(WARM_CONNECTIONS);
    expect(pool.idleCount).to.equal(WARM_CONNECTIONS);
  });
});
