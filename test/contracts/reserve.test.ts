// IdentityRegistry.reserve (the reveal of a matured commitment): tiers and pricing, payment rule, pair holding,
// 3-per-wallet, pause, events. The commitment rules themselves are in commit.test.ts.
import { expect } from "chai";
import { type Hex, keccak256, parseEventLogs, toHex } from "viem";
import { identityRegistryAbi } from "../../contracts/abi/identityRegistry";
import {
  addressOf,
  advance,
  commitAndReserve,
  commitFor,
  DURATIONS,
  ETH_PRICE_ANSWER,
  expectedFeeWei,
  expectRevert,
  keepPriceFreshUntil,
  latestTimestamp,
  MAX_PRICE_AGE,
  nextBlockAt,
  ONE_DAY,
  PARTNER_REF,
  type RegistryFixture,
  registryFixture,
  revealAs,
  type Wallet,
} from "./fixture";

describe("IdentityRegistry.reserve", () => {
  let fixture: RegistryFixture;

  beforeEach(async () => {
    fixture = await registryFixture();
  });

  const launcher = (index: number): Wallet => {
    const wallet = fixture.launchers[index];
    if (!wallet) throw new Error(`No launcher ${index}`);
    return wallet;
  };
  /** Commit, mature, reveal. `secret` tells apart repeated attempts at the same pair (each one commits anew). */
  const reserveAs = (
    index: number,
    name: string,
    ticker: string,
    value: bigint,
    durationSeconds = ONE_DAY,
    options: { at?: bigint | number; secret?: Hex } = {},
  ) => commitAndReserve(fixture, launcher(index), { name, ticker, value, durationSeconds, ...options });
  const secretNo = (n: number): Hex => keccak256(toHex(`attempt ${n}`));

  describe("tiers and price", () => {
    DURATIONS.forEach((duration, tier) => {
      it(`quotes and charges the ${duration}-second tier at the feed price`, async () => {
        const fee = expectedFeeWei(tier);
        expect(await fixture.registry.read.quote([duration])).to.equal(fee);
        const launcher = addressOf(fixture.launchers[0]);
        const before = await fixture.publicClient.getBalance({ address: fixture.registry.address });
        const hash = await reserveAs(0, `Tier ${tier} Token`, `TIER${tier}`, fee, duration);
        const receipt = await fixture.publicClient.waitForTransactionReceipt({ hash });
        const block = await fixture.publicClient.getBlock({ blockNumber: receipt.blockNumber });
        const [nameHash, tickerHash] = await fixture.registry.read.identityHashes([
          `Tier ${tier} Token`,
          `TIER${tier}`,
        ]);
        const [holder, expiresAt, active] = await fixture.registry.read.reservationOf([nameHash, tickerHash]);
        expect(holder).to.equal(launcher);
        expect(expiresAt).to.equal(block.timestamp + BigInt(duration));
        expect(active).to.equal(true);
        expect(await fixture.publicClient.getBalance({ address: fixture.registry.address })).to.equal(
          before + fee,
        );
      });
    });

    it("follows the feed: a doubled ETH price halves the fee (rounded up)", async () => {
      await fixture.feed.write.setAnswer([ETH_PRICE_ANSWER * 2n]);
      expect(await fixture.registry.read.quote([ONE_DAY])).to.equal(expectedFeeWei(0, ETH_PRICE_ANSWER * 2n));
      // An answer that does not divide evenly rounds the fee up, never down.
      await fixture.feed.write.setAnswer([333_333_333_33n]);
      const fee = await fixture.registry.read.quote([ONE_DAY]);
      expect(fee).to.equal(expectedFeeWei(0, 333_333_333_33n));
      // fee is the smallest wei amount worth at least 5 USD: 5e6 micro-USD * 10^(12+8) / answer.
      const usdValueScaled = (wei: bigint) => wei * 333_333_333_33n;
      expect(usdValueScaled(fee) >= 5_000_000n * 10n ** 20n).to.equal(true);
      expect(usdValueScaled(fee - 1n) < 5_000_000n * 10n ** 20n).to.equal(true);
    });

    it("rejects durations outside the four tiers", async () => {
      for (const duration of [0, 86_399, 86_401, 172_800, 2_592_001]) {
        await expectRevert(fixture.registry.read.quote([duration]), "UnsupportedDuration", String(duration));
        await expectRevert(reserveAs(0, "Moon", "MOON", 10n ** 18n, duration), "UnsupportedDuration");
      }
    });

    it("accepts a price exactly at the staleness bound and rejects it one second later", async () => {
      const at = (await latestTimestamp()) + 100;
      await fixture.feed.write.setRoundData([ETH_PRICE_ANSWER, BigInt(at - MAX_PRICE_AGE)]);
      await reserveAs(0, "Fresh", "FRSH", expectedFeeWei(0), ONE_DAY, { at });
      const updatedAt = BigInt(at + 10 - MAX_PRICE_AGE - 1);
      await fixture.feed.write.setRoundData([ETH_PRICE_ANSWER, updatedAt]);
      await expectRevert(
        reserveAs(0, "Moon", "MOON", 10n ** 18n, ONE_DAY, { at: at + 10 }),
        "StalePrice",
        `${updatedAt}, ${MAX_PRICE_AGE}`,
      );
    });

    it("refuses to quote from a stale price", async () => {
      const updatedAt = BigInt((await latestTimestamp()) - MAX_PRICE_AGE - 60);
      await fixture.feed.write.setRoundData([ETH_PRICE_ANSWER, updatedAt]);
      await expectRevert(
        fixture.registry.read.quote([ONE_DAY]),
        "StalePrice",
        `${updatedAt}, ${MAX_PRICE_AGE}`,
      );
    });

    it("reverts on a zero or negative price", async () => {
      for (const [attempt, answer] of [0n, -1n, -ETH_PRICE_ANSWER].entries()) {
        await fixture.feed.write.setAnswer([answer]);
        await expectRevert(fixture.registry.read.quote([ONE_DAY]), "InvalidPrice", String(answer));
        await expectRevert(
          reserveAs(0, "Moon", "MOON", 10n ** 18n, ONE_DAY, { secret: secretNo(attempt) }),
          "InvalidPrice",
        );
      }
    });
  });

  describe("payment", () => {
    it("rejects one wei less than the fee", async () => {
      const fee = expectedFeeWei(0);
      await expectRevert(
        reserveAs(0, "Moon", "MOON", fee - 1n),
        "InsufficientPayment",
        `${fee}, ${fee - 1n}`,
      );
      await expectRevert(
        reserveAs(0, "Moon", "MOON", 0n, ONE_DAY, { secret: secretNo(1) }),
        "InsufficientPayment",
      );
    });

    it("keeps exactly the fee and refunds any excess in the same transaction", async () => {
      const fee = expectedFeeWei(0);
      const wallet = addressOf(fixture.launchers[0]);
      await commitFor(fixture, launcher(0), { name: "Moon", ticker: "MOON" });
      const registryBefore = await fixture.publicClient.getBalance({ address: fixture.registry.address });
      const launcherBefore = await fixture.publicClient.getBalance({ address: wallet });
      const hash = await revealAs(fixture, launcher(0), {
        name: "Moon",
        ticker: "MOON",
        value: fee + 10n ** 17n,
      });
      const receipt = await fixture.publicClient.waitForTransactionReceipt({ hash });
      const gasCost = receipt.gasUsed * receipt.effectiveGasPrice;
      expect(await fixture.publicClient.getBalance({ address: fixture.registry.address })).to.equal(
        registryBefore + fee,
      );
      expect(await fixture.publicClient.getBalance({ address: wallet })).to.equal(
        launcherBefore - fee - gasCost,
      );
    });

    it("refuses plain ETH transfers (fees arrive only through reserve and renew)", async () => {
      const sender = fixture.launchers[0];
      if (!sender) throw new Error("No launcher");
      let failed = false;
      try {
        await sender.sendTransaction({ to: fixture.registry.address, value: 1n });
      } catch {
        failed = true;
      }
      expect(failed).to.equal(true);
    });
  });

  describe("pairs", () => {
    it("rejects a folded-identical pair held by someone else, naming holder and expiry", async () => {
      await reserveAs(0, "Moon Dog", "MOON", expectedFeeWei(0));
      const [nameHash, tickerHash] = await fixture.registry.read.identityHashes(["Moon Dog", "MOON"]);
      const [holder, expiresAt] = await fixture.registry.read.reservationOf([nameHash, tickerHash]);
      await expectRevert(
        reserveAs(1, "m00n-d0g", "m00n", 10n ** 18n),
        "PairReserved",
        `${holder}, ${expiresAt}`,
      );
    });

    it("rejects the holder too: extending is renew's job", async () => {
      await reserveAs(0, "Moon", "MOON", expectedFeeWei(0));
      await expectRevert(reserveAs(0, "Moon", "MOON", 10n ** 18n), "PairReserved");
    });

    it("treats a different ticker or name as a different pair", async () => {
      await reserveAs(0, "Moon", "MOON", expectedFeeWei(0));
      await reserveAs(1, "Moon", "MOONS", expectedFeeWei(0));
      await reserveAs(2, "Moons", "MOON", expectedFeeWei(0));
    });

    it("lets anyone take a pair over once it has expired, at exactly its expiry", async () => {
      await reserveAs(0, "Moon", "MOON", expectedFeeWei(0));
      const [nameHash, tickerHash] = await fixture.registry.read.identityHashes(["Moon", "MOON"]);
      const [, expiresAt] = await fixture.registry.read.reservationOf([nameHash, tickerHash]);
      await keepPriceFreshUntil(fixture, Number(expiresAt));
      await nextBlockAt(expiresAt - 10n);
      await commitFor(fixture, launcher(1), { name: "Moon", ticker: "MOON" });
      const takeOver = { name: "Moon", ticker: "MOON", value: expectedFeeWei(0) };
      await nextBlockAt(expiresAt - 1n);
      await expectRevert(revealAs(fixture, launcher(1), takeOver), "PairReserved");
      await nextBlockAt(expiresAt);
      await revealAs(fixture, launcher(1), takeOver);
      const [holder, newExpiry] = await fixture.registry.read.reservationOf([nameHash, tickerHash]);
      expect(holder).to.equal(addressOf(fixture.launchers[1]));
      expect(newExpiry).to.equal(expiresAt + BigInt(ONE_DAY));
    });

    it("rejects names and tickers that fold out of bounds, in the reveal and in makeCommitment", async () => {
      const outOfBounds = [
        ["🚀🚀", "MOON"],
        ["Moon", "m"],
        ["A".repeat(65), "MOON"],
        ["Moon", "ABCDEFGHIJK"],
      ] as const;
      for (const [name, ticker] of outOfBounds) {
        // No commitment can exist for such a pair; the bounds are checked before the commitment is looked up.
        await expectRevert(revealAs(fixture, launcher(0), { name, ticker, value: 10n ** 18n }), "BadLength");
        await expectRevert(commitFor(fixture, launcher(0), { name, ticker }), "BadLength");
      }
    });
  });

  describe("three active reservations per wallet", () => {
    it("rejects a fourth, naming when the first slot frees", async () => {
      const fee = expectedFeeWei(0);
      await reserveAs(0, "One", "ONE", fee);
      await reserveAs(0, "Two", "TWO", expectedFeeWei(1), DURATIONS[1]);
      await reserveAs(0, "Three", "THREE", fee * 3n);
      const launcher = addressOf(fixture.launchers[0]);
      expect(await fixture.registry.read.activeReservationCount([launcher])).to.equal(3n);
      const [oneName, oneTicker] = await fixture.registry.read.identityHashes(["One", "ONE"]);
      const [, firstExpiry] = await fixture.registry.read.reservationOf([oneName, oneTicker]);
      await expectRevert(reserveAs(0, "Four", "FOUR", 10n ** 18n), "WalletLimitReached", `3, ${firstExpiry}`);
      // Other wallets are unaffected.
      await reserveAs(1, "Four", "FOUR", fee);
    });

    it("frees a slot by expiry alone, with no cleanup call", async () => {
      const fee = expectedFeeWei(0);
      const launcher = addressOf(fixture.launchers[0]);
      await reserveAs(0, "One", "ONE", fee);
      await reserveAs(0, "Two", "TWO", expectedFeeWei(2), DURATIONS[2]);
      await reserveAs(0, "Three", "THREE", expectedFeeWei(2), DURATIONS[2]);
      await advance(fixture, ONE_DAY);
      expect(await fixture.registry.read.activeReservationCount([launcher])).to.equal(2n);
      await reserveAs(0, "Four", "FOUR", fee);
      expect(await fixture.registry.read.activeReservationCount([launcher])).to.equal(3n);
      await expectRevert(reserveAs(0, "Five", "FIVE", 10n ** 18n), "WalletLimitReached");
      // The two 7-day holds are untouched by the reuse of the freed slot.
      const [twoName, twoTicker] = await fixture.registry.read.identityHashes(["Two", "TWO"]);
      const [holder, , active] = await fixture.registry.read.reservationOf([twoName, twoTicker]);
      expect([holder, active]).to.deep.equal([launcher, true]);
    });

    it("counts only the holder's slots: a pair taken over after expiry does not use the old holder's slot", async () => {
      const fee = expectedFeeWei(0);
      await reserveAs(0, "One", "ONE", fee);
      await advance(fixture, ONE_DAY);
      await reserveAs(1, "One", "ONE", fee);
      expect(await fixture.registry.read.activeReservationCount([addressOf(fixture.launchers[0])])).to.equal(
        0n,
      );
      expect(await fixture.registry.read.activeReservationCount([addressOf(fixture.launchers[1])])).to.equal(
        1n,
      );
    });
  });

  describe("pause", () => {
    it("stops new reservations until resumed", async () => {
      await fixture.registry.write.setPaused([true]);
      expect(await fixture.registry.read.paused()).to.equal(true);
      // Committing stays open while paused (it moves no money); the reveal is what pause stops.
      await expectRevert(reserveAs(0, "Moon", "MOON", expectedFeeWei(0)), "ReservationsPaused");
      await fixture.registry.write.setPaused([false]);
      await revealAs(fixture, launcher(0), { name: "Moon", ticker: "MOON", value: expectedFeeWei(0) });
    });
  });

  describe("events", () => {
    it("emits Reserved with both hashes and the launcher indexed, folded strings, expiry, tier, fee and partner", async () => {
      const fee = expectedFeeWei(3);
      const hash = await reserveAs(0, "Dog Wif Hat 2", "$wif", fee + 12_345n, DURATIONS[3]);
      const receipt = await fixture.publicClient.waitForTransactionReceipt({ hash });
      const block = await fixture.publicClient.getBlock({ blockNumber: receipt.blockNumber });
      const [nameHash, tickerHash] = await fixture.registry.read.identityHashes(["Dog Wif Hat 2", "$wif"]);
      const events = parseEventLogs({ abi: identityRegistryAbi, logs: receipt.logs, eventName: "Reserved" });
      expect(events).to.have.length(1);
      expect(events[0]?.args).to.deep.equal({
        nameHash,
        tickerHash,
        launcher: addressOf(fixture.launchers[0]),
        normalizedName: "DOGWIFHAT2",
        normalizedTicker: "SWIF",
        expiresAt: block.timestamp + BigInt(DURATIONS[3]),
        durationSeconds: DURATIONS[3],
        feeWei: fee,
        partnerRef: PARTNER_REF,
      });
      // Indexed fields are topics, so indexers can filter by pair or launcher.
      const log = receipt.logs.find((entry) => entry.topics[1] === nameHash);
      expect(log?.topics).to.have.length(4);
      expect(log?.topics[2]).to.equal(tickerHash);
    });
  });
});
