// The reservation rules in core/reservation: revenue-share snapshot around the introductory period, the
// partner's rounding, the on-chain partner reference, status transitions and the renewal window.
import { expect } from "chai";
import {
  canTransition,
  isFinal,
  isInRenewalWindow,
  isIntroductoryPeriodDays,
  isPartnerBps,
  newReservationId,
  partnerAmountOf,
  partnerRefOf,
  RESERVATION_STATUSES,
  revenueShareSnapshot,
} from "../../core/reservation";

const DAY_MS = 86_400_000;
const integrated = new Date("2026-01-01T00:00:00.000Z");
const standard = { partnerBps: 6000, integrationStartedAt: integrated, introductoryPeriodDays: 30 };

describe("core: reservation rules", () => {
  describe("revenue share", () => {
    it("keeps the whole fee for the service during the partner's first 30 days", () => {
      const snapshot = revenueShareSnapshot(
        "ptn_a",
        standard,
        new Date(integrated.getTime() + 30 * DAY_MS - 1),
      );
      expect(snapshot).to.include({ partnerBps: 0, serviceBps: 10_000, introductory: true });
      expect(snapshot.introductoryEndsAt).to.equal("2026-01-31T00:00:00.000Z");
      expect(snapshot).to.include({ standardPartnerBps: 6000, standardServiceBps: 4000 });
    });

    it("applies 6000/4000 from the end of the introductory period on", () => {
      const snapshot = revenueShareSnapshot("ptn_a", standard, new Date(integrated.getTime() + 30 * DAY_MS));
      expect(snapshot).to.include({ partnerBps: 6000, serviceBps: 4000, introductory: false });
    });

    it("applies the split of the partner's own row after its introductory period", () => {
      const snapshot = revenueShareSnapshot(
        "ptn_a",
        { ...standard, partnerBps: 7500 },
        new Date(integrated.getTime() + 31 * DAY_MS),
      );
      expect(snapshot).to.include({
        partnerBps: 7500,
        serviceBps: 2500,
        standardPartnerBps: 7500,
        standardServiceBps: 2500,
        introductory: false,
      });
    });

    it("runs the partner's own introductory period: 0 days applies its split at once, 90 days keeps it at zero longer", () => {
      const none = revenueShareSnapshot("ptn_a", { ...standard, introductoryPeriodDays: 0 }, integrated);
      expect(none).to.include({ partnerBps: 6000, serviceBps: 4000, introductory: false });
      expect(none.introductoryEndsAt).to.equal(integrated.toISOString());
      const long = { ...standard, introductoryPeriodDays: 90 };
      const day89 = revenueShareSnapshot("ptn_a", long, new Date(integrated.getTime() + 89 * DAY_MS));
      expect(day89).to.include({
        partnerBps: 0,
        introductory: true,
        introductoryEndsAt: "2026-04-01T00:00:00.000Z",
      });
      const day90 = revenueShareSnapshot("ptn_a", long, new Date(integrated.getTime() + 90 * DAY_MS));
      expect(day90).to.include({ partnerBps: 6000, introductory: false });
    });

    it("bounds what an operator may set: 0-10000 bps, 0-365 days, whole numbers", () => {
      expect([0, 6000, 10_000].every(isPartnerBps)).to.equal(true);
      expect([-1, 10_001, 60.5, Number.NaN].some(isPartnerBps)).to.equal(false);
      expect([0, 30, 365].every(isIntroductoryPeriodDays)).to.equal(true);
      expect([-1, 366, 1.5, Number.NaN].some(isIntroductoryPeriodDays)).to.equal(false);
    });

    it("gives no share to a partner with no integration in the environment", () => {
      const snapshot = revenueShareSnapshot("ptn_a", { ...standard, integrationStartedAt: null }, integrated);
      expect(snapshot).to.include({ partnerBps: 0, serviceBps: 10_000, introductoryEndsAt: null });
    });

    it("gives no partner share to an unattributed reservation", () => {
      expect(revenueShareSnapshot(null, null, integrated)).to.include({
        partnerId: null,
        partnerBps: 0,
        serviceBps: 10_000,
        introductory: false,
      });
    });

    it("rounds the partner's part down, leaving the remainder with the service", () => {
      const snapshot = revenueShareSnapshot("ptn_a", standard, new Date(integrated.getTime() + 40 * DAY_MS));
      expect(partnerAmountOf(33_333_334n, snapshot)).to.equal(20_000_000n);
      expect(partnerAmountOf(1n, snapshot)).to.equal(0n);
    });
  });

  it("carries the reservation id in the first 16 bytes of the 32-byte partner reference", () => {
    const id = newReservationId();
    const ref = partnerRefOf(id);
    expect(ref).to.match(/^0x[0-9a-f]{64}$/);
    expect(ref.slice(2, 34)).to.equal(id.slice(4));
    expect(ref.slice(34)).to.equal("0".repeat(32));
    expect(() => partnerRefOf("res_XYZ")).to.throw(TypeError);
  });

  it("allows only the spec's reservation transitions", () => {
    expect(canTransition("pending_payment", "submitted")).to.equal(true);
    expect(canTransition("submitted", "confirmed")).to.equal(true);
    expect(canTransition("submitted", "failed")).to.equal(true);
    expect(canTransition("confirmed", "expired")).to.equal(true);
    expect(canTransition("confirmed", "failed")).to.equal(false);
    expect(canTransition("failed", "confirmed")).to.equal(false);
    expect(canTransition("expired", "confirmed")).to.equal(false);
    expect(RESERVATION_STATUSES.filter(isFinal)).to.deep.equal(["failed", "expired"]);
  });

  it("lets a confirmation a reorg undid go back to awaiting its settlement, and nowhere else", () => {
    expect(canTransition("confirmed", "submitted")).to.equal(true);
    expect(canTransition("confirmed", "pending_payment")).to.equal(true);
    expect(canTransition("confirmed", "failed")).to.equal(false);
  });

  it("opens renewal in the last 12 hours of a live window only", () => {
    const expiresAt = new Date("2026-02-01T12:00:00.000Z");
    const at = (hoursBefore: number) => new Date(expiresAt.getTime() - hoursBefore * 3_600_000);
    expect(isInRenewalWindow(expiresAt, at(12.001))).to.equal(false);
    expect(isInRenewalWindow(expiresAt, at(12))).to.equal(true);
    expect(isInRenewalWindow(expiresAt, at(0.001))).to.equal(true);
    expect(isInRenewalWindow(expiresAt, at(0))).to.equal(false);
  });
});
