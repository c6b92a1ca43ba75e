// The protected list's statement reads indexes at any number of records: a chain filter reads that chain's
// records newest first (storage/migrations/0022), the unfiltered list each source's instant index (0019), and
// neither sorts a whole table. The plans are read with EXPLAIN on generated records, as the planner sees a
// mirror of that size.
import { expect } from "chai";
import { PROTECTION_STATUSES, protectionPageQuery } from "../../../services/mirror/protectedRows";
import { createTestDatabase, type TestDatabase } from "../../support/testDatabase";

const RECORDS = 20_000;

describe("mirror: the protected list's plan", function () {
  this.timeout(120_000);
  let db: TestDatabase;

  before(async () => {
    db = await createTestDatabase();
    await db.pool.query(
      `INSERT INTO chain_reservations (chain, name_hash, ticker_hash, normalized_name, normalized_ticker, launcher,
         reserved_at, expires_at, duration_seconds, fee_paid, tx_hash, block_number)
       SELECT 'hardhat', '0x' || md5('n' || n) || md5('m' || n), '0x' || md5('t' || n) || md5('u' || n),
              'PLAN' || translate(n::text, '0123456789', 'ABCDEFGHJK'), 'P', '0x' || lpad(to_hex(n), 40, '0'),
              now() - n * interval '1 second', now() + interval '1 day', 86400, 1, '0x00', 1
         FROM generate_series(1, $1::int) AS n`,
      [RECORDS],
    );
    await db.pool.query(
      `INSERT INTO identity_locks (environment, identity_key, chain, kind, was_reserved, authorized_launcher, applied_at, expires_at)
       SELECT 'production', 'LOCK' || translate(n::text, '0123456789', 'ABCDEFGHJK') || '::L', 'hardhat', 'bonded', false,
              '0x' || lpad(to_hex(n), 40, '0'), now() - n * interval '1 second', now() + interval '2 days'
         FROM generate_series(1, $1::int) AS n`,
      [RECORDS],
    );
    await db.pool.query("ANALYZE chain_reservations");
    await db.pool.query("ANALYZE identity_locks");
  });
  after(async () => db?.close());

  interface Scan {
    relation: string;
    node: string;
    index: string | undefined;
  }

  /** Every scan of a table in a plan (EXPLAIN's JSON nodes), depth first. */
  function scansOf(node: Record<string, unknown>): Scan[] {
    const own =
      typeof node["Relation Name"] === "string"
        ? [
            {
              relation: node["Relation Name"],
              node: node["Node Type"] as string,
              index: node["Index Name"] as string | undefined,
            },
          ]
        : [];
    const children = (node.Plans as Record<string, unknown>[] | undefined) ?? [];
    return [...own, ...children.flatMap(scansOf)];
  }

  /** The scans of the list's two large sources in the plan of a first page of 50 with `chain`. */
  async function scans(chain: string | undefined): Promise<Scan[]> {
    const query = protectionPageQuery({
      statuses: PROTECTION_STATUSES,
      limit: 50,
      now: new Date(),
      ...(chain === undefined ? {} : { chain }),
    });
    const { rows } = await db.pool.query<{ "QUERY PLAN": [{ Plan: Record<string, unknown> }] }>({
      text: `EXPLAIN (FORMAT JSON) ${query.text}`,
      values: query.values,
    });
    const plan = rows[0]?.["QUERY PLAN"][0].Plan ?? {};
    return scansOf(plan).filter((scan) => ["chain_reservations", "identity_locks"].includes(scan.relation));
  }

  it("filtered on a chain with no records, each source reads its chain index, not every chain's instants", async () => {
    const found = await scans("solana-localnet");
    expect(found.map((scan) => scan.index)).to.have.members([
      "chain_reservations_chain_since",
      "identity_locks_chain_since",
    ]);
  });

  it("unfiltered, each source reads its instant index newest first, with no scan of a whole table", async () => {
    const found = await scans(undefined);
    expect(found.map((scan) => scan.index)).to.have.members([
      "chain_reservations_since",
      "identity_locks_since",
    ]);
    expect(found.map((scan) => scan.node)).to.deep.equal(["Index Scan", "Index Scan"]);
  });
});
