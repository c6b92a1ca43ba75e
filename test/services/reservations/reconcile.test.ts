// The reconciler on the test database: mirror rows and checkpoints written as the indexers write them, time moved
// through `now`. Transaction outcomes against real chains are in reconcileChain.test.ts.
import { expect } from "chai";
import { ChainUnavailableError, type RegistryClient } from "../../../chains/registryClient";
import {
  EXPIRING_NOTICE_SECONDS,
  PREPARE_TTL_SECONDS,
  SUBMISSION_GRACE_SECONDS,
} from "../../../core/reservation";
import { reconcilePass, reconcileReservation } from "../../../services/reservations/reconcile";
import type { Reservation } from "../../../services/reservations/record";
import { recordSubmission } from "../../../services/reservations/submission";
import {
  catalogueOf,
  checkpoint,
  clearedTestDatabase,
  confirmWindow,
  current,
  DAY,
  depsAt,
  EVM_LAUNCHER,
  eventsOf,
  ledgerOf,
  mirrorHold,
  PARTNER,
  prepare,
  seconds,
  submit,
} from "./support";

const HASH_A = `0x${"ab".repeat(32)}`;
const HASH_B = `0x${"cd".repeat(32)}`;
const OTHER_LAUNCHER = "0x1111111111111111111111111111111111111111";
/** What a wallet shows: the EIP-55 checksum form of EVM_LAUNCHER (the mirror stores lowercase, a match is by value). */
const CHECKSUMMED = "0xABcdEF0123456789AbcDeF0123456789aBCDef01";

/** A registry stand-in for the RPC-down case only: every call fails as a node that does not answer. */
function unreachableRegistry(chain: string): RegistryClient {
  const down = async (): Promise<never> => {
    throw new ChainUnavailableError(chain, new Error("connect ECONNREFUSED"));
  };
  return {
    chain,
    family: "evm",
    simulated: false,
    guardTarget: null,
    quote: down,
    reservationOf: down,
    activeReservationCount: down,
    prepareTransaction: down,
    commitmentOf: down,
    stepOf: down,
    transactionOutcome: down,
    settlementOf: down,
    isTransactionHash: () => true,
  };
}

