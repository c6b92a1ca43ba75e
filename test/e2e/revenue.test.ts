// Partner revenue end to end on the local chains: real wallets (a viem account on Hardhat, a web3.js Keypair on
// the Solana RPC) pay for reservations the API prepared; the ledger accrues at the fee the chain charged, with a
// zero partner share inside the partner's 30-day introductory period and 60/40 after it (chain time moved 31
// days). Then the sync (a paid prepare whose hash was never posted, confirmed by the reconciler on demand), the
// worker's daily payout plan (two workers at once: one plan) and a consistent reconcile.
import { expect } from "chai";
import { startWorker } from "../../worker";
import { bearer } from "../api/support/harness";
import { ledgerOf } from "../services/reservations/support";
import {
  type ChainDriver,
  DAY,
  type E2e,
  partnerApi,
  prepared,
  startE2e,
  uniquePair,
  waitUntil,
} from "./support";

interface Entry {
  reservationId: string;
  chain: string;
  feeAmount: string;
  partnerAmount: string;
  partnerBps: number;
  introductory: boolean;
}

interface Total {
  chain: string;
  unit: string;
  entries: number;
  feeAmount: string;
  partnerAmount: string;
  serviceAmount: string;
  partnerUsdMicros: string;
}

describe("e2e: partner revenue from reservations paid on the local chains", function () {
  this.timeout(180_000);
  let e2e: E2e;
  let partner: ReturnType<typeof partnerApi>;

  before(async () => {
    e2e = await startE2e();
    partner = partnerApi(e2e);
  });
  after(async () => e2e?.stop());

  const get = async (path: string) => {
    const response = await e2e.api.call({ path: `/api/v1/partner${path}`, headers: bearer(e2e.key.secret) });
    expect(response.status, response.text).to.equal(200);
    return response.body;
  };
  const entryOf = async (reservationId: string): Promise<Entry> => {
    const body = (await get("/revenue?limit=50")) as { rows: Entry[] };
    const entry = body.rows.find((row) => row.reservationId === reservationId);
    if (entry === undefined) throw new Error(`no accrued entry for ${reservationId}`);
    return entry;
  };

  /** Prepare, sign and send with a real wallet, post the hash; the confirmed reservation and the fee charged. */
  async function paidReservation(driver: ChainDriver, word: string) {
    const wallet = await driver.newWallet();
    const reservation = await prepared(partner, {
      chain: driver.chain,
      ...uniquePair(word),
      launcher: wallet.address,
    });
    const hash = await wallet.pay(reservation);
    expect((await partner.submit(reservation.reservationId, hash)).status).to.equal(200);
    await partner.statusBecomes(reservation.reservationId, "confirmed");
    const settlement = await driver.registry.settlementOf(hash);
    if (settlement === null) throw new Error("no settlement");
    return { reservationId: reservation.reservationId, fee: settlement.feePaid };
  }

  const paid: { chain: string; reservationId: string; fee: bigint; partnerBps: number }[] = [];

  it("inside the introductory period the partner share is zero, at the fee the chain charged", async () => {
    const profile = (await get("/profile")) as { introductoryPeriod: { active: boolean }; split: object };
    expect(profile.introductoryPeriod.active).to.equal(true);
    expect(profile.split).to.deep.equal({ partnerBps: 6000, serviceBps: 4000 });
    for (const driver of [e2e.evm, e2e.solana]) {
      const { reservationId, fee } = await paidReservation(driver, "Puffin");
      const entry = await entryOf(reservationId);
      expect(entry).to.include({
        partnerBps: 0,
        introductory: true,
        partnerAmount: "0",
        feeAmount: fee.toString(),
      });
      paid.push({ chain: driver.chain, reservationId, fee, partnerBps: 0 });
    }
  });

  it("after the introductory period (chain time moved 31 days) the partner earns 60 percent of the fee charged", async () => {
    await e2e.warp(31 * DAY);
    const profile = (await get("/profile")) as {
      introductoryPeriod: { active: boolean };
      currentShare: object;
    };
    expect(profile.introductoryPeriod.active).to.equal(false);
    expect(profile.currentShare).to.deep.equal({ partnerBps: 6000, serviceBps: 4000 });
    for (const driver of [e2e.evm, e2e.solana]) {
      const { reservationId, fee } = await paidReservation(driver, "Gannet");
      const entry = await entryOf(reservationId);
      expect(entry).to.include({ partnerBps: 6000, introductory: false, feeAmount: fee.toString() });
      expect(BigInt(entry.partnerAmount)).to.equal((fee * 6000n) / 10_000n);
      paid.push({ chain: driver.chain, reservationId, fee, partnerBps: 6000 });
    }
    const { totals } = (await get("/revenue")) as { totals: Total[] };
    for (const driver of [e2e.evm, e2e.solana]) {
      const mine = paid.filter((entry) => entry.chain === driver.chain);
      const fee = mine.reduce((sum, entry) => sum + entry.fee, 0n);
      const share = mine.reduce((sum, entry) => sum + (entry.fee * BigInt(entry.partnerBps)) / 10_000n, 0n);
      expect(totals.find((total) => total.chain === driver.chain)).to.deep.equal({
        chain: driver.chain,
        unit: driver.family === "evm" ? "wei" : "lamports",
        entries: 2,
        feeAmount: fee.toString(),
        partnerAmount: share.toString(),
        serviceAmount: (fee - share).toString(),
        partnerUsdMicros: totals.find((total) => total.chain === driver.chain)?.partnerUsdMicros,
        plannedPartnerAmount: "0",
        unplannedPartnerAmount: share.toString(),
      });
    }
    expect((await get("/revenue/reconcile")) as object).to.deep.include({
      consistent: true,
      confirmedReservations: 4,
      accruedEntries: 4,
    });
  });

  it("sync confirms a paid prepare whose transaction hash was never posted, through the reconciler", async () => {
    await e2e.stopWorker();
    const wallet = await e2e.evm.newWallet();
    const reservation = await prepared(partner, {
      chain: e2e.evm.chain,
      ...uniquePair("Shag"),
      launcher: wallet.address,
    });
    await wallet.pay(reservation);
    await waitUntil(
      async () =>
        (
          await e2e.db.pool.query("SELECT 1 FROM chain_reservations WHERE lower(partner_ref) = $1", [
            reservation.partnerRef,
          ])
        ).rowCount,
      (rows) => rows === 1,
      "the indexer mirrored the reservation",
    );
    expect(await ledgerOf(e2e.db.pool, reservation.reservationId)).to.include({ status: "draft" });
    const response = await e2e.api.call({
      method: "POST",
      path: "/api/v1/partner/reservations/sync",
      headers: bearer(e2e.key.secret),
    });
    expect(response.status, response.text).to.equal(200);
    expect(response.body).to.deep.include({ sync: { checked: 1, changed: { confirmed: 1 } } });
    const row = (
      response.body as { rows: { reservationId: string; status: string; ledger: { status: string } }[] }
    ).rows[0];
    expect(row).to.include({ reservationId: reservation.reservationId, status: "confirmed" });
    expect(row?.ledger.status).to.equal("accrued");
  });

  it("the worker builds the day's payout plan once, even with two workers at it", async () => {
    const tomorrow = () => new Date(e2e.clock.nowMs() + DAY * 1000);
    const workers = [1, 2].map(() =>
      startWorker({
        pool: e2e.db.pool,
        registries: e2e.registries,
        intervalMs: 200,
        payoutPlanIntervalMs: 50,
        now: tomorrow,
        log: () => undefined,
      }),
    );
    try {
      const body = (await waitUntil(
        () => get("/payout-batches"),
        (value) => (value as { rows: unknown[] }).rows.length > 0,
        "a payout plan",
      )) as { rows: { planDate: string; status: string; lines: { chain: string; entries: number }[] }[] };
      await new Promise((resolve) => setTimeout(resolve, 300)); // more passes of both workers
      const again = (await get("/payout-batches")) as { rows: unknown[] };
      expect(again.rows).to.have.length(1);
      expect(body.rows[0]).to.include({ status: "planned" });
      expect(body.rows[0]?.lines.map((line) => [line.chain, line.entries])).to.deep.equal([
        ["hardhat", 3],
        ["solana", 2],
      ]);
    } finally {
      await Promise.all(workers.map((worker) => worker.stop()));
    }
  });
});
