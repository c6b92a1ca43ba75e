// Reorgs that take a change of an existing pair out of the chain, on a Hardhat node with the real Ponder indexer:
// evm_snapshot, the change, evm_revert, then a different block at the same height and a few more. A new reservation
// is two transactions (commit, then reveal): its commitment lands before the snapshot, so that the reorg takes out
// one block, the reveal's. The mirror must
// give the pair back exactly as the chain holds it again, not an empty row and not the reorged state. And a
// replacement block of the same height and time (a competing block for the same slot), with no block after it, must
// leave the chain reading fresh once indexed. (A new reservation reorged away: evmIndexer.test.ts; one chain of two
// reorged: evmMultichainReorg.test.ts.)
import { expect } from "chai";
import { freshnessOf } from "../../core/status";
import type { EvmIndexer } from "../../indexer/evm/run";
import type { EvmClients } from "../../scripts/evm/clients";
import { readCheckpoints } from "../../services/mirror/chainCatalogue";
import { createTestDatabase, type TestDatabase } from "../support/testDatabase";
import { expectMirrorEqualsRegistry, type Pair, registriesOf } from "./support/copycat";
import { type HardhatChain, ONE_DAY, startHardhatChain } from "./support/hardhatChain";
import { closeIndexerDatabase, startTestEvmIndexer } from "./support/ponderIndexer";
import { awaitMirrored, mirrorSample } from "./support/readModel";

const CHAIN = "hardhat-reorg";

