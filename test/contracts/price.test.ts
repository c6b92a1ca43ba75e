// Price hardening: the owner's bounds on the feed's answer, and the L2 sequencer uptime check (Chainlink's
// pattern), on quote, reserve and renew alike.
import { expect } from "chai";
import { type Address, getAddress, getContract, parseEventLogs, zeroAddress } from "viem";
import { identityRegistryAbi } from "../../contracts/abi/identityRegistry";
import { readArtifact } from "../../scripts/evm/artifacts";
import {
  addressOf,
  commitAndReserve,
  commitFor,
  ETH_PRICE_ANSWER,
  expectedFeeWei,
  expectRevert,
  keepPriceFreshUntil,
  latestTimestamp,
  nextBlockAt,
  ONE_DAY,
  PARTNER_REF,
  type RegistryFixture,
  registryFixture,
  revealAs,
  type Wallet,
  withRegistry,
} from "./fixture";

/** Interface of the test-only contracts/test/LocalSequencerUptimeFeed.sol. */
const SEQUENCER_FEED_ABI = [
  {
    type: "function",
    name: "setStatus",
    inputs: [
      { name: "status", type: "int256" },
      { name: "startedAt", type: "uint256" },
    ],
    outputs: [],
    stateMutability: "nonpayable",
  },
] as const;

const GRACE_PERIOD = 3_600;

