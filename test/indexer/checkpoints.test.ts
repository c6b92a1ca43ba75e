// The head an indexer records in chain_checkpoints when the RPC answers a lower one than before: a Solana node
// behind the others (slots never go back), an EVM reorg onto a shorter branch (heads do).
import { expect } from "chai";
import { recordHead, recordIndexed } from "../../indexer/checkpoints";
import { readCheckpoints } from "../../services/mirror/chainCatalogue";
import { createTestDatabase, type TestDatabase } from "../support/testDatabase";

describe("indexer checkpoints: the recorded head", () => {
  let database: TestDatabase;

  before(async () => {
    database = await createTestDatabase();
  });
  after(async () => {
    await database?.close();
  });

  const headOf = async (chain: string) =>
    (await readCheckpoints(database.pool, chain))[0]?.checkpoint.headNumber;

  it("keeps the highest Solana slot read, so a lagging node's answer never makes the mirror look caught up", async () => {
    await recordIndexed(database.pool, "solana-lb", "solana", 100n, new Date());
    await recordHead(database.pool, "solana-lb", "solana", 106n);
    await recordHead(database.pool, "solana-lb", "solana", 100n);
    expect(await headOf("solana-lb")).to.equal(106);
    await recordHead(database.pool, "solana-lb", "solana", 107n);
    expect(await headOf("solana-lb")).to.equal(107);
  });

  it("follows an EVM head back when a reorg moves the chain onto a shorter branch", async () => {
    await recordHead(database.pool, "evm-reorg", "evm", 12n);
    await recordHead(database.pool, "evm-reorg", "evm", 11n);
    expect(await headOf("evm-reorg")).to.equal(11);
  });
});
