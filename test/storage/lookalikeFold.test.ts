// The database's look-alike keys (migration 0016) must equal core/lookalike's for every stored identity key:
// the identity check compares a key computed in TypeScript with the generated columns.
import { expect } from "chai";
import fc from "fast-check";
import { lookalikeKeyOfIdentity } from "../../core/lookalike";
import { createTestDatabase, type TestDatabase } from "../support/testDatabase";

const FOLDED_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ269";
// Biased towards the letters of the ASCII table so its pairs and their overlaps occur often.
const part = fc.string({
  unit: fc.oneof(fc.constantFrom(..."RNVCLDMWI"), fc.constantFrom(...FOLDED_ALPHABET)),
  minLength: 1,
  maxLength: 16,
});

describe("storage: lookalike_fold and the look-alike columns (0016)", () => {
  let db: TestDatabase;
  before(async () => {
    db = await createTestDatabase();
  });
  after(async () => db.close());

  it("lookalike_fold equals core/lookalike on generated keys", async () => {
    const keys = fc.sample(fc.tuple(part, part), 400).map(([name, ticker]) => `${name}::${ticker}`);
    keys.push("CORN::CORN", "RNN::VVV", "CLL::LCL", "PIXEL::PIX");
    const { rows } = await db.pool.query<{ key: string; folded: string }>(
      "SELECT key, lookalike_fold(key) AS folded FROM unnest($1::text[]) AS key",
      [keys],
    );
    for (const row of rows) expect(row.folded, row.key).to.equal(lookalikeKeyOfIdentity(row.key));
  });

  it("every writer's row gets its look-alike key: mirror, locks, sandbox holds", async () => {
    await db.pool.query(
      `INSERT INTO chain_reservations (chain, name_hash, ticker_hash, normalized_name, normalized_ticker, launcher,
         reserved_at, expires_at, duration_seconds, fee_paid, tx_hash, block_number)
       VALUES ('hardhat', '0x' || repeat('a', 64), '0x' || repeat('b', 64), 'CLOUD', 'RNVV', '0x1', now(),
         now() + interval '1 day', 86400, 0, '0xtx', 1)`,
    );
    await db.pool.query(
      `INSERT INTO identity_locks (environment, identity_key, chain, kind, was_reserved, applied_at, expires_at)
       VALUES ('production', 'CLOUD::RNVV', 'hardhat', 'bonded', false, now(), now() + interval '1 day')`,
    );
    await db.pool.query(
      `INSERT INTO sandbox_holds (identity_key, chain, launcher, starts_at, expires_at, duration_seconds, source, partner_id)
       VALUES ('CLOUD::RNVV', 'hardhat', '0x1', now(), now() + interval '1 day', 86400, 'partner', 'p1')`,
    );
    const expected = lookalikeKeyOfIdentity("CLOUD::RNVV");
    expect(expected).to.equal("DOUD::MW");
    for (const table of ["chain_reservations", "identity_locks", "sandbox_holds"]) {
      const { rows } = await db.pool.query<{ lookalike_key: string }>(`SELECT lookalike_key FROM ${table}`);
      expect(rows, table).to.deep.equal([{ lookalike_key: expected }]);
    }
  });
});