describe("IdentityRegistry price hardening", () => {
  let fixture: RegistryFixture;
  let launcher: Wallet;
  const moon = { name: "Moon", ticker: "MOON", value: expectedFeeWei(0) * 2n };

  beforeEach(async () => {
    fixture = await registryFixture();
    const wallet = fixture.launchers[0];
    if (!wallet) throw new Error("No launcher");
    launcher = wallet;
  });

  /**
   * Holds Moon/MOON with the price kept fresh until its expiry, and pins the next block six hours before that
   * expiry (inside the renewal window). Returns that time and the renewal call.
   */
  async function heldAndRenewable(on: RegistryFixture) {
    await commitAndReserve(on, launcher, moon);
    const [nameHash, tickerHash] = await on.registry.read.identityHashes(["Moon", "MOON"]);
    const [, expiresAt] = await on.registry.read.reservationOf([nameHash, tickerHash]);
    await keepPriceFreshUntil(on, Number(expiresAt));
    const renewableAt = expiresAt - 6n * 3_600n;
    await nextBlockAt(renewableAt);
    const renew = () =>
      on
        .registryAs(launcher)
        .write.renew([nameHash, tickerHash, ONE_DAY, PARTNER_REF], { value: moon.value });
    return { renew, renewableAt };
  }

  describe("answer bounds", () => {
    it("are set at deployment and by the owner, who is told through PriceBoundsUpdated", async () => {
      expect(await fixture.registry.read.priceBounds()).to.deep.equal([
        100n * 10n ** 8n,
        100_000n * 10n ** 8n,
      ]);
      const hash = await fixture.registry.write.setPriceBounds([2_000n * 10n ** 8n, 3_000n * 10n ** 8n]);
      const receipt = await fixture.publicClient.waitForTransactionReceipt({ hash });
      const [event] = parseEventLogs({
        abi: identityRegistryAbi,
        logs: receipt.logs,
        eventName: "PriceBoundsUpdated",
      });
      expect(event?.args).to.deep.equal({ minAnswer: 2_000n * 10n ** 8n, maxAnswer: 3_000n * 10n ** 8n });
    });

    it("accept answers exactly at either bound and refuse one unit outside, in quote, reserve and renew", async () => {
      const [minAnswer, maxAnswer] = [ETH_PRICE_ANSWER - 1_000n, ETH_PRICE_ANSWER + 1_000n];
      await fixture.registry.write.setPriceBounds([minAnswer, maxAnswer]);
      for (const answer of [minAnswer, maxAnswer]) {
        await fixture.feed.write.setAnswer([answer]);
        expect(await fixture.registry.read.quote([ONE_DAY])).to.equal(expectedFeeWei(0, answer));
      }
      const { renew } = await heldAndRenewable(fixture);
      for (const answer of [minAnswer - 1n, maxAnswer + 1n]) {
        await fixture.feed.write.setAnswer([answer]);
        const args = `${answer}, ${minAnswer}, ${maxAnswer}`;
        await expectRevert(fixture.registry.read.quote([ONE_DAY]), "PriceOutOfBounds", args);
        await expectRevert(renew(), "PriceOutOfBounds", args);
      }
      const other = fixture.launchers[1];
      if (!other) throw new Error("No second launcher");
      await commitFor(fixture, other, { name: "Mars", ticker: "MARS" });
      await fixture.feed.write.setAnswer([maxAnswer + 1n]);
      await expectRevert(
        revealAs(fixture, other, { name: "Mars", ticker: "MARS", value: 10n ** 18n }),
        "PriceOutOfBounds",
        `${maxAnswer + 1n}, ${minAnswer}, ${maxAnswer}`,
      );
      await fixture.feed.write.setAnswer([maxAnswer]);
      await revealAs(fixture, other, { name: "Mars", ticker: "MARS", value: 10n ** 18n });
      await renew();
    });

    it("a feed clamped far below the real price cannot make reservations nearly free", async () => {
      // A feed stuck at 1 USD would price a 5 USD tier at 5 ETH; one reporting 10^9 USD at 5 gwei-worth.
      await fixture.feed.write.setAnswer([10n ** 17n]);
      await expectRevert(fixture.registry.read.quote([ONE_DAY]), "PriceOutOfBounds");
      await fixture.feed.write.setAnswer([10n ** 8n]);
      await expectRevert(fixture.registry.read.quote([ONE_DAY]), "PriceOutOfBounds");
    });
  });

  describe("L2 sequencer uptime feed", () => {
    let l2: RegistryFixture;
    let sequencer: ReturnType<typeof sequencerFeedAt>;

    function sequencerFeedAt(address: Address) {
      return getContract({
        address,
        abi: SEQUENCER_FEED_ABI,
        client: { public: fixture.publicClient, wallet: fixture.owner },
      });
    }

    beforeEach(async () => {
      const hash = await fixture.owner.deployContract({
        abi: SEQUENCER_FEED_ABI,
        bytecode: readArtifact("LocalSequencerUptimeFeed").bytecode,
      });
      const receipt = await fixture.publicClient.waitForTransactionReceipt({ hash });
      if (!receipt.contractAddress) throw new Error("Sequencer feed deployment failed");
      sequencer = sequencerFeedAt(getAddress(receipt.contractAddress));
      // Up for a day already.
      await sequencer.write.setStatus([0n, BigInt((await latestTimestamp()) - ONE_DAY)]);
      l2 = await withRegistry(fixture, {
        sequencerUptimeFeed: sequencer.address,
        sequencerGracePeriodSeconds: GRACE_PERIOD,
      });
      await l2.feed.write.setAnswer([ETH_PRICE_ANSWER]);
    });

    it("is immutable configuration, absent (zero) on the default registry", async () => {
      expect(await l2.registry.read.sequencerUptimeFeed()).to.equal(sequencer.address);
      expect(await l2.registry.read.sequencerGracePeriod()).to.equal(GRACE_PERIOD);
      expect(await fixture.registry.read.sequencerUptimeFeed()).to.equal(zeroAddress);
      expect(await l2.registry.read.quote([ONE_DAY])).to.equal(expectedFeeWei(0));
    });

    it("refuses prices while the sequencer is down, in quote, reserve and renew", async () => {
      const { renew } = await heldAndRenewable(l2);
      await commitFor(l2, launcher, { name: "Mars", ticker: "MARS" });
      await sequencer.write.setStatus([1n, BigInt(await latestTimestamp())]);
      await expectRevert(l2.registry.read.quote([ONE_DAY]), "SequencerDown");
      await expectRevert(
        revealAs(l2, launcher, { name: "Mars", ticker: "MARS", value: moon.value }),
        "SequencerDown",
      );
      await expectRevert(renew(), "SequencerDown");
    });

    it("refuses prices during the grace period after the sequencer is back, and accepts them from its end", async () => {
      const { renew, renewableAt } = await heldAndRenewable(l2);
      // Back up in the block mined at renewableAt.
      const backAt = renewableAt;
      await sequencer.write.setStatus([0n, backAt]);
      const endsAt = backAt + BigInt(GRACE_PERIOD);
      await commitFor(l2, launcher, { name: "Mars", ticker: "MARS" });
      await expectRevert(l2.registry.read.quote([ONE_DAY]), "SequencerGracePeriodNotOver", `${endsAt}`);
      // A failed transaction mines a block too, so each attempt gets its own second.
      await nextBlockAt(endsAt - 2n);
      await expectRevert(
        revealAs(l2, launcher, { name: "Mars", ticker: "MARS", value: moon.value }),
        "SequencerGracePeriodNotOver",
        `${endsAt}`,
      );
      await nextBlockAt(endsAt - 1n);
      await expectRevert(renew(), "SequencerGracePeriodNotOver", `${endsAt}`);
      await nextBlockAt(endsAt);
      await revealAs(l2, launcher, { name: "Mars", ticker: "MARS", value: moon.value });
      await renew();
      expect(await l2.registry.read.activeReservationCount([addressOf(launcher)])).to.equal(2n);
    });

    it("treats a round with startedAt 0 (invalid) as down", async () => {
      await sequencer.write.setStatus([0n, 0n]);
      await expectRevert(l2.registry.read.quote([ONE_DAY]), "SequencerDown");
    });

    it("checks the sequencer before the price: a stale feed during an outage reads as SequencerDown", async () => {
      await l2.feed.write.setRoundData([ETH_PRICE_ANSWER, 1n]);
      await sequencer.write.setStatus([1n, BigInt(await latestTimestamp())]);
      await expectRevert(l2.registry.read.quote([ONE_DAY]), "SequencerDown");
    });
  });
});
