// reserve (the reveal of a commitment) through the Anchor client: accounts written, event decoded, fee per tier,
// refusals. The commitment's own rules are in commitReveal.test.ts.
import { BN, EventParser } from "@coral-xyz/anchor";
import { PublicKey } from "@solana/web3.js";
import { expect } from "chai";
import { foldedHash } from "../../core/fold";
import { DEFAULT_TIER_PRICES_USD_MICROS } from "../../core/reservation";
import {
  feeLamports,
  localPriceAddress,
  registryProgram,
  TIER_DURATIONS,
  treasuryAddress,
} from "../../scripts/solana/registry";
import { commitMethod, planReveal, revealMethod } from "./support/commitReveal";
import { expectProgramError, expectRuntimeError } from "./support/errors";
import {
  advanceTo,
  DAY,
  deployedRegistry,
  type Fixture,
  fundedWallet,
  priceAccountOf,
  providerFor,
  reservationKeys,
  reserveCall,
  SOL_PRICE,
  START_TIME,
  warpSlots,
} from "./support/fixture";

const balance = (fixture: Fixture, address: PublicKey) => fixture.provider.svm.getBalance(address);

describe("program: reserve", () => {
  let fixture: Fixture;
  beforeEach(async () => {
    fixture = await deployedRegistry();
  });

  it("creates the reservation and wallet PDAs with the folded pair, expiry and partner", async () => {
    const launcher = fundedWallet(fixture);
    const partner = Array.from({ length: 32 }, (_, index) => index + 1);
    await reserveCall(fixture, launcher, "Moon Badger!", "$badger", TIER_DURATIONS[2], {
      partnerRef: partner,
    }).rpc();
    const keys = reservationKeys(fixture, launcher.publicKey, "Moon Badger!", "$badger");
    const reservation = await fixture.program.account.reservation.fetch(keys.reservation);
    expect(reservation.name).to.equal("MOONBADGER");
    expect(reservation.ticker).to.equal("SBADGER");
    expect(reservation.launcher.toBase58()).to.equal(launcher.publicKey.toBase58());
    expect(`0x${Buffer.from(reservation.nameHash).toString("hex")}`).to.equal(foldedHash("MOONBADGER"));
    expect(reservation.reservedAt.toString()).to.equal(START_TIME.toString());
    expect(reservation.expiresAt.toString()).to.equal((START_TIME + BigInt(TIER_DURATIONS[2])).toString());
    expect(reservation.partnerRef).to.deep.equal(partner);
    const [, canonicalBump] = PublicKey.findProgramAddressSync(
      [Buffer.from("reservation"), reservation.nameHash, reservation.tickerHash].map((seed) =>
        Buffer.from(seed),
      ),
      fixture.programId,
    );
    expect(reservation.bump).to.equal(canonicalBump);
    const wallet = await fixture.program.account.walletState.fetch(keys.wallet);
    expect(wallet.launcher.toBase58()).to.equal(launcher.publicKey.toBase58());
    expect(wallet.slots[0]?.reservation.toBase58()).to.equal(keys.reservation.toBase58());
    expect(wallet.slots[0]?.expiresAt.toString()).to.equal(reservation.expiresAt.toString());
  });

  it("emits ReservationCreated, decoded by Anchor's event parser", async () => {
    const launcher = fundedWallet(fixture);
    await reserveCall(fixture, launcher, "pepe", "pepe").rpc();
    const events = [
      ...new EventParser(fixture.programId, fixture.program.coder).parseLogs(
        fixture.provider.last?.logs ?? [],
      ),
    ];
    expect(events.map((event) => event.name)).to.deep.equal(["reservationCreated"]);
    const data = events[0]?.data as Record<string, unknown>;
    expect(data.name).to.equal("PEPE");
    expect(data.ticker).to.equal("PEPE");
    expect((data.launcher as PublicKey).toBase58()).to.equal(launcher.publicKey.toBase58());
    expect(`0x${Buffer.from(data.tickerHash as number[]).toString("hex")}`).to.equal(foldedHash("PEPE"));
    expect((data.expiresAt as BN).toString()).to.equal((START_TIME + BigInt(DAY)).toString());
    expect((data.partnerRef as number[]).every((byte) => byte === 0)).to.equal(true);
  });

  for (const [tier, duration] of TIER_DURATIONS.entries()) {
    it(`charges the ${duration}s tier's USD price in lamports into the treasury`, async () => {
      const launcher = fundedWallet(fixture);
      const treasury = treasuryAddress(fixture.programId);
      const treasuryBefore = await balance(fixture, treasury);
      const launcherBefore = await balance(fixture, launcher.publicKey);
      await reserveCall(fixture, launcher, "tiered", "TIER", duration).rpc();
      const expectedFee = feeLamports(
        DEFAULT_TIER_PRICES_USD_MICROS[tier] ?? 0n,
        SOL_PRICE.price,
        SOL_PRICE.exponent,
      );
      expect(BigInt(await balance(fixture, treasury)) - BigInt(treasuryBefore)).to.equal(expectedFee);
      const keys = reservationKeys(fixture, launcher.publicKey, "tiered", "TIER");
      const rents = (await balance(fixture, keys.reservation)) + (await balance(fixture, keys.wallet));
      expect(BigInt(launcherBefore - (await balance(fixture, launcher.publicKey)) - rents)).to.equal(
        expectedFee,
      );
      const reservation = await fixture.program.account.reservation.fetch(keys.reservation);
      expect(reservation.feeLamports.toString()).to.equal(expectedFee.toString());
    });
  }

  it("prices $5 at $150/SOL as 33,333,334 lamports (rounded up)", () => {
    expect(feeLamports(5_000_000n, 150_00000000n, -8)).to.equal(33_333_334n);
  });

  it("refuses durations other than the four tiers", async () => {
    const launcher = fundedWallet(fixture);
    await expectProgramError(
      reserveCall(fixture, launcher, "pepe", "pepe", DAY + 1).rpc(),
      "InvalidDuration",
    );
  });

  it("refuses a price older than the maximum age, and accepts it again once refreshed", async () => {
    const launcher = fundedWallet(fixture);
    fixture.provider.svm.setUnixTimestamp(START_TIME + 61n);
    await expectProgramError(reserveCall(fixture, launcher, "pepe", "pepe").rpc(), "StalePrice");
    fixture.provider.svm.setUnixTimestamp(START_TIME + 60n);
    await reserveCall(fixture, launcher, "pepe", "pepe").rpc();
  });

  it("refuses a zero or negative price", async () => {
    const launcher = fundedWallet(fixture);
    for (const price of [0n, -150_00000000n]) {
      await fixture.program.methods
        .pushPrice(new BN(price.toString()), new BN(0), -8, new BN(START_TIME.toString()))
        .accountsStrict({
          admin: fixture.admin.publicKey,
          config: reservationKeys(fixture, launcher.publicKey, "a", "bb").config,
          priceUpdate: localPriceAddress(fixture.programId),
          systemProgram: PublicKey.default,
        })
        .rpc();
      await expectProgramError(reserveCall(fixture, launcher, "pepe", "pepe").rpc(), "InvalidPrice");
    }
  });

  it("refuses a pair that is already reserved, by anyone, until it expires; then another wallet may take it", async () => {
    const first = fundedWallet(fixture);
    const second = fundedWallet(fixture);
    await reserveCall(fixture, first, "pepe", "pepe").rpc();
    await expectProgramError(reserveCall(fixture, second, "PEPE", "P.E.P.E").rpc(), "AlreadyReserved");
    await expectProgramError(reserveCall(fixture, first, "pepe", "pepe").rpc(), "AlreadyReserved");
    await advanceTo(fixture, START_TIME + BigInt(DAY));
    await reserveCall(fixture, second, "pepe", "pepe").rpc();
    const keys = reservationKeys(fixture, second.publicKey, "pepe", "pepe");
    const reservation = await fixture.program.account.reservation.fetch(keys.reservation);
    expect(reservation.launcher.toBase58()).to.equal(second.publicKey.toBase58());
  });

  it("allows 3 active reservations per wallet, refuses a 4th, and frees a slot when one expires", async () => {
    const launcher = fundedWallet(fixture);
    await reserveCall(fixture, launcher, "one", "ONE", DAY).rpc();
    await reserveCall(fixture, launcher, "two", "TWO", 3 * DAY).rpc();
    await reserveCall(fixture, launcher, "three", "THREE", 3 * DAY).rpc();
    await expectProgramError(
      reserveCall(fixture, launcher, "four", "FOUR").rpc(),
      "TooManyActiveReservations",
    );
    await advanceTo(fixture, START_TIME + BigInt(DAY) - 1n);
    await expectProgramError(
      reserveCall(fixture, launcher, "four", "FOUR").rpc(),
      "TooManyActiveReservations",
    );
    await advanceTo(fixture, START_TIME + BigInt(DAY));
    await reserveCall(fixture, launcher, "four", "FOUR").rpc();
    await expectProgramError(
      reserveCall(fixture, launcher, "five", "FIVE").rpc(),
      "TooManyActiveReservations",
    );
    const otherWallet = fundedWallet(fixture);
    await reserveCall(fixture, otherWallet, "five", "FIVE").rpc();
  });

  it("refuses names and tickers outside the bounds with BadLength", async () => {
    const launcher = fundedWallet(fixture);
    await expectProgramError(reserveCall(fixture, launcher, "!!!", "PEPE").rpc(), "BadLength");
    await expectProgramError(reserveCall(fixture, launcher, "pepe", "P").rpc(), "BadLength");
    await expectProgramError(reserveCall(fixture, launcher, "A".repeat(65), "PEPE").rpc(), "BadLength");
    await expectProgramError(reserveCall(fixture, launcher, "pepe", "ABCDEFGHIJK").rpc(), "BadLength");
  });

  it("refuses a launcher who cannot pay the fee, and leaves no reservation behind", async () => {
    const poor = fundedWallet(fixture, 5_000_000n);
    const keys = reservationKeys(fixture, poor.publicKey, "pepe", "pepe");
    await expectRuntimeError(reserveCall(fixture, poor, "pepe", "pepe").rpc(), /insufficient lamports/);
    expect(await fixture.provider.connection.getAccountInfo(keys.reservation)).to.equal(null);
  });

  it("charges the fee to the launcher, not to the transaction's fee payer", async () => {
    const launcher = fundedWallet(fixture);
    const feePayerBefore = await balance(fixture, fixture.admin.publicKey);
    const launcherBefore = await balance(fixture, launcher.publicKey);
    await reserveCall(fixture, launcher, "pepe", "pepe").rpc();
    const signatureFees = 2 * 2 * 5000; // commit and reveal, each signed by the fee payer and the launcher
    expect(feePayerBefore - (await balance(fixture, fixture.admin.publicKey))).to.equal(signatureFees);
    // The launcher pays the fee and the two PDAs' rent; the commitment's rent came back with the reveal.
    const keys = reservationKeys(fixture, launcher.publicKey, "pepe", "pepe");
    const rents = (await balance(fixture, keys.reservation)) + (await balance(fixture, keys.wallet));
    const fee = feeLamports(DEFAULT_TIER_PRICES_USD_MICROS[0], SOL_PRICE.price, SOL_PRICE.exponent);
    expect(BigInt(launcherBefore - (await balance(fixture, launcher.publicKey)) - rents)).to.equal(fee);
  });

  it("lets Anchor's account resolver fill the commitment, config, wallet, treasury and System Program", async () => {
    const launcher = fundedWallet(fixture);
    const plan = planReveal(fixture.programId, launcher.publicKey, priceAccountOf(fixture), {
      name: "pepe",
      ticker: "pepe",
      durationSeconds: DAY,
    });
    await fixture.program.methods
      .commit(plan.commitment)
      .accounts({ launcher: launcher.publicKey })
      .signers([launcher])
      .rpc();
    warpSlots(fixture);
    await fixture.program.methods
      .reserve("pepe", "pepe", new BN(DAY), plan.partnerRef, plan.secret)
      .accounts({
        launcher: launcher.publicKey,
        priceUpdate: plan.accounts.priceUpdate,
        reservation: plan.accounts.reservation,
        commitment: plan.accounts.commitment,
      })
      .signers([launcher])
      .rpc();
    const wallet = await fixture.program.account.walletState.fetch(plan.accounts.wallet);
    expect(wallet.slots[0]?.reservation.toBase58()).to.equal(plan.accounts.reservation.toBase58());
  });

  it("works when the launcher is also the transaction's fee payer (a creator's own wallet)", async () => {
    const launcher = fundedWallet(fixture);
    const asLauncher = registryProgram(providerFor(fixture, launcher), fixture.programId);
    const plan = planReveal(fixture.programId, launcher.publicKey, priceAccountOf(fixture), {
      name: "pepe",
      ticker: "pepe",
      durationSeconds: DAY,
    });
    await commitMethod(asLauncher, plan).rpc();
    warpSlots(fixture);
    await revealMethod(asLauncher, plan).rpc();
    const reservation = await fixture.program.account.reservation.fetch(
      reservationKeys(fixture, launcher.publicKey, "pepe", "pepe").reservation,
    );
    expect(reservation.launcher.toBase58()).to.equal(launcher.publicKey.toBase58());
  });
});