describe("reservations: reconciler", function () {
  this.timeout(60_000);
  const db = clearedTestDatabase();
  /** Ahead of the database clock, so rows written with now() are never in the reconciler's future. */
  let t0: Date;

  beforeEach(() => {
    t0 = new Date(Math.ceil(Date.now() / 1000) * 1000 + 60_000);
  });

  const passAt = (now: Date) => reconcilePass(depsAt(db.pool, () => now));
  /** The launcher's hold of the prepare, settled by HASH_A at t0 + 40 s, and a pass at t0 + 60 s that confirms it. */
  const confirmFromMirror = async (reservation: Reservation) => {
    await mirrorHold(db.pool, reservation, {
      launcher: EVM_LAUNCHER,
      reservedAt: seconds(t0, 40),
      expiresAt: seconds(t0, 40 + DAY),
      durationSeconds: DAY,
      feePaid: 900n,
      partnerRef: reservation.partnerRef,
      txHash: HASH_A,
    });
    await checkpoint(db.pool, "hardhat", "evm", seconds(t0, 60));
    expect(await passAt(seconds(t0, 60))).to.include({ confirmed: 1 });
  };

  describe("confirmation", () => {
    it("confirms a prepare its partnerRef settled, accrues the ledger at the fee charged and emits both events", async () => {
      const reservation = await prepare(db.pool, { preparedAt: t0 });
      await mirrorHold(db.pool, reservation, {
        launcher: EVM_LAUNCHER,
        reservedAt: seconds(t0, 60),
        expiresAt: seconds(t0, 60 + DAY),
        durationSeconds: DAY,
        feePaid: 1_234_567n,
        partnerRef: reservation.partnerRef,
        txHash: HASH_A,
      });

      const counts = await passAt(seconds(t0, 120));

      expect(counts.confirmed).to.equal(1);
      const confirmed = await current(db.pool, reservation);
      expect(confirmed.status).to.equal("confirmed");
      expect(confirmed.confirmedAt).to.deep.equal(seconds(t0, 120));
      expect(confirmed.startsAt).to.deep.equal(seconds(t0, 60));
      expect(confirmed.expiresAt).to.deep.equal(seconds(t0, 60 + DAY));
      expect(confirmed.feePaid).to.equal(1_234_567n);
      // 60 % partner share, rounded down.
      expect(await ledgerOf(db.pool, reservation.reservationId)).to.deep.equal({
        status: "accrued",
        feeAmount: "1234567",
        partnerAmount: "740740",
      });
      const events = await eventsOf(db.pool, reservation.reservationId);
      expect(events.map((event) => [event.type, event.partnerId, event.environment])).to.deep.equal([
        ["reservation.created", PARTNER, "production"],
        // The hold's protection is every partner's news (null: every endpoint), without the partner's reservation.
        ["identity.protected", null, "production"],
        ["revenue.accrued", PARTNER, "production"],
      ]);
      const view = events[0]?.payload.reservation as Record<string, unknown>;
      expect(view).to.include({ status: "confirmed", feePaid: "1234567", launcher: EVM_LAUNCHER });
      expect(events[1]?.payload).to.include({ source: "reservation", protectedUntil: view.expiresAt });
      expect(events[1]?.payload.hold).to.deep.equal({
        launcher: EVM_LAUNCHER,
        reservedAt: view.startsAt,
        expiresAt: view.expiresAt,
        durationSeconds: DAY,
        transactionHash: HASH_A,
        blockNumber: 1,
      });
      expect(JSON.stringify(events[1]?.payload)).to.not.include(reservation.reservationId.slice(4));
      expect(events[2]?.payload).to.include({
        feeAmount: "1234567",
        partnerAmount: "740740",
        partnerBps: 6000,
      });

      expect(await passAt(seconds(t0, 130))).to.include({ confirmed: 0 });
      expect(await eventsOf(db.pool, reservation.reservationId)).to.have.length(3);
    });

    it("confirms a submitted transaction by its hash, whatever the case of the wallet's address", async () => {
      const prepared = await prepare(db.pool, { preparedAt: t0, launcher: CHECKSUMMED.toLowerCase() });
      await submit(db.pool, prepared, HASH_A, seconds(t0, 30));
      await mirrorHold(db.pool, prepared, {
        launcher: CHECKSUMMED,
        reservedAt: seconds(t0, 40),
        expiresAt: seconds(t0, 40 + DAY),
        durationSeconds: DAY,
        feePaid: 900n,
        partnerRef: null,
        txHash: HASH_A.toUpperCase().replace("0X", "0x"),
      });

      expect((await passAt(seconds(t0, 60))).confirmed).to.equal(1);
      expect((await current(db.pool, prepared)).status).to.equal("confirmed");
    });

    it("confirms nothing for a hold of another launcher that carries the prepare's partnerRef", async () => {
      const reservation = await prepare(db.pool, { preparedAt: t0 });
      await mirrorHold(db.pool, reservation, {
        launcher: OTHER_LAUNCHER,
        reservedAt: seconds(t0, 60),
        expiresAt: seconds(t0, 60 + DAY),
        durationSeconds: DAY,
        feePaid: 900n,
        partnerRef: reservation.partnerRef,
        txHash: HASH_A,
      });

      expect((await passAt(seconds(t0, 120))).confirmed).to.equal(0);
      expect((await current(db.pool, reservation)).status).to.equal("pending_payment");
      expect(await ledgerOf(db.pool, reservation.reservationId)).to.include({ status: "draft" });
    });

    it("confirms an unattributed reservation without a ledger entry; an introductory one accrues a zero share", async () => {
      const unattributed = await prepare(db.pool, { preparedAt: t0, partnerId: null, ticker: "UNA" });
      const introductory = await prepare(db.pool, {
        preparedAt: t0,
        ticker: "INTRO",
        integratedAt: seconds(t0, -DAY),
      });
      for (const reservation of [unattributed, introductory]) {
        await mirrorHold(db.pool, reservation, {
          launcher: EVM_LAUNCHER,
          reservedAt: seconds(t0, 60),
          expiresAt: seconds(t0, 60 + DAY),
          durationSeconds: DAY,
          feePaid: 5_000n,
          partnerRef: reservation.partnerRef,
          txHash: HASH_A,
        });
      }

      expect((await passAt(seconds(t0, 120))).confirmed).to.equal(2);

      expect(await ledgerOf(db.pool, unattributed.reservationId)).to.equal(undefined);
      const unattributedEvents = await eventsOf(db.pool, unattributed.reservationId);
      // Attributed to nobody, so nobody's endpoint may receive its reservation events; its hold is public news.
      expect(unattributedEvents.map((event) => [event.type, event.partnerId])).to.deep.equal([
        ["identity.protected", null],
      ]);
      expect(await ledgerOf(db.pool, introductory.reservationId)).to.deep.equal({
        status: "accrued",
        feeAmount: "5000",
        partnerAmount: "0",
      });
      const introductoryEvents = await eventsOf(db.pool, introductory.reservationId);
      expect(introductoryEvents.map((event) => event.type)).to.deep.equal([
        "reservation.created",
        "identity.protected",
        "revenue.accrued",
      ]);
      expect(introductoryEvents[2]?.payload).to.include({ partnerAmount: "0", introductory: true });
    });

    it("answers one reservation with its freshest state (the API's status call)", async () => {
      const settled = await prepare(db.pool, { preparedAt: t0 });
      const waiting = await prepare(db.pool, { preparedAt: t0, ticker: "WAIT" });
      await mirrorHold(db.pool, settled, {
        launcher: EVM_LAUNCHER,
        reservedAt: seconds(t0, 60),
        expiresAt: seconds(t0, 60 + DAY),
        durationSeconds: DAY,
        feePaid: 77n,
        partnerRef: settled.partnerRef,
        txHash: HASH_A,
      });
      const deps = depsAt(db.pool, () => seconds(t0, 90));

      expect(await reconcileReservation(deps, settled.reservationId)).to.include({
        status: "confirmed",
        feePaid: 77n,
      });
      expect(await reconcileReservation(deps, waiting.reservationId)).to.include({
        status: "pending_payment",
      });
      expect(await reconcileReservation(deps, "res_00000000000000000000000000000000")).to.equal(undefined);
      expect((await eventsOf(db.pool, settled.reservationId)).map((event) => event.type)).to.deep.equal([
        "reservation.created",
        "identity.protected",
        "revenue.accrued",
      ]);
    });
  });

  describe("lapse and the freshness guard", () => {
    it("lapses a prepare only once a fresh mirror has seen past its lapse time; ledger void, no event", async () => {
      const reservation = await prepare(db.pool, { preparedAt: t0 });
      const lapsesAt = seconds(t0, PREPARE_TTL_SECONDS);
      const now = seconds(lapsesAt, 30);

      // Never indexed: no word on the chain at all.
      expect((await passAt(now)).lapsed).to.equal(0);
      // Indexed, but behind its 60 s freshness bound.
      await checkpoint(db.pool, "hardhat", "evm", seconds(now, -61));
      expect((await passAt(now)).lapsed).to.equal(0);
      // Fresh, but its data ends before the lapse time: a settlement just before it may not be indexed yet.
      await checkpoint(db.pool, "hardhat", "evm", seconds(lapsesAt, -5));
      expect((await passAt(now)).lapsed).to.equal(0);
      expect((await current(db.pool, reservation)).status).to.equal("pending_payment");

      await checkpoint(db.pool, "hardhat", "evm", seconds(lapsesAt, 5));
      expect((await passAt(now)).lapsed).to.equal(1);

      const lapsed = await current(db.pool, reservation);
      expect(lapsed).to.include({ status: "expired" });
      expect(lapsed.statusReason).to.match(/lapsed; prepare the reservation again/);
      expect(lapsed.finishedAt).to.deep.equal(now);
      expect(await ledgerOf(db.pool, reservation.reservationId)).to.include({ status: "void" });
      expect(await eventsOf(db.pool, reservation.reservationId)).to.deep.equal([]);
    });

    it("confirms instead of lapsing when the settlement is in the mirror by the time the prepare lapses", async () => {
      const reservation = await prepare(db.pool, { preparedAt: t0 });
      const now = seconds(t0, PREPARE_TTL_SECONDS + 30);
      await checkpoint(db.pool, "hardhat", "evm", now);
      await mirrorHold(db.pool, reservation, {
        launcher: EVM_LAUNCHER,
        reservedAt: seconds(t0, PREPARE_TTL_SECONDS - 1),
        expiresAt: seconds(t0, PREPARE_TTL_SECONDS - 1 + DAY),
        durationSeconds: DAY,
        feePaid: 10n,
        partnerRef: reservation.partnerRef,
        txHash: HASH_A,
      });

      expect(await passAt(now)).to.include({ confirmed: 1, lapsed: 0 });
    });

    it("fails no submitted transaction while the chain's RPC does not answer", async () => {
      const prepared = await prepare(db.pool, { preparedAt: t0 });
      const submitted = await submit(db.pool, prepared, HASH_B, seconds(t0, 10));
      const now = seconds(t0, 10 + SUBMISSION_GRACE_SECONDS + 60);
      await checkpoint(db.pool, "hardhat", "evm", now);
      const deps = depsAt(db.pool, () => now, catalogueOf(unreachableRegistry("hardhat")));

      const counts = await reconcilePass(deps);

      expect(counts).to.include({ failed: 0, chainUnavailable: 1 });
      expect(await reconcileReservation(deps, submitted.reservationId)).to.include({ status: "submitted" });
      expect(await ledgerOf(db.pool, submitted.reservationId)).to.include({ status: "draft" });
    });
  });

  describe("confirmed windows", () => {
    it("sends one expiring notice per window, follows renewals, and ends the window once the mirror covers its end", async () => {
      const reservation = await prepare(db.pool, { preparedAt: t0 });
      const end = seconds(t0, 60 + DAY);
      await mirrorHold(db.pool, reservation, {
        launcher: EVM_LAUNCHER,
        reservedAt: seconds(t0, 60),
        expiresAt: end,
        durationSeconds: DAY,
        feePaid: 100n,
        partnerRef: reservation.partnerRef,
        txHash: HASH_A,
      });
      await passAt(seconds(t0, 90));
      const types = async () =>
        (await eventsOf(db.pool, reservation.reservationId)).map((event) => event.type);

      expect(await passAt(seconds(end, -EXPIRING_NOTICE_SECONDS - 60))).to.include({ expiring: 0 });
      expect(await passAt(seconds(end, -EXPIRING_NOTICE_SECONDS + 1))).to.include({ expiring: 1 });
      expect(await passAt(seconds(end, -EXPIRING_NOTICE_SECONDS + 3600))).to.include({ expiring: 0 });
      expect(await types()).to.deep.equal([
        "reservation.created",
        "identity.protected",
        "revenue.accrued",
        "reservation.expiring",
      ]);

      // The launcher renews on-chain: the mirror's expiry moves one more day, its fee becomes a running total.
      const renewedEnd = seconds(end, DAY);
      await mirrorHold(db.pool, reservation, {
        launcher: EVM_LAUNCHER,
        reservedAt: seconds(t0, 60),
        expiresAt: renewedEnd,
        durationSeconds: 2 * DAY,
        feePaid: 200n,
        partnerRef: reservation.partnerRef,
        txHash: HASH_B,
      });
      expect(await passAt(seconds(end, -600))).to.include({ extended: 1, expiring: 0 });
      const renewed = await current(db.pool, reservation);
      expect(renewed.expiresAt).to.deep.equal(renewedEnd);
      expect(renewed.feePaid).to.equal(100n);

      expect(await passAt(seconds(renewedEnd, -EXPIRING_NOTICE_SECONDS + 1))).to.include({ expiring: 1 });

      // Past the end, the mirror behind: a renewal could be missing from it, so the window stays open.
      const after = seconds(renewedEnd, 30);
      await checkpoint(db.pool, "hardhat", "evm", seconds(renewedEnd, -10));
      expect(await passAt(after)).to.include({ expired: 0 });
      await checkpoint(db.pool, "hardhat", "evm", seconds(renewedEnd, 5));
      expect(await passAt(after)).to.include({ expired: 1 });

      const expired = await current(db.pool, reservation);
      expect(expired).to.include({ status: "expired" });
      expect(expired.finishedAt).to.deep.equal(after);
      expect(await ledgerOf(db.pool, reservation.reservationId)).to.include({ status: "accrued" });
      expect(await types()).to.deep.equal([
        "reservation.created",
        "identity.protected",
        "revenue.accrued",
        "reservation.expiring",
        "reservation.expiring",
        "reservation.expired",
      ]);
      const last = (await eventsOf(db.pool, reservation.reservationId)).at(-1);
      expect(last?.partnerId).to.equal(PARTNER);
      expect(last?.payload.reservation).to.include({
        status: "expired",
        expiresAt: renewedEnd.toISOString(),
      });
    });

    it("does not take a new hold of the pair by the same launcher, after the window ended, for a renewal", async () => {
      const reservation = await prepare(db.pool, { preparedAt: t0 });
      const end = seconds(t0, DAY);
      await confirmWindow(db.pool, reservation, t0, end);
      await mirrorHold(db.pool, reservation, {
        launcher: EVM_LAUNCHER,
        reservedAt: seconds(end, 10),
        expiresAt: seconds(end, 10 + DAY),
        durationSeconds: DAY,
        feePaid: 100n,
        partnerRef: null,
        txHash: HASH_B,
      });
      const now = seconds(end, 60);
      await checkpoint(db.pool, "hardhat", "evm", now);

      expect(await passAt(now)).to.include({ extended: 0, expired: 1 });
      expect((await current(db.pool, reservation)).expiresAt).to.deep.equal(end);
    });
  });

  describe("a confirmation a reorg took out of the chain", () => {
    it("reopens it once the mirror is fresh again without its hold, and confirms it again where the chain mined it again", async () => {
      const reservation = await submit(
        db.pool,
        await prepare(db.pool, { preparedAt: t0 }),
        HASH_A,
        seconds(t0, 30),
      );
      const minedAt = (at: Date) => ({
        launcher: EVM_LAUNCHER,
        reservedAt: at,
        expiresAt: seconds(at, DAY),
        durationSeconds: DAY,
        feePaid: 900n,
        partnerRef: reservation.partnerRef,
        txHash: HASH_A,
      });
      await mirrorHold(db.pool, reservation, minedAt(seconds(t0, 40)));
      await checkpoint(db.pool, "hardhat", "evm", seconds(t0, 60));
      expect(await passAt(seconds(t0, 60))).to.include({ confirmed: 1 });
      const eventsBefore = await eventsOf(db.pool, reservation.reservationId);

      // The revert, as the EVM trigger makes it: the row out, the checkpoint set back (rewound_from) in one go.
      await db.pool.query("DELETE FROM chain_reservations");
      await db.pool.query("UPDATE chain_checkpoints SET indexed_number = 90, rewound_from = 100");
      expect(await passAt(seconds(t0, 70))).to.include({ reopened: 0 });
      expect((await current(db.pool, reservation)).status).to.equal("confirmed");

      // Indexed again as far as it had, on the new branch, which lacks the transaction.
      await checkpoint(db.pool, "hardhat", "evm", seconds(t0, 80));
      await db.pool.query("UPDATE chain_checkpoints SET indexed_number = 100");
      expect(await passAt(seconds(t0, 80))).to.include({ reopened: 1 });
      const reopened = await current(db.pool, reservation);
      expect(reopened).to.include({
        status: "submitted",
        transactionHash: HASH_A,
        confirmedAt: null,
        startsAt: null,
        expiresAt: null,
        feePaid: null,
      });
      expect(reopened.submittedAt).to.deep.equal(seconds(t0, 80));
      expect(reopened.statusReason).to.match(/no longer holds the transaction/);
      expect(await ledgerOf(db.pool, reservation.reservationId)).to.include({ status: "draft" });
      expect(await eventsOf(db.pool, reservation.reservationId)).to.deep.equal(eventsBefore);

      // The same transaction mined again in a later block: confirmed again, with that block's window.
      await mirrorHold(db.pool, reservation, minedAt(seconds(t0, 85)));
      await checkpoint(db.pool, "hardhat", "evm", seconds(t0, 90));
      expect(await passAt(seconds(t0, 90))).to.include({ confirmed: 1, reopened: 0 });
      const again = await current(db.pool, reservation);
      expect(again).to.include({ status: "confirmed" });
      expect(again.startsAt).to.deep.equal(seconds(t0, 85));
      expect(await ledgerOf(db.pool, reservation.reservationId)).to.include({ status: "accrued" });
    });

    it("records a hash reported after the mirror confirmed the prepare only when the launcher's hold carries it; a reorg then waits for that transaction", async () => {
      const reservation = await prepare(db.pool, { preparedAt: t0 });
      await confirmFromMirror(reservation);
      const registry = unreachableRegistry("hardhat");
      const report = async (hash: string) =>
        (
          await recordSubmission(
            db.pool,
            registry,
            await current(db.pool, reservation),
            hash,
            seconds(t0, 65),
          )
        ).reservation;

      expect(await report(HASH_B), "not the hold's transaction").to.include({
        status: "confirmed",
        transactionHash: null,
      });
      await db.pool.query("UPDATE chain_reservations SET launcher = $1", [OTHER_LAUNCHER]);
      expect(await report(HASH_A), "the transaction of another launcher's hold").to.include({
        transactionHash: null,
      });
      await db.pool.query("UPDATE chain_reservations SET launcher = $1", [EVM_LAUNCHER]);
      const upper = `0x${HASH_A.slice(2).toUpperCase()}`;
      expect(await report(upper), "the hold's, in any case").to.include({
        status: "confirmed",
        transactionHash: upper,
      });
      expect(await report(HASH_B), "the first recorded stands").to.include({ transactionHash: upper });

      await db.pool.query("DELETE FROM chain_reservations");
      await checkpoint(db.pool, "hardhat", "evm", seconds(t0, 80));
      expect(await passAt(seconds(t0, 80))).to.include({ reopened: 1 });
      expect(await current(db.pool, reservation)).to.include({ status: "submitted", transactionHash: upper });
    });
  });

  describe("a report racing the reconciler", () => {
    it("records the reveal's hash when the reconciler confirmed the reservation from the mirror after the report read it", async () => {
      const reservation = await prepare(db.pool, { preparedAt: t0 });
      // As the report read it: the commitment recorded, the reveal not yet.
      const asReported = { ...reservation, commitTransactionHash: HASH_B };
      await confirmFromMirror(reservation);
      const registry: RegistryClient = { ...unreachableRegistry("hardhat"), stepOf: async () => "reserve" };

      const { reservation: answered } = await recordSubmission(
        db.pool,
        registry,
        asReported,
        HASH_A,
        seconds(t0, 65),
      );

      expect(answered).to.include({ status: "confirmed", transactionHash: HASH_A });
      expect(await current(db.pool, reservation)).to.include({
        status: "confirmed",
        transactionHash: HASH_A,
      });
    });
  });

  describe("sandbox", () => {
    it("a window whose holder launched the pair in it ends without reservation.expired; another wallet's launch does not count", async () => {
      const launched = await prepare(db.pool, {
        preparedAt: t0,
        environment: "sandbox",
        simulated: true,
        ticker: "LNCH",
      });
      const copied = await prepare(db.pool, {
        preparedAt: t0,
        environment: "sandbox",
        simulated: true,
        ticker: "COPY",
      });
      const end = seconds(t0, DAY);
      for (const reservation of [launched, copied]) await confirmWindow(db.pool, reservation, t0, end);
      const report = (reservation: typeof launched, launcher: string) =>
        db.pool.query(
          `INSERT INTO identity_launches (environment, identity_key, chain, launcher, token_or_mint, launchpad, reported_at)
           VALUES ('sandbox', $1, $2, $3, '0xtoken', 'pad', $4)`,
          [reservation.identityKey, reservation.chain, launcher, seconds(t0, 3600)],
        );
      // The holder's address as another client wrote it (EVM addresses compare case-blind).
      await report(launched, launched.launcher.toUpperCase().replace("0X", "0x"));
      await report(copied, "0x2222222222222222222222222222222222222222");

      await passAt(seconds(end, 1));
      for (const reservation of [launched, copied]) {
        expect(await current(db.pool, reservation)).to.include({ status: "expired" });
      }
      const typesOf = async (reservation: typeof launched) =>
        (await eventsOf(db.pool, reservation.reservationId)).map((event) => event.type);
      expect(await typesOf(launched)).to.not.include("reservation.expired");
      expect(await typesOf(copied)).to.include("reservation.expired");
    });

    it("sweeps simulated reservations without any chain: prepares lapse, confirmed windows get their notice and end", async () => {
      const lapsing = await prepare(db.pool, { preparedAt: t0, environment: "sandbox", simulated: true });
      const held = await prepare(db.pool, {
        preparedAt: t0,
        environment: "sandbox",
        simulated: true,
        ticker: "HELD",
      });
      const end = seconds(t0, DAY);
      await confirmWindow(db.pool, held, t0, end);

      expect(await passAt(seconds(t0, PREPARE_TTL_SECONDS + 1))).to.include({ lapsed: 1 });
      expect(await current(db.pool, lapsing)).to.include({ status: "expired" });
      expect(await ledgerOf(db.pool, lapsing.reservationId)).to.include({ status: "void" });

      expect(await passAt(seconds(end, -EXPIRING_NOTICE_SECONDS + 1))).to.include({ expiring: 1 });
      expect(await passAt(end)).to.include({ expired: 1 });
      const events = await eventsOf(db.pool, held.reservationId);
      expect(events.map((event) => [event.type, event.environment])).to.deep.equal([
        ["reservation.expiring", "sandbox"],
        ["reservation.expired", "sandbox"],
      ]);
    });

    it("never confirms a simulated prepare from production chain state", async () => {
      const simulated = await prepare(db.pool, { preparedAt: t0, environment: "sandbox", simulated: true });
      await mirrorHold(db.pool, simulated, {
        launcher: EVM_LAUNCHER,
        reservedAt: seconds(t0, 60),
        expiresAt: seconds(t0, 60 + DAY),
        durationSeconds: DAY,
        feePaid: 1n,
        partnerRef: simulated.partnerRef,
        txHash: HASH_A,
      });

      expect(await passAt(seconds(t0, 120))).to.include({ confirmed: 0 });
      expect(await current(db.pool, simulated)).to.include({ status: "pending_payment" });
    });
  });

  describe("replicas", () => {
    it("concurrent passes confirm each settled reservation exactly once", async () => {
      const reservations = [];
      for (let index = 0; index < 40; index++) {
        const reservation = await prepare(db.pool, { preparedAt: t0, ticker: `CC${index}X` });
        await mirrorHold(db.pool, reservation, {
          launcher: EVM_LAUNCHER,
          reservedAt: seconds(t0, 60),
          expiresAt: seconds(t0, 60 + DAY),
          durationSeconds: DAY,
          feePaid: 1_000n + BigInt(index),
          partnerRef: reservation.partnerRef,
          txHash: HASH_A,
        });
        reservations.push(reservation);
      }

      const passes = await Promise.all([1, 2, 3, 4].map(() => passAt(seconds(t0, 120))));

      expect(passes.reduce((sum, counts) => sum + counts.confirmed, 0)).to.equal(40);
      for (const reservation of reservations) {
        const types = (await eventsOf(db.pool, reservation.reservationId)).map((event) => event.type);
        expect(types).to.deep.equal(["reservation.created", "identity.protected", "revenue.accrued"]);
        expect(await ledgerOf(db.pool, reservation.reservationId)).to.include({ status: "accrued" });
      }
    });
  });
});
