// The service's connections plan without JIT compilation. Postgres compiles a statement whose estimated cost
// passes jit_above_cost at every execution, named or not; a webhook claim beside a long delivery history and
// thousands of endpoints crossed it and spent 23 of its 28 ms compiling (docs/performance.md, "webhooks"). The
// embedded server is built without JIT, so there the test holds it to that.
import { expect } from "chai";
import { createTestDatabase, type TestDatabase } from "../support/testDatabase";

/** Estimated far above jit_above_cost's default (100,000); EXPLAIN without ANALYZE does not run it. */
const COSTLY = "SELECT sum(g) FROM generate_series(1, 100000000) AS g WHERE g % 7 = 3";

describe("storage: no statement is JIT-compiled", () => {
  let db: TestDatabase;
  before(async () => {
    db = await createTestDatabase();
  });
  after(async () => {
    await db?.close();
  });

  it("plans a statement far above the JIT threshold without JIT, on two of the pool's connections at once", async () => {
    const clients = await Promise.all([db.pool.connect(), db.pool.connect()]);
    try {
      for (const client of clients) {
        const { rows } = await client.query<{ "QUERY PLAN": string }>(`EXPLAIN ${COSTLY}`);
        const plan = rows.map((row) => row["QUERY PLAN"]).join("\n");
        expect(plan).to.include("Function Scan");
        expect(plan).to.not.include("JIT");
      }
    } finally {
      for (const client of clients) client.release();
    }
  });
});
