// A reservation the worker confirmed, whose block a reorg then takes out of the chain: the Hardhat node with the
// real Ponder indexer and the worker (test/e2e/support.ts). The chain is snapshotted before the wallet's transactions
// (commit and reveal) and reverted after the confirmation, and other blocks are mined at their heights. The reservation must
// not stay confirmed on a transaction the chain no longer holds (docs/reservations.md, "Reorgs").
import { expect } from "chai";
import { publicActions } from "viem";
import { normalizeIdentity } from "../../core/fold";
import { SUBMISSION_GRACE_SECONDS } from "../../core/reservation";
import { ledgerOf } from "../services/reservations/support";
import { CLOCK_LEAD_MS, type E2e, partnerApi, prepared, startE2e, uniquePair } from "./support";

describe("e2e: a confirmation whose block is reorged out of the EVM chain", function () {
  this.timeout(120_000);
  let e2e: E2e;
  let partner: ReturnType<typeof partnerApi>;

  before(async () => {
    e2e = await startE2e();
    partner = partnerApi(e2e);
  });
  after(async () => {
    await e2e?.stop();
  });

  /** A prepare on the EVM chain, a snapshot of the chain, then the wallet's transactions (hashes not posted). */
  async function sentOnSnapshot(word: string) {
    const wallet = await e2e.evm.newWallet();
    const pair = uniquePair(word);
    const reservation = await prepared(partner, { chain: e2e.evm.chain, ...pair, launcher: wallet.address });
    const snapshot = await e2e.evm.test.snapshot();
    const hash = await wallet.pay(reservation);
    return { wallet, pair, reservation, snapshot, hash };
  }

  /**
   * Reverts the chain to `snapshot` and mines as many other blocks as it took away (the commit's and the reveal's),
   * as a reorg to a chain at least as long does.
   */
  async function reorgAway(snapshot: `0x${string}`): Promise<void> {
    const test = e2e.evm.test.extend(publicActions);
    const reorged = await test.getBlockNumber({ cacheTime: 0 });
    await test.revert({ id: snapshot });
    const kept = await test.getBlockNumber({ cacheTime: 0 });
    await test.mine({ blocks: Number(reorged - kept) });
  }

  it("sends a confirmation back to pending_payment when its block is reorged away, and confirms it again where the wallet's transaction is mined again", async () => {
    const { wallet, pair, reservation, snapshot } = await sentOnSnapshot("Reorged");
    const id = reservation.reservationId;
    const first = await partner.statusBecomes(id, "confirmed");

    await reorgAway(snapshot);
    const reopened = await partner.statusBecomes(id, "pending_payment");
    expect(reopened).to.include({ confirmedAt: null, startsAt: null, expiresAt: null, feePaid: null });
    expect(reopened.statusReason).to.match(/no longer holds the transaction that confirmed this reservation/);
    expect(await ledgerOf(e2e.db.pool, id)).to.include({ status: "draft" });

    // Later than the reorged blocks for sure (Hardhat may stamp the new blocks as it stamped the old ones).
    await e2e.warp(5, { refreshPrices: false });
    await wallet.pay(reservation);
    const again = await partner.statusBecomes(id, "confirmed");
    const onChain = await e2e.evm.registry.reservationOf(normalizeIdentity(pair.name, pair.ticker));
    expect(again.expiresAt, "the window of the block that mined it again").to.equal(
      onChain?.expiresAt.toISOString(),
    );
    expect(again.expiresAt).to.not.equal(first.expiresAt);
    expect(await ledgerOf(e2e.db.pool, id)).to.include({ status: "accrued" });
  });

  it("fails a posted transaction the reorg dropped once the grace period since the reorg has passed", async () => {
    const { reservation, snapshot, hash } = await sentOnSnapshot("Dropped");
    const id = reservation.reservationId;
    // The indexer may confirm it before the hash arrives: the hash is recorded either way (it is the hold's).
    expect((await partner.submit(id, hash)).status).to.equal(200);
    await partner.statusBecomes(id, "confirmed");

    await reorgAway(snapshot);
    const reopened = await partner.statusBecomes(id, "submitted");
    expect(reopened).to.include({ transactionHash: hash, expiresAt: null });

    // Past the grace on the chain's clock too, which the service's leads by up to CLOCK_LEAD_MS.
    await e2e.warp(SUBMISSION_GRACE_SECONDS + CLOCK_LEAD_MS / 1000 + 1);
    const failed = await partner.statusBecomes(id, "failed");
    expect(failed.statusReason).to.match(/did not settle/);
    expect(await ledgerOf(e2e.db.pool, id)).to.include({ status: "void" });
  });
});
