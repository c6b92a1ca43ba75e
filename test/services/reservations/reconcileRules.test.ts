// The reconciler's decisions from evidence alone: the cases that are hard to stage on a chain.
import { expect } from "chai";
import { normalizeIdentity } from "../../../core/fold";
import {
  newReservationId,
  partnerRefOf,
  revenueShareSnapshot,
  SUBMISSION_GRACE_SECONDS,
} from "../../../core/reservation";
import {
  type ChainHold,
  decide,
  type Evidence,
  mirrorCutoff,
} from "../../../services/reservations/reconcileRules";
import { type Reservation, UNPAID_OUTCOME } from "../../../services/reservations/record";

const T = new Date("2030-01-01T00:00:00Z");
const DAY = 86_400;
const at = (offsetSeconds: number) => new Date(T.getTime() + offsetSeconds * 1000);
const SOL_LAUNCHER = "4P1kx8H2nHkzxo7WceTozeJiAA2pTF2n14RKqBMKfazZ";
const SIGNATURE = "5".repeat(88);

function reservation(overrides: Partial<Reservation> = {}): Reservation {
  const id = newReservationId();
  const identity = normalizeIdentity("Rules", "RUL");
  return {
    reservationId: id,
    environment: "production",
    partnerId: "p",
    apiKeyId: null,
    launchpad: null,
    source: "partner",
    chain: "solana",
    family: "solana",
    kind: "reserve",
    identityKey: identity.identityKey,
    normalizedName: identity.normalizedName,
    normalizedTicker: identity.normalizedTicker,
    nameHash: identity.nameHash,
    tickerHash: identity.tickerHash,
    launcher: SOL_LAUNCHER,
    durationSeconds: DAY,
    partnerRef: partnerRefOf(id),
    usdMicros: 5_000_000n,
    quoteAmount: 33_000_000n,
    quoteUnit: "lamports",
    quoteExpiresAt: at(600),
    simulated: false,
    transaction: {
      family: "solana",
      tx: "",
      feePayer: SOL_LAUNCHER,
      recentBlockhash: "",
      lastValidBlockHeight: 0,
    },
    reveal: {
      transaction: {
        family: "solana",
        tx: "",
        feePayer: SOL_LAUNCHER,
        recentBlockhash: "",
        lastValidBlockHeight: 0,
      },
      commitment: `0x${"c0".repeat(32)}`,
      minCommitmentAge: { slots: 1 },
      maxCommitmentAgeSeconds: DAY,
    },
    commitTransactionHash: null,
    commitSubmittedAt: null,
    revenueShare: revenueShareSnapshot(
      "p",
      { partnerBps: 6000, integrationStartedAt: new Date(0), introductoryPeriodDays: 30 },
      T,
    ),
    status: "pending_payment",
    statusReason: null,
    preparedAt: T,
    lapsesAt: at(900),
    ...UNPAID_OUTCOME,
    ...overrides,
  };
}

function hold(subject: Reservation, overrides: Partial<ChainHold> = {}): ChainHold {
  return {
    launcher: subject.launcher,
    reservedAt: at(60),
    expiresAt: at(60 + DAY),
    durationSeconds: DAY,
    feePaid: 30_000_000n,
    partnerRef: subject.partnerRef,
    txHash: "other",
    ...overrides,
  };
}

const fresh = (dataAsOf: Date): Pick<Evidence, "cutoff"> => ({ cutoff: dataAsOf });