describe("EVM indexer: reorgs of changes to existing pairs, and the checkpoint after a reorg", function () {
  this.timeout(120_000);
  let database: TestDatabase;
  let chain: HardhatChain;
  let indexer: EvmIndexer;
  const deploymentSchema = `evm_reorg_${Date.now().toString(36)}`;
  /** Every pair the suite reserved: the mirror must hold exactly these, as the registry does. */
  const reserved: Pair[] = [];

  before(async () => {
    [database, chain] = await Promise.all([createTestDatabase(), startHardhatChain(CHAIN)]);
    indexer = await startTestEvmIndexer(database, chain.manifestPath, deploymentSchema, {
      restartOnExit: false,
    });
    await indexer.ready;
  });

  after(async () => {
    await indexer?.stop();
    await chain?.stop();
    if (database) await closeIndexerDatabase(database, deploymentSchema);
  });

  const wallet = (index: number): EvmClients => {
    const each = chain.wallets[index];
    if (!each) throw new Error(`no wallet ${index}`);
    return each;
  };

  /** The mirror's row of `pair` (as JSON, amounts as text; undefined: none). */
  const rowOf = async (pair: Pair) => {
    const { rows } = await mirrorSample(database.pool, CHAIN);
    return rows.find((row) => row.normalized_ticker === pair.ticker);
  };

  /**
   * Runs `change` (one transaction) on a snapshot of the chain and waits until the mirror shows its transaction;
   * then reverts the chain, mines a reservation of `filler` by `fillerWallet` (its reveal: it committed before the
   * snapshot) at the change's height and three blocks more, and waits until the mirror has indexed them. Resolves
   * with the change's transaction.
   */
  async function reorgAway(
    change: () => Promise<{ blockNumber: bigint; hash: string }>,
    filler: Pair,
    fillerWallet: EvmClients,
  ): Promise<{ blockNumber: bigint; hash: string }> {
    const fillerCommitted = await chain.commit(fillerWallet, filler.name, filler.ticker);
    const snapshot = await chain.rpc<string>("evm_snapshot");
    const orphan = await change();
    await awaitMirrored(database.pool, CHAIN, orphan);
    await chain.rpc("evm_revert", [snapshot]);
    const replacement = await fillerCommitted.reveal();
    reserved.push(filler);
    expect(replacement.blockNumber, "a different block at the same height").to.equal(orphan.blockNumber);
    await chain.rpc("hardhat_mine", ["0x3"]);
    await awaitMirrored(database.pool, CHAIN, { ...replacement, blockNumber: replacement.blockNumber + 3n });
    return orphan;
  }

  it("sets a renewal's pair back to its expiry, window and fee before the renewal when the renewal is reorged away", async () => {
    const pair = { name: "renewed pair", ticker: "RNWD" };
    const filler = { name: "renewal filler", ticker: "RNFL" };
    await awaitMirrored(database.pool, CHAIN, await chain.reserve(wallet(0), pair.name, pair.ticker));
    reserved.push(pair);
    await chain.increaseTime(ONE_DAY - 6 * 3600);
    const beforeRenewal = await rowOf(pair);

    const renewal = await reorgAway(() => chain.renew(wallet(0), pair.name, pair.ticker), filler, wallet(1));

    expect(await rowOf(pair)).to.deep.equal(beforeRenewal);
    const renewals = await database.pool.query(
      `SELECT * FROM "${database.schema}_views".renewal WHERE tx_hash = $1`,
      [renewal.hash],
    );
    expect(renewals.rows, "the renewal's own record").to.deep.equal([]);
    await expectMirrorEqualsRegistry(database.pool, registriesOf(chain.manifestPath), CHAIN, reserved);
  });

  it("gives an expired pair back to its previous holder when another wallet's takeover is reorged away", async () => {
    const pair = { name: "taken pair", ticker: "TAKN" };
    const filler = { name: "takeover filler", ticker: "TKFL" };
    await awaitMirrored(database.pool, CHAIN, await chain.reserve(wallet(2), pair.name, pair.ticker));
    reserved.push(pair);
    await chain.increaseTime(ONE_DAY + 60);
    const expiredHold = await rowOf(pair);

    const takeover = await chain.commit(wallet(3), pair.name, pair.ticker);
    await reorgAway(() => takeover.reveal(), filler, wallet(4));

    expect(await rowOf(pair)).to.deep.equal(expiredHold);
    expect((await rowOf(pair))?.launcher).to.equal(wallet(2).walletClient.account.address.toLowerCase());
    await expectMirrorEqualsRegistry(database.pool, registriesOf(chain.manifestPath), CHAIN, reserved);
  });

  it("reads fresh again once it has indexed a reorg's replacement block of the same height and time, with no block after it", async () => {
    const orphaned = { name: "replaced head", ticker: "RPLC" };
    const filler = { name: "same slot filler", ticker: "SLOT" };
    const [orphanCommitted, fillerCommitted] = [
      await chain.commit(wallet(5), orphaned.name, orphaned.ticker),
      await chain.commit(wallet(6), filler.name, filler.ticker),
    ];
    const snapshot = await chain.rpc<string>("evm_snapshot");
    const orphan = await orphanCommitted.reveal();
    await awaitMirrored(database.pool, CHAIN, orphan);
    const { timestamp } = await wallet(5).publicClient.getBlock({ blockNumber: orphan.blockNumber });
    await chain.rpc("evm_revert", [snapshot]);
    // A competing block for the same slot: Ponder records the same checkpoint for it as for the orphan.
    await chain.rpc("evm_setNextBlockTimestamp", [Number(timestamp)]);
    const replacement = await fillerCommitted.reveal();
    reserved.push(filler);
    expect(replacement.blockNumber).to.equal(orphan.blockNumber);

    await awaitMirrored(database.pool, CHAIN, replacement);
    expect(await rowOf(orphaned)).to.equal(undefined);
    const [entry] = await readCheckpoints(database.pool, CHAIN);
    expect(entry?.checkpoint.rewoundFrom, "a revert took the orphan out").to.equal(
      Number(orphan.blockNumber),
    );
    expect(freshnessOf(entry?.checkpoint, new Date()).state).to.equal("fresh");
    await expectMirrorEqualsRegistry(database.pool, registriesOf(chain.manifestPath), CHAIN, reserved);
  });
});
