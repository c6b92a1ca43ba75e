import { expect } from "chai";
import { createTestDatabase, type TestDatabase } from "../support/testDatabase";

const PUBLIC_KEY = Buffer.alloc(32, 1);

describe("storage: foundation schema", () => {
  let db: TestDatabase;
  before(async () => {
    db = await createTestDatabase();
  });
  after(async () => {
    await db.close();
  });

  const insertKey = (kid: string, environment: string, status: string) =>
    db.pool.query(
      "INSERT INTO signing_keys (kid, environment, status, public_key, private_key_encrypted) VALUES ($1, $2, $3, $4, 'x')",
      [kid, environment, status, PUBLIC_KEY],
    );

  it("allows one active signing key per environment and refuses a second", async () => {
    await insertKey("prod-1", "production", "active");
    await insertKey("sbx-1", "sandbox", "active");
    await insertKey("prod-0", "production", "retiring");
    const failure = await insertKey("prod-2", "production", "active").catch((error: Error) => error);
    expect(failure)
      .to.be.instanceOf(Error)
      .with.property("message")
      .that.match(/signing_keys_one_active/);
  });

  it("refuses an unknown environment or status", async () => {
    expect(await insertKey("x-1", "staging", "active").catch((error: Error) => error)).to.be.instanceOf(
      Error,
    );
    expect(await insertKey("x-2", "sandbox", "paused").catch((error: Error) => error)).to.be.instanceOf(
      Error,
    );
  });
});