describe("reservations: reconcile rules", () => {
  it("takes the mirror's cutoff only from a fresh chain", () => {
    expect(mirrorCutoff({ state: "fresh", dataAsOf: T })).to.equal(T);
    expect(mirrorCutoff({ state: "behind", dataAsOf: T })).to.equal(null);
    expect(mirrorCutoff({ state: "not_started", dataAsOf: null })).to.equal(null);
  });

  it("compares Solana launchers exactly", () => {
    const subject = reservation();
    const other = hold(subject, { launcher: SOL_LAUNCHER.toLowerCase() });
    expect(decide(subject, { hold: other, ...fresh(at(100)) }, at(100)).kind).to.equal("wait");
    expect(decide(subject, { hold: hold(subject), ...fresh(at(100)) }, at(100))).to.deep.equal({
      kind: "confirm",
      startsAt: at(60),
      expiresAt: at(60 + DAY),
      feePaid: 30_000_000n,
    });
  });

  it("reads the fee from the chain when the hold was renewed before the reserve was seen", () => {
    const subject = reservation({ status: "submitted", transactionHash: SIGNATURE, submittedAt: at(30) });
    const renewed = hold(subject, { durationSeconds: 2 * DAY, expiresAt: at(60 + 2 * DAY), feePaid: 70n });
    const evidence = { hold: renewed, ...fresh(at(100)) };
    expect(decide(subject, evidence, at(100))).to.deep.equal({ kind: "ask_chain" });

    const settlement = {
      kind: "reserve" as const,
      nameHash: subject.nameHash,
      tickerHash: subject.tickerHash,
      launcher: SOL_LAUNCHER,
      expiresAt: at(60 + DAY),
      feePaid: 31n,
    };
    const chain = {
      state: "answered" as const,
      outcome: { state: "succeeded" as const, blockNumber: 9 },
      settlement,
    };
    expect(decide(subject, { ...evidence, chain }, at(100))).to.deep.equal({
      kind: "confirm",
      startsAt: at(60),
      expiresAt: at(60 + 2 * DAY),
      feePaid: 31n,
    });
    // Nobody posted a hash: the quote stands in for the fee nobody can read.
    const unposted = reservation();
    expect(
      decide(unposted, { hold: hold(unposted, { durationSeconds: 2 * DAY }), cutoff: null }, at(100)),
    ).to.include({
      kind: "confirm",
      feePaid: 33_000_000n,
    });
  });

  it("confirms a renewal whose hash a later renewal replaced in the mirror, at its own fee", () => {
    const previousEnd = at(DAY);
    const subject = reservation({
      kind: "renew",
      reveal: null,
      status: "submitted",
      transactionHash: SIGNATURE,
      submittedAt: at(DAY - 3600),
    });
    const settlement = {
      kind: "renew" as const,
      nameHash: subject.nameHash,
      tickerHash: subject.tickerHash,
      launcher: SOL_LAUNCHER,
      expiresAt: at(2 * DAY),
      feePaid: 40n,
    };
    const later = hold(subject, {
      expiresAt: at(3 * DAY),
      durationSeconds: 3 * DAY,
      txHash: "later",
      partnerRef: null,
    });
    const chain = {
      state: "answered" as const,
      outcome: { state: "succeeded" as const, blockNumber: 9 },
      settlement,
    };
    expect(decide(subject, { hold: later, cutoff: null, chain }, at(DAY - 60))).to.deep.equal({
      kind: "confirm",
      startsAt: previousEnd,
      expiresAt: at(3 * DAY),
      feePaid: 40n,
    });
  });

  it("fails a transaction that succeeded without making this reservation, and only behind a fresh mirror", () => {
    const subject = reservation({ status: "submitted", transactionHash: SIGNATURE, submittedAt: at(30) });
    const chain = {
      state: "answered" as const,
      outcome: { state: "succeeded" as const, blockNumber: 9 },
      settlement: null,
    };
    expect(decide(subject, { hold: undefined, cutoff: null, chain }, at(60)).kind).to.equal("wait");
    const failed = decide(subject, { hold: undefined, cutoff: at(50), chain }, at(60));
    expect(failed.kind).to.equal("fail");
    expect(failed)
      .to.have.property("reason")
      .that.matches(/made no reserve of RULES::RUL/);
  });

  it("waits for the grace period before failing a transaction no node knows", () => {
    const subject = reservation({ status: "submitted", transactionHash: SIGNATURE, submittedAt: at(30) });
    const chain = { state: "answered" as const, outcome: { state: "not_found" as const }, settlement: null };
    const deadline = 30 + SUBMISSION_GRACE_SECONDS;
    expect(decide(subject, { hold: undefined, cutoff: at(deadline), chain }, at(deadline - 1)).kind).to.equal(
      "wait",
    );
    expect(decide(subject, { hold: undefined, cutoff: at(deadline), chain }, at(deadline)).kind).to.equal(
      "fail",
    );
  });

  describe("a confirmation whose settlement a reorg took out", () => {
    /** Confirmed from `hold(subject)`: its window is the hold's. */
    const confirmed = (overrides: Partial<Reservation> = {}) =>
      reservation({
        status: "confirmed",
        confirmedAt: at(90),
        startsAt: at(60),
        expiresAt: at(60 + DAY),
        ...overrides,
      });

    it("sends a reserve back to submitted, its grace counted from now, once a fresh mirror lacks its hold", () => {
      const subject = confirmed({ transactionHash: SIGNATURE, submittedAt: at(30) });
      const reason = /no longer holds the transaction that confirmed this reservation/;
      for (const lost of [undefined, hold(subject, { reservedAt: at(61), expiresAt: at(61 + DAY) })]) {
        const action = decide(subject, { hold: lost, ...fresh(at(500)) }, at(500));
        expect(action).to.deep.include({ kind: "reopen", to: "submitted", submittedAt: at(500) });
        expect(action).to.have.property("reason").that.matches(reason);
      }
    });

    it("sends a reserve nobody posted a hash for back to pending_payment, lapsing a grace period from now", () => {
      const subject = confirmed();
      expect(decide(subject, { hold: undefined, ...fresh(at(500)) }, at(500))).to.deep.include({
        kind: "reopen",
        to: "pending_payment",
        lapsesAt: at(500 + SUBMISSION_GRACE_SECONDS),
      });
    });

    it("keeps the confirmation while the mirror is behind, once the window has ended, and in the sandbox", () => {
      const subject = confirmed({ transactionHash: SIGNATURE, submittedAt: at(30) });
      expect(decide(subject, { hold: undefined, cutoff: null }, at(500)).kind).to.equal("wait");
      const ended = at(60 + DAY + 1);
      expect(decide(subject, { hold: undefined, ...fresh(ended) }, ended).kind).to.equal("expire");
      const simulated = confirmed({ simulated: true });
      expect(decide(simulated, { hold: undefined, ...fresh(at(500)) }, at(500)).kind).to.equal("wait");
    });

    it("keeps a reserve whose hold was renewed since, and a renewal while the hold ends at or past its own end", () => {
      const subject = confirmed({ transactionHash: SIGNATURE, submittedAt: at(30) });
      const renewed = hold(subject, {
        expiresAt: at(60 + 2 * DAY),
        durationSeconds: 2 * DAY,
        txHash: "renewal",
      });
      expect(decide(subject, { hold: renewed, ...fresh(at(500)) }, at(500)).kind).to.equal("track");

      const renewal = confirmed({
        kind: "renew",
        transactionHash: SIGNATURE,
        submittedAt: at(DAY - 3600),
        startsAt: at(60 + DAY),
        expiresAt: at(60 + 2 * DAY),
      });
      const now = at(DAY);
      expect(decide(renewal, { hold: renewed, ...fresh(now) }, now).kind).to.equal("wait");
      // The renewal's block reorged away: the hold ends where it ended before the renewal.
      expect(decide(renewal, { hold: hold(subject), ...fresh(now) }, now)).to.deep.include({
        kind: "reopen",
        to: "submitted",
      });
    });
  });
});
