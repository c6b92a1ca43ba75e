// Partner revenue over real HTTP on sandbox reservations (prepare, then sandbox-confirm accrues the ledger): the
// profile's split and introductory period, the ledger with totals per chain and asset and cursor paging, the
// attributed reservations and their sync (the reconciler lapses an unpaid prepare), the daily payout plans
// (built twice, concurrently too: one plan per partner and day), the soft reconcile listing a planted
// discrepancy; one partner never sees another's, a sandbox key never sees production, and scopes hold.
import { Keypair } from "@solana/web3.js";
import { expect } from "chai";
import { registryCatalogue } from "../../../chains/catalogue";
import { PREPARE_TTL_SECONDS } from "../../../core/reservation";
import { buildPayoutPlans, lastCompleteDay } from "../../../services/revenue";
import { bearer, expectEnvelope, issueKey, startTestApi, TEST_HOSTS, type TestApi } from "../support/harness";
import { offlineManifest } from "../support/offlineManifest";
import { CHAINS } from "./identity/support";

const SANDBOX = TEST_HOSTS.sandbox[0];
const DAY_MS = 86_400_000;
const EVM_LAUNCHER = "0x2222222222222222222222222222222222222222";
const SOLANA_LAUNCHER = Keypair.generate().publicKey.toBase58();

const MANIFEST = offlineManifest();

type Key = Awaited<ReturnType<typeof issueKey>>;

interface Total {
  chain: string;
  unit: string;
  entries: number;
  feeAmount: string;
  partnerAmount: string;
  serviceAmount: string;
  plannedPartnerAmount: string;
  unplannedPartnerAmount: string;
}

interface Entry {
  reservationId: string;
  chain: string;
  feeAmount: string;
  partnerAmount: string;
  serviceAmount: string;
  partnerBps: number;
  introductory: boolean;
}

interface RevenueBody {
  rows: Entry[];
  nextCursor: string | null;
  totals: Total[];
  payouts: { enabled: boolean; message: string };
}

let words = 0;
const pair = (word: string) => {
  words += 1;
  const tag = String.fromCharCode(65 + (words % 26), 65 + Math.floor(words / 26));
  return { name: `${word} ${tag}`, ticker: `${word.slice(0, 3)}${tag}`.toUpperCase() };
};

