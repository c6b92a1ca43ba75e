import { expect } from "chai";
import { withTransaction } from "../../storage/transaction";
import { createTestDatabase, type TestDatabase } from "../support/testDatabase";

describe("storage: transactions", () => {
  let db: TestDatabase;
  before(async () => {
    db = await createTestDatabase();
    await db.pool.query("CREATE TABLE tx_probe (id int PRIMARY KEY)");
  });
  after(async () => {
    await db.close();
  });

  it("commits every write of a successful transaction", async () => {
    const result = await withTransaction(db.pool, async (client) => {
      await client.query("INSERT INTO tx_probe VALUES (1), (2)");
      return "done";
    });
    expect(result).to.equal("done");
    const { rows } = await db.pool.query("SELECT count(*)::int AS n FROM tx_probe");
    expect(rows[0].n).to.equal(2);
  });

  it("leaves no partial write when the work throws, and rethrows the error", async () => {
    const failure = await withTransaction(db.pool, async (client) => {
      await client.query("INSERT INTO tx_probe VALUES (3)");
      throw new Error("boom");
    }).catch((error: Error) => error);
    expect(failure).to.be.instanceOf(Error).with.property("message", "boom");
    const { rows } = await db.pool.query("SELECT id FROM tx_probe WHERE id = 3");
    expect(rows).to.have.length(0);
  });

  it("leaves no partial write when a statement fails", async () => {
    const failure = await withTransaction(db.pool, async (client) => {
      await client.query("INSERT INTO tx_probe VALUES (4)");
      await client.query("INSERT INTO tx_probe VALUES (1)");
    }).catch((error: Error) => error);
    expect(failure)
      .to.be.instanceOf(Error)
      .with.property("message")
      .that.match(/duplicate key/);
    const { rows } = await db.pool.query("SELECT id FROM tx_probe WHERE id = 4");
    expect(rows).to.have.length(0);
  });

  it("releases its client, so a pool survives more failures than it has connections", async () => {
    for (let attempt = 0; attempt < 15; attempt++) {
      await withTransaction(db.pool, async () => {
        throw new Error("again");
      }).catch(() => undefined);
    }
    const { rows } = await db.pool.query("SELECT 1 AS ok");
    expect(rows[0].ok).to.equal(1);
  });
});
