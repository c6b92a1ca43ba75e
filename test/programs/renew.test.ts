// renew: only the holder, only in the 12 hours before expiry, extends from the old expiry and pays the tier. It
// needs no commitment: nobody but the holder can renew, so there is nothing to front-run.
import { BN, EventParser } from "@coral-xyz/anchor";
import { expect } from "chai";
import { DEFAULT_TIER_PRICES_USD_MICROS } from "../../core/reservation";
import { feeLamports, RENEWAL_WINDOW_SECONDS } from "../../scripts/solana/registry";
import { expectProgramError } from "./support/errors";
import {
  advanceTo,
  DAY,
  deployedRegistry,
  type Fixture,
  fundedWallet,
  renewCall,
  reservationKeys,
  reserveCall,
  SOL_PRICE,
  START_TIME,
} from "./support/fixture";

const EXPIRES_AT = START_TIME + BigInt(DAY);
const WINDOW_OPENS = EXPIRES_AT - BigInt(RENEWAL_WINDOW_SECONDS);

describe("program: renew", () => {
  let fixture: Fixture;
  let holder: ReturnType<typeof fundedWallet>;
  beforeEach(async () => {
    fixture = await deployedRegistry();
    holder = fundedWallet(fixture);
    await reserveCall(fixture, holder, "pepe", "pepe", DAY).rpc();
  });

  it("refuses one second before the 12-hour window opens", async () => {
    await advanceTo(fixture, WINDOW_OPENS - 1n);
    await expectProgramError(renewCall(fixture, holder, "pepe", "pepe").rpc(), "RenewalWindowClosed");
  });

  it("renews at the first second of the window, extending from the old expiry, and emits ReservationRenewed", async () => {
    await advanceTo(fixture, WINDOW_OPENS);
    await renewCall(fixture, holder, "pepe", "pepe", 7 * DAY).rpc();
    const keys = reservationKeys(fixture, holder.publicKey, "pepe", "pepe");
    const reservation = await fixture.program.account.reservation.fetch(keys.reservation);
    expect(reservation.expiresAt.toString()).to.equal((EXPIRES_AT + BigInt(7 * DAY)).toString());
    const wallet = await fixture.program.account.walletState.fetch(keys.wallet);
    expect(wallet.slots[0]?.expiresAt.toString()).to.equal(reservation.expiresAt.toString());
    const events = [
      ...new EventParser(fixture.programId, fixture.program.coder).parseLogs(
        fixture.provider.last?.logs ?? [],
      ),
    ];
    expect(events.map((event) => event.name)).to.deep.equal(["reservationRenewed"]);
    const data = events[0]?.data as Record<string, { toString(): string }>;
    expect(data.previousExpiresAt?.toString()).to.equal(EXPIRES_AT.toString());
    expect(data.expiresAt?.toString()).to.equal(reservation.expiresAt.toString());
    const fee = feeLamports(DEFAULT_TIER_PRICES_USD_MICROS[2], SOL_PRICE.price, SOL_PRICE.exponent);
    expect(data.feeLamports?.toString()).to.equal(fee.toString());
  });

  it("renews at the last second before expiry", async () => {
    await advanceTo(fixture, EXPIRES_AT - 1n);
    await renewCall(fixture, holder, "pepe", "pepe").rpc();
  });

  it("refuses at the expiry second and after: the reservation is over, reserve it again instead", async () => {
    await advanceTo(fixture, EXPIRES_AT);
    await expectProgramError(renewCall(fixture, holder, "pepe", "pepe").rpc(), "RenewalWindowClosed");
  });

  it("refuses a wallet that does not hold the reservation", async () => {
    const other = fundedWallet(fixture);
    await reserveCall(fixture, other, "other", "OTHER").rpc();
    await advanceTo(fixture, WINDOW_OPENS);
    await expectProgramError(renewCall(fixture, other, "pepe", "pepe").rpc(), "NotReservationHolder");
    // Naming the holder's own wallet state does not help: renewal needs the holder's signature.
    const holderWallet = reservationKeys(fixture, holder.publicKey, "pepe", "pepe").wallet;
    await expectProgramError(
      fixture.program.methods
        .renew(new BN(DAY))
        .accountsStrict({
          ...reservationKeys(fixture, other.publicKey, "pepe", "pepe"),
          wallet: holderWallet,
        })
        .signers([other])
        .rpc(),
      "NotReservationHolder",
    );
    const reservation = await fixture.program.account.reservation.fetch(
      reservationKeys(fixture, holder.publicKey, "pepe", "pepe").reservation,
    );
    expect(reservation.expiresAt.toString()).to.equal(EXPIRES_AT.toString());
  });

  it("refuses durations other than the tiers and stale prices", async () => {
    await advanceTo(fixture, WINDOW_OPENS);
    await expectProgramError(renewCall(fixture, holder, "pepe", "pepe", 12 * 3600).rpc(), "InvalidDuration");
    fixture.provider.svm.setUnixTimestamp(WINDOW_OPENS + 61n);
    await expectProgramError(renewCall(fixture, holder, "pepe", "pepe").rpc(), "StalePrice");
  });

  it("keeps a renewed reservation counted as active in the wallet's limit", async () => {
    await reserveCall(fixture, holder, "two", "TWO", 3 * DAY).rpc();
    await reserveCall(fixture, holder, "three", "THREE", 3 * DAY).rpc();
    await advanceTo(fixture, WINDOW_OPENS);
    await renewCall(fixture, holder, "pepe", "pepe").rpc();
    await advanceTo(fixture, EXPIRES_AT);
    await expectProgramError(reserveCall(fixture, holder, "four", "FOUR").rpc(), "TooManyActiveReservations");
  });

  it("tracks a pair the holder reserves again after expiry in one wallet slot, through renewal", async () => {
    await advanceTo(fixture, EXPIRES_AT);
    await reserveCall(fixture, holder, "other", "OTHER", DAY).rpc();
    await reserveCall(fixture, holder, "pepe", "pepe", DAY).rpc();
    const renewedExpiry = EXPIRES_AT + BigInt(DAY);
    await advanceTo(fixture, renewedExpiry - 60n);
    await renewCall(fixture, holder, "pepe", "pepe").rpc();
    const keys = reservationKeys(fixture, holder.publicKey, "pepe", "pepe");
    const wallet = await fixture.program.account.walletState.fetch(keys.wallet);
    const pepeSlots = wallet.slots.filter((slot) => slot.reservation.equals(keys.reservation));
    expect(pepeSlots.map((slot) => slot.expiresAt.toString())).to.deep.equal([
      (renewedExpiry + BigInt(DAY)).toString(),
    ]);
    await reserveCall(fixture, holder, "third", "THIRD", DAY).rpc();
  });
});
