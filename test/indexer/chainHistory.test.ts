// A chain whose history changed (a local node restarted from genesis) loses its mirror rows and checkpoint;
// other chains and an unchanged history keep theirs.
import { expect } from "chai";
import { resetChainIfHistoryChanged } from "../../indexer/chainHistory";
import { recordHead } from "../../indexer/checkpoints";
import { createTestDatabase, type TestDatabase } from "../support/testDatabase";

describe("indexer chain history guard", () => {
  let database: TestDatabase;

  before(async () => {
    database = await createTestDatabase();
  });

  after(async () => {
    await database?.close();
  });

  const insertReservation = (chain: string) =>
    database.pool.query(
      `INSERT INTO chain_reservations (chain, name_hash, ticker_hash, normalized_name, normalized_ticker, launcher,
         reserved_at, expires_at, duration_seconds, fee_paid, tx_hash, block_number)
       VALUES ($1, $2, $2, 'A', 'AB', '0xabc', now(), now() + interval '1 day', 86400, 1, '0x01', 1)`,
      [chain, `0x${"1".repeat(64)}`],
    );
  const count = async (table: string, chain: string) =>
    (await database.pool.query(`SELECT count(*)::int AS n FROM ${table} WHERE chain = $1`, [chain])).rows[0]
      .n;

  it("keeps rows while the history is the same, drops them (and only that chain's) when it changes", async () => {
    expect(await resetChainIfHistoryChanged(database.pool, "hardhat", "history-1")).to.equal(false);
    await insertReservation("hardhat");
    await insertReservation("base");
    await recordHead(database.pool, "hardhat", "evm", 10n);

    expect(await resetChainIfHistoryChanged(database.pool, "hardhat", "history-1")).to.equal(false);
    expect(await count("chain_reservations", "hardhat")).to.equal(1);

    expect(await resetChainIfHistoryChanged(database.pool, "hardhat", "history-2")).to.equal(true);
    expect(await count("chain_reservations", "hardhat")).to.equal(0);
    expect(await count("chain_checkpoints", "hardhat")).to.equal(0);
    expect(await count("chain_reservations", "base")).to.equal(1);
  });
});
