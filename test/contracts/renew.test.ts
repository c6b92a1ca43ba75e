// IdentityRegistry.renew: holder only, during the 12 hours before expiry, extending from the current expiry.
// Unchanged by commit-reveal: a renewal needs no commitment, because only the holder can renew.
import { expect } from "chai";
import { type Hex, parseEventLogs } from "viem";
import { identityRegistryAbi } from "../../contracts/abi/identityRegistry";
import {
  addressOf,
  commitAndReserve,
  DURATIONS,
  expectedFeeWei,
  expectRevert,
  keepPriceFreshUntil,
  nextBlockAt,
  ONE_DAY,
  PARTNER_REF,
  RENEWAL_WINDOW,
  type RegistryFixture,
  registryFixture,
} from "./fixture";

describe("IdentityRegistry.renew", () => {
  let fixture: RegistryFixture;
  let nameHash: Hex;
  let tickerHash: Hex;
  let expiresAt: bigint;

  const holderWallet = () => {
    const wallet = fixture.launchers[0];
    if (!wallet) throw new Error("No launcher");
    return wallet;
  };
  const holder = () => fixture.registryAs(holderWallet());
  const renewAs = (registry: ReturnType<typeof holder>, value: bigint, duration = ONE_DAY) =>
    registry.write.renew([nameHash, tickerHash, duration, PARTNER_REF], { value });
  const reserveAsHolder = (name: string, ticker: string) =>
    commitAndReserve(fixture, holderWallet(), { name, ticker, value: expectedFeeWei(0) });

  beforeEach(async () => {
    fixture = await registryFixture();
    await reserveAsHolder("Moon", "MOON");
    [nameHash, tickerHash] = await fixture.registry.read.identityHashes(["Moon", "MOON"]);
    [, expiresAt] = await fixture.registry.read.reservationOf([nameHash, tickerHash]);
    await keepPriceFreshUntil(fixture, Number(expiresAt));
  });

  it("rejects one second before the window opens, and accepts at its first second", async () => {
    const opensAt = expiresAt - BigInt(RENEWAL_WINDOW);
    await nextBlockAt(opensAt - 1n);
    await expectRevert(
      renewAs(holder(), expectedFeeWei(0)),
      "OutsideRenewalWindow",
      `${opensAt}, ${expiresAt}`,
    );
    await nextBlockAt(opensAt);
    await renewAs(holder(), expectedFeeWei(0));
    const [, renewedUntil] = await fixture.registry.read.reservationOf([nameHash, tickerHash]);
    expect(renewedUntil).to.equal(expiresAt + BigInt(ONE_DAY));
  });

  it("accepts at the last second before expiry, and rejects at expiry", async () => {
    await nextBlockAt(expiresAt);
    await expectRevert(renewAs(holder(), expectedFeeWei(0)), "OutsideRenewalWindow");
    // Same position one second earlier, on a fresh copy of the chain.
    fixture = await registryFixture();
    await reserveAsHolder("Moon", "MOON");
    [, expiresAt] = await fixture.registry.read.reservationOf([nameHash, tickerHash]);
    await keepPriceFreshUntil(fixture, Number(expiresAt));
    await nextBlockAt(expiresAt - 1n);
    await renewAs(holder(), expectedFeeWei(0));
    const [, renewedUntil, active] = await fixture.registry.read.reservationOf([nameHash, tickerHash]);
    expect([renewedUntil, active]).to.deep.equal([expiresAt + BigInt(ONE_DAY), true]);
  });

  it("extends from the current expiry by any tier, charging that tier and refunding excess", async () => {
    const fee = expectedFeeWei(3);
    const registryBefore = await fixture.publicClient.getBalance({ address: fixture.registry.address });
    await nextBlockAt(expiresAt - 3600n);
    const hash = await renewAs(holder(), fee + 777n, DURATIONS[3]);
    const receipt = await fixture.publicClient.waitForTransactionReceipt({ hash });
    expect(await fixture.publicClient.getBalance({ address: fixture.registry.address })).to.equal(
      registryBefore + fee,
    );
    const [event] = parseEventLogs({ abi: identityRegistryAbi, logs: receipt.logs, eventName: "Renewed" });
    expect(event?.args).to.deep.equal({
      nameHash,
      tickerHash,
      launcher: addressOf(fixture.launchers[0]),
      previousExpiresAt: expiresAt,
      expiresAt: expiresAt + BigInt(DURATIONS[3]),
      durationSeconds: DURATIONS[3],
      feeWei: fee,
      partnerRef: PARTNER_REF,
    });
  });

  it("rejects underpayment, unsupported durations and a stale price", async () => {
    await nextBlockAt(expiresAt - 3600n);
    await expectRevert(renewAs(holder(), expectedFeeWei(0) - 1n), "InsufficientPayment");
    await expectRevert(renewAs(holder(), 10n ** 18n, 3600), "UnsupportedDuration", "3600");
    await fixture.feed.write.setRoundData([2_500n * 10n ** 8n, 1n]);
    await expectRevert(renewAs(holder(), 10n ** 18n), "StalePrice");
  });

  it("needs no commitment, and a holder's reveal cannot extend instead of renewing", async () => {
    await nextBlockAt(expiresAt - 3600n);
    await expectRevert(reserveAsHolder("Moon", "MOON"), "PairReserved");
    await renewAs(holder(), expectedFeeWei(0));
  });

  it("allows only the holder", async () => {
    const other = fixture.launchers[1];
    if (!other) throw new Error("No second launcher");
    await nextBlockAt(expiresAt - 3600n);
    await expectRevert(
      renewAs(fixture.registryAs(other), expectedFeeWei(0)),
      "NotHolder",
      addressOf(fixture.launchers[0]),
    );
  });

  it("cannot renew a pair that was never reserved", async () => {
    [nameHash, tickerHash] = await fixture.registry.read.identityHashes(["Never", "NEVER"]);
    await expectRevert(
      renewAs(holder(), expectedFeeWei(0)),
      "NotHolder",
      "0x0000000000000000000000000000000000000000",
    );
  });

  it("keeps the wallet slot busy until the renewed expiry", async () => {
    const wallet = addressOf(fixture.launchers[0]);
    await nextBlockAt(expiresAt - 60n);
    await renewAs(holder(), expectedFeeWei(0));
    await keepPriceFreshUntil(fixture, Number(expiresAt) + ONE_DAY);
    await nextBlockAt(expiresAt + 60n);
    await reserveAsHolder("Two", "TWO");
    await reserveAsHolder("Three", "THREE");
    expect(await fixture.registry.read.activeReservationCount([wallet])).to.equal(3n);
    await expectRevert(
      reserveAsHolder("Four", "FOUR"),
      "WalletLimitReached",
      `3, ${expiresAt + BigInt(ONE_DAY)}`,
    );
  });

  it("keeps working while new reservations are paused", async () => {
    await fixture.registry.write.setPaused([true]);
    await nextBlockAt(expiresAt - 60n);
    await renewAs(holder(), expectedFeeWei(0));
  });
});