describe("api: partner revenue (ledger, reservations, payout plans, reconcile)", function () {
  this.timeout(60_000);
  let api: TestApi;
  let partnerA: Key;
  let partnerB: Key;
  let productionA: Key;
  /** Partner A's sandbox integration is 31 days old on the service's clock; B's started now. */
  const later = Date.now() + 31 * DAY_MS;

  before(async () => {
    api = await startTestApi({
      deps: { registries: registryCatalogue(MANIFEST), decisions: { chains: CHAINS } },
    });
    partnerA = await issueKey(api, "sandbox");
    partnerB = await issueKey(api, "sandbox");
    productionA = await issueKey(api, "production", { partnerId: partnerA.partnerId });
  });
  after(async () => api?.close());
  afterEach(() => api.clock.unpin());

  const get = (key: Key, path: string) =>
    api.call({ path: `/api/v1/partner${path}`, host: SANDBOX, headers: bearer(key.secret) });
  const revenue = async (key: Key, query = "") => {
    const response = await get(key, `/revenue${query}`);
    expect(response.status, response.text).to.equal(200);
    return response.body as RevenueBody;
  };

  /** Prepare and sandbox-confirm through the API; the reservation id. */
  async function confirmedReservation(key: Key, chain: string, launcher: string): Promise<string> {
    const prepared = await api.call({
      method: "POST",
      path: "/api/v1/reservations/prepare",
      host: SANDBOX,
      headers: bearer(key.secret),
      body: { chain, ...pair("Otter"), launcher, durationSeconds: 86400 },
    });
    expect(prepared.status, prepared.text).to.equal(201);
    const { reservationId } = prepared.body as { reservationId: string };
    const confirmed = await api.call({
      method: "POST",
      path: "/api/v1/reservations/sandbox-confirm",
      host: SANDBOX,
      headers: bearer(key.secret),
      body: { reservationId },
    });
    expect(confirmed.status, confirmed.text).to.equal(200);
    return reservationId;
  }

  let reservationsOfA: string[] = [];

  it("after the introductory period the ledger accrues 6000/4000 bps; inside it the partner share is zero", async () => {
    api.clock.set(later);
    reservationsOfA = [
      await confirmedReservation(partnerA, "hardhat", EVM_LAUNCHER),
      await confirmedReservation(partnerA, "hardhat", EVM_LAUNCHER),
      await confirmedReservation(partnerA, "solana", SOLANA_LAUNCHER),
    ];
    const profileA = (await get(partnerA, "/profile")).body as Record<string, unknown>;
    expect(profileA).to.deep.include({
      partnerId: partnerA.partnerId,
      environment: "sandbox",
      split: { partnerBps: 6000, serviceBps: 4000 },
      currentShare: { partnerBps: 6000, serviceBps: 4000 },
    });
    expect(profileA).to.have.nested.property("introductoryPeriod.active", false);
    expect(profileA).to.have.nested.property("routing.payoutsEnabled", false);

    const body = await revenue(partnerA);
    expect(body.rows.map((row) => row.reservationId).sort()).to.deep.equal([...reservationsOfA].sort());
    for (const row of body.rows) {
      expect(row).to.include({ partnerBps: 6000, introductory: false });
      expect(BigInt(row.partnerAmount)).to.equal((BigInt(row.feeAmount) * 6000n) / 10_000n);
      expect(BigInt(row.serviceAmount)).to.equal(BigInt(row.feeAmount) - BigInt(row.partnerAmount));
    }
    const evm = body.totals.find((total) => total.chain === "hardhat");
    const evmRows = body.rows.filter((row) => row.chain === "hardhat");
    expect(evm).to.include({ unit: "wei", entries: 2 });
    expect(evm?.feeAmount).to.equal(evmRows.reduce((sum, row) => sum + BigInt(row.feeAmount), 0n).toString());
    expect(evm?.partnerAmount).to.equal(
      evmRows.reduce((sum, row) => sum + BigInt(row.partnerAmount), 0n).toString(),
    );
    expect(body.totals.find((total) => total.chain === "solana")).to.include({
      unit: "lamports",
      entries: 1,
    });
    expect(body.payouts).to.include({ enabled: false });

    api.clock.unpin();
    await confirmedReservation(partnerB, "hardhat", EVM_LAUNCHER);
    const profileB = (await get(partnerB, "/profile")).body as Record<string, unknown>;
    expect(profileB).to.have.nested.property("introductoryPeriod.active", true);
    expect(profileB).to.deep.include({ currentShare: { partnerBps: 0, serviceBps: 10000 } });
    const ofB = await revenue(partnerB);
    expect(ofB.rows).to.have.length(1);
    expect(ofB.rows[0]).to.include({ partnerBps: 0, introductory: true, partnerAmount: "0" });
    expect(ofB.rows[0]?.serviceAmount).to.equal(ofB.rows[0]?.feeAmount);
  });

  it("pages the ledger with a cursor and refuses a cursor it did not issue", async () => {
    const first = await revenue(partnerA, "?limit=2");
    expect(first.rows).to.have.length(2);
    expect(first.nextCursor).to.be.a("string");
    const second = await revenue(partnerA, `?limit=2&cursor=${first.nextCursor}`);
    expect(second.rows).to.have.length(1);
    expect(second.nextCursor).to.equal(null);
    expect([...first.rows, ...second.rows].map((row) => row.reservationId).sort()).to.deep.equal(
      [...reservationsOfA].sort(),
    );
    expectEnvelope(await get(partnerA, "/revenue?cursor=bm90LWEtY3Vyc29y"), 400, "invalid_request");
    expectEnvelope(await get(partnerA, "/revenue?limit=51"), 400, "invalid_request");
  });

  it("isolation: another partner and the production key of the same partner see none of it", async () => {
    const ofB = await revenue(partnerB);
    expect(ofB.rows).to.have.length(1);
    expect(reservationsOfA).not.to.include(ofB.rows[0]?.reservationId);
    expect(ofB.totals.map((total) => total.entries)).to.deep.equal([1]);
    const production = await api.call({
      path: "/api/v1/partner/revenue",
      headers: bearer(productionA.secret),
    });
    expect(production.status, production.text).to.equal(200);
    expect((production.body as RevenueBody).rows).to.deep.equal([]);
    expect((production.body as RevenueBody).totals).to.deep.equal([]);
    const reservations = await api.call({
      path: "/api/v1/partner/reservations",
      headers: bearer(productionA.secret),
    });
    expect((reservations.body as { rows: unknown[] }).rows).to.deep.equal([]);
  });

  it("lists attributed reservations with their ledger entry; sync reconciles the open prepares (an unpaid one lapses)", async () => {
    api.clock.set(later);
    const prepared = await api.call({
      method: "POST",
      path: "/api/v1/reservations/prepare",
      host: SANDBOX,
      headers: bearer(partnerA.secret),
      body: { chain: "solana", ...pair("Lynx"), launcher: SOLANA_LAUNCHER, durationSeconds: 86400 },
    });
    expect(prepared.status, prepared.text).to.equal(201);
    const openId = (prepared.body as { reservationId: string }).reservationId;

    const listed = await get(partnerA, "/reservations?status=pending_payment");
    const rows = (listed.body as { rows: { reservationId: string; ledger: { status: string } | null }[] })
      .rows;
    expect(rows.map((row) => [row.reservationId, row.ledger?.status])).to.deep.equal([[openId, "draft"]]);
    const confirmed = await get(partnerA, "/reservations?status=confirmed");
    expect(
      (confirmed.body as { rows: { ledger: { status: string } }[] }).rows.map((row) => row.ledger.status),
    ).to.deep.equal(["accrued", "accrued", "accrued"]);

    const unchanged = await api.call({
      method: "POST",
      path: "/api/v1/partner/reservations/sync",
      host: SANDBOX,
      headers: bearer(partnerA.secret),
    });
    expect(unchanged.status, unchanged.text).to.equal(200);
    expect(unchanged.body).to.deep.include({ sync: { checked: 1, changed: {} } });

    api.clock.set(later + (PREPARE_TTL_SECONDS + 1) * 1000);
    const synced = await api.call({
      method: "POST",
      path: "/api/v1/partner/reservations/sync",
      host: SANDBOX,
      headers: bearer(partnerB.secret),
    });
    expect(synced.body, "B's sync never touches A's prepares").to.deep.include({
      sync: { checked: 0, changed: {} },
    });
    const lapsed = await api.call({
      method: "POST",
      path: "/api/v1/partner/reservations/sync",
      host: SANDBOX,
      headers: bearer(partnerA.secret),
    });
    expect(lapsed.body).to.deep.include({ sync: { checked: 1, changed: { expired: 1 } } });
    const after = (
      lapsed.body as { rows: { reservationId: string; status: string; ledger: { status: string } }[] }
    ).rows;
    expect(after.find((row) => row.reservationId === openId)?.status).to.equal("expired");
    expect(after.find((row) => row.reservationId === openId)?.ledger.status).to.equal("void");
  });

  it("builds one payout plan per partner and day, however often and concurrently it is built", async () => {
    const buildAt = new Date(later + DAY_MS);
    const day = lastCompleteDay(buildAt);
    const built = await Promise.all([
      buildPayoutPlans(api.db.pool, day, buildAt),
      buildPayoutPlans(api.db.pool, day, buildAt),
    ]);
    expect(built[0] + built[1]).to.be.greaterThan(0);
    expect(await buildPayoutPlans(api.db.pool, day, buildAt)).to.equal(0);
    const plans = await api.db.pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM payout_plans WHERE partner_id = $1 AND plan_date = $2",
      [partnerA.partnerId, day],
    );
    expect(plans.rows[0]?.n).to.equal(1);

    const response = await get(partnerA, "/payout-batches");
    expect(response.status, response.text).to.equal(200);
    const body = response.body as {
      rows: {
        planDate: string;
        status: string;
        lines: { chain: string; entries: number; partnerAmount: string; walletAddress: string | null }[];
      }[];
      payouts: { enabled: boolean };
    };
    expect(body.payouts.enabled).to.equal(false);
    expect(body.rows).to.have.length(1);
    expect(body.rows[0]).to.include({ planDate: day, status: "planned" });
    const totals = (await revenue(partnerA)).totals;
    for (const line of body.rows[0]?.lines ?? []) {
      const total = totals.find((candidate) => candidate.chain === line.chain);
      expect(line).to.include({
        entries: total?.entries,
        partnerAmount: total?.partnerAmount,
        walletAddress: null,
      });
      expect(total).to.include({ plannedPartnerAmount: total?.partnerAmount, unplannedPartnerAmount: "0" });
    }
    const ofProduction = await api.call({
      path: "/api/v1/partner/payout-batches",
      headers: bearer(productionA.secret),
    });
    expect((ofProduction.body as { rows: unknown[] }).rows).to.deep.equal([]);
  });

  it("reconcile: consistent, then lists a planted fee discrepancy to its partner only", async () => {
    const clean = await get(partnerA, "/revenue/reconcile");
    expect(clean.status, clean.text).to.equal(200);
    expect(clean.body).to.deep.include({
      consistent: true,
      confirmedReservations: 3,
      accruedEntries: 3,
      discrepancies: [],
    });

    const planted = reservationsOfA[0] as string;
    await api.db.pool.query(
      "UPDATE partner_ledger_entries SET fee_amount = fee_amount + 1 WHERE reservation_id = $1",
      [planted],
    );
    const report = (await get(partnerA, "/revenue/reconcile")).body as {
      consistent: boolean;
      discrepancies: { kind: string; reservationId: string; feePaid: string; ledgerFeeAmount: string }[];
    };
    expect(report.consistent).to.equal(false);
    expect(report.discrepancies.map((found) => [found.kind, found.reservationId])).to.deep.equal([
      ["fee_mismatch", planted],
    ]);
    const found = report.discrepancies[0];
    expect(BigInt(found?.ledgerFeeAmount ?? 0)).to.equal(BigInt(found?.feePaid ?? 0) + 1n);
    expect((await get(partnerB, "/revenue/reconcile")).body).to.deep.include({ consistent: true });
  });

  it("each route needs its scope: a key without partner:revenue or partner:payout is refused", async () => {
    const narrow = await issueKey(api, "sandbox", { scopes: ["launch:validate"] });
    for (const path of ["/profile", "/revenue", "/reservations", "/payout-batches", "/revenue/reconcile"]) {
      expectEnvelope(await get(narrow, path), 403, "scope_missing");
    }
    const revenueOnly = await issueKey(api, "sandbox", { scopes: ["partner:revenue"] });
    expectEnvelope(
      await api.call({
        method: "POST",
        path: "/api/v1/partner/payout-wallets/verify/challenge",
        host: SANDBOX,
        headers: bearer(revenueOnly.secret),
        body: { chain: "hardhat", address: EVM_LAUNCHER },
      }),
      403,
      "scope_missing",
    );
  });
});
