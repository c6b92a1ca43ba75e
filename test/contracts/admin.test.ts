// IdentityRegistry administration: two-step ownership, prices, feed, staleness bound, pause, withdrawal,
// and reentrancy on every path that sends ETH.
import { expect } from "chai";
import {
  type Address,
  encodeFunctionData,
  getAddress,
  getContract,
  parseAbi,
  parseEventLogs,
  toFunctionSelector,
  zeroAddress,
} from "viem";
import { identityRegistryAbi } from "../../contracts/abi/identityRegistry";
import { localPriceFeedAbi } from "../../contracts/abi/localPriceFeed";
import { DEFAULT_TIER_PRICES_USD_MICROS } from "../../core/reservation";
import { readArtifact } from "../../scripts/evm/artifacts";
import { deployWithClients } from "../../scripts/evm/deploy";
import {
  addressOf,
  commitAndReserve,
  commitmentFor,
  ETH_PRICE_ANSWER,
  expectedFeeWei,
  expectRevert,
  ONE_DAY,
  PARTNER_REF,
  type RegistryFixture,
  registryFixture,
  SECRET,
  type Wallet,
} from "./fixture";

/** Interface of the test-only contracts/test/ReentrantWallet.sol. */
const REENTRANT_WALLET_ABI = parseAbi([
  "function execute(address target, bytes data) payable returns (bytes)",
  "function armReentry(address target, bytes data)",
  "function setRejectPayments(bool reject)",
  "function reentryAttempted() view returns (bool)",
  "function reentrySucceeded() view returns (bool)",
  "function reentryRevertData() view returns (bytes)",
]);

describe("IdentityRegistry administration", () => {
  let fixture: RegistryFixture;
  let stranger: Wallet;

  beforeEach(async () => {
    fixture = await registryFixture();
    const wallet = fixture.launchers[5];
    if (!wallet) throw new Error("No stranger account");
    stranger = wallet;
  });

  const asStranger = () => fixture.registryAs(stranger);

  describe("access control", () => {
    it("refuses every administrative call from a non-owner", async () => {
      const registry = asStranger();
      const caller = addressOf(stranger);
      await expectRevert(registry.write.setTierPrices([[1n, 1n, 1n, 1n]]), "NotOwner", caller);
      await expectRevert(registry.write.setPriceFeed([fixture.priceFeed]), "NotOwner", caller);
      await expectRevert(registry.write.setMaxPriceAge([60]), "NotOwner", caller);
      await expectRevert(registry.write.setPaused([true]), "NotOwner", caller);
      await expectRevert(registry.write.withdraw([caller, 0n]), "NotOwner", caller);
      await expectRevert(registry.write.transferOwnership([caller]), "NotOwner", caller);
      await expectRevert(registry.write.setPriceBounds([1n, 2n]), "NotOwner", caller);
      await expectRevert(registry.write.setDecisionSigner([caller, 0n, 2n ** 63n]), "NotOwner", caller);
      await fixture.registry.write.setDecisionSigner([caller, 0n, 2n ** 63n]);
      await expectRevert(registry.write.revokeDecisionSigner([caller]), "NotOwner", caller);
      // Nothing changed.
      expect(await fixture.registry.read.decisionSignerWindow([caller])).to.deep.equal([0n, 2n ** 63n]);
      expect(await fixture.registry.read.priceBounds()).to.not.deep.equal([1n, 2n]);
    });

    it("transfers ownership in two steps, only to the proposed address", async () => {
      const owner = addressOf(fixture.owner);
      const next = addressOf(fixture.launchers[4]);
      const nextWallet = fixture.launchers[4];
      if (!nextWallet) throw new Error("No next owner");
      await fixture.registry.write.transferOwnership([next]);
      // Proposal alone changes nothing.
      expect(await fixture.registry.read.owner()).to.equal(owner);
      expect(await fixture.registry.read.pendingOwner()).to.equal(next);
      await expectRevert(asStranger().write.acceptOwnership(), "NotPendingOwner", addressOf(stranger));
      const hash = await fixture.registryAs(nextWallet).write.acceptOwnership();
      const receipt = await fixture.publicClient.waitForTransactionReceipt({ hash });
      const [event] = parseEventLogs({
        abi: identityRegistryAbi,
        logs: receipt.logs,
        eventName: "OwnershipTransferred",
      });
      expect(event?.args).to.deep.equal({ previousOwner: owner, newOwner: next });
      expect(await fixture.registry.read.owner()).to.equal(next);
      expect(await fixture.registry.read.pendingOwner()).to.equal(zeroAddress);
      await expectRevert(fixture.registry.write.setPaused([true]), "NotOwner", owner);
      await fixture.registryAs(nextWallet).write.setPaused([true]);
    });

    it("cancels a pending transfer by proposing the zero address", async () => {
      const nextWallet = fixture.launchers[4];
      if (!nextWallet) throw new Error("No next owner");
      await fixture.registry.write.transferOwnership([addressOf(nextWallet)]);
      await fixture.registry.write.transferOwnership([zeroAddress]);
      await expectRevert(fixture.registryAs(nextWallet).write.acceptOwnership(), "NotPendingOwner");
    });

    it("lets only the feed owner move the local price", async () => {
      const feedAsStranger = { address: fixture.priceFeed, abi: localPriceFeedAbi } as const;
      await expectRevert(
        stranger.writeContract({ ...feedAsStranger, functionName: "setAnswer", args: [1n] }),
        "NotOwner",
      );
    });
  });

  describe("construction", () => {
    it("refuses a zero owner, a zero tier price and a zero staleness bound", async () => {
      const clients = { publicClient: fixture.publicClient, walletClient: fixture.owner };
      const feed = fixture.priceFeed;
      await expectRevert(deployWithClients(clients, { priceFeed: feed, owner: zeroAddress }), "ZeroOwner");
      await expectRevert(
        deployWithClients(clients, { priceFeed: feed, tierPricesUsdMicros: [1n, 1n, 1n, 0n] }),
        "ZeroTierPrice",
      );
      await expectRevert(
        deployWithClients(clients, { priceFeed: feed, maxPriceAgeSeconds: 0 }),
        "ZeroMaxPriceAge",
      );
    });

    it("refuses a minimum commitment age of zero or of the maximum age and more", async () => {
      const clients = { publicClient: fixture.publicClient, walletClient: fixture.owner };
      const feed = fixture.priceFeed;
      for (const minCommitmentAgeSeconds of [0, 86_400, 86_401]) {
        await expectRevert(
          deployWithClients(clients, { priceFeed: feed, minCommitmentAgeSeconds }),
          "InvalidMinCommitmentAge",
          String(minCommitmentAgeSeconds),
        );
      }
      const { registry } = await deployWithClients(clients, {
        priceFeed: feed,
        minCommitmentAgeSeconds: 86_399,
      });
      expect(
        await fixture.publicClient.readContract({
          address: registry,
          abi: identityRegistryAbi,
          functionName: "minCommitmentAge",
        }),
      ).to.equal(86_399);
    });

    it("refuses price bounds that are not 0 < min < max <= int128 max", async () => {
      const clients = { publicClient: fixture.publicClient, walletClient: fixture.owner };
      const feed = fixture.priceFeed;
      const int128Max = 2n ** 127n - 1n;
      const bad: [bigint, bigint][] = [
        [0n, 10n],
        [-1n, 10n],
        [10n, 10n],
        [10n, 9n],
        [1n, int128Max + 1n],
      ];
      for (const [minAnswer, maxAnswer] of bad) {
        await expectRevert(
          deployWithClients(clients, { priceFeed: feed, minAnswer, maxAnswer }),
          "InvalidPriceBounds",
          `${minAnswer}, ${maxAnswer}`,
        );
        await expectRevert(
          fixture.registry.write.setPriceBounds([minAnswer, maxAnswer]),
          "InvalidPriceBounds",
        );
      }
      await fixture.registry.write.setPriceBounds([1n, int128Max]);
      expect(await fixture.registry.read.priceBounds()).to.deep.equal([1n, int128Max]);
    });
  });

  describe("prices and feed", () => {
    it("LocalPriceFeed answers like a Chainlink aggregator, keeping only the latest round", async () => {
      const { feed } = fixture;
      expect(await feed.read.decimals()).to.equal(8);
      const [roundBefore] = await feed.read.latestRoundData();
      await feed.write.setRoundData([1_234n, 1_700_000_000n]);
      const latest = await feed.read.latestRoundData();
      expect(latest).to.deep.equal([
        roundBefore + 1n,
        1_234n,
        1_700_000_000n,
        1_700_000_000n,
        roundBefore + 1n,
      ]);
      expect(await feed.read.getRoundData([roundBefore + 1n])).to.deep.equal(latest);
      await expectRevert(feed.read.getRoundData([roundBefore]), "NoDataPresent", String(roundBefore));
    });

    it("sets tier prices, emits them, and quotes with them; zero prices are refused", async () => {
      const prices = [1_500_000n, 3_000_000n, 6_000_000n, 20_000_000n] as const;
      const hash = await fixture.registry.write.setTierPrices([[...prices]]);
      const receipt = await fixture.publicClient.waitForTransactionReceipt({ hash });
      const [event] = parseEventLogs({
        abi: identityRegistryAbi,
        logs: receipt.logs,
        eventName: "TierPricesUpdated",
      });
      expect(event?.args.usdMicros).to.deep.equal(prices);
      expect(await fixture.registry.read.tierPrices()).to.deep.equal(prices);
      expect(await fixture.registry.read.tierPriceUsdMicros([604_800])).to.equal(6_000_000n);
      expect(await fixture.registry.read.quote([ONE_DAY])).to.equal(
        (1_500_000n * 10n ** 20n + ETH_PRICE_ANSWER - 1n) / ETH_PRICE_ANSWER,
      );
      await expectRevert(fixture.registry.write.setTierPrices([[1n, 0n, 1n, 1n]]), "ZeroTierPrice");
      expect(await fixture.registry.read.tierPrices()).to.deep.equal(prices);
    });

    it("switches to a feed with other decimals and prices through it once the bounds follow", async () => {
      const feed18 = await deployFeed(fixture, 18, 4_000n * 10n ** 18n);
      await fixture.registry.write.setPriceFeed([feed18]);
      expect(await fixture.registry.read.priceFeed()).to.equal(feed18);
      // Bounds are in the feed's units: until they are moved too, every answer is refused (fail closed).
      const [minAnswer, maxAnswer] = await fixture.registry.read.priceBounds();
      await expectRevert(
        fixture.registry.read.quote([ONE_DAY]),
        "PriceOutOfBounds",
        `${4_000n * 10n ** 18n}, ${minAnswer}, ${maxAnswer}`,
      );
      await fixture.registry.write.setPriceBounds([100n * 10n ** 18n, 100_000n * 10n ** 18n]);
      // 5 USD at 4,000 USD/ETH = 0.00125 ETH exactly.
      expect(await fixture.registry.read.quote([ONE_DAY])).to.equal(1_250_000_000_000_000n);
      expect(DEFAULT_TIER_PRICES_USD_MICROS[0]).to.equal(5_000_000n);
    });

    it("refuses a zero feed address and feeds with more than 18 decimals", async () => {
      await expectRevert(fixture.registry.write.setPriceFeed([zeroAddress]), "ZeroAddress");
      const feed19 = await deployFeed(fixture, 19, 1n);
      await expectRevert(fixture.registry.write.setPriceFeed([feed19]), "UnsupportedFeedDecimals", "19");
    });

    it("tightens and loosens the staleness bound; zero is refused", async () => {
      const now = (await fixture.publicClient.getBlock()).timestamp;
      await fixture.feed.write.setRoundData([ETH_PRICE_ANSWER, now - 600n]);
      expect(await fixture.registry.read.quote([ONE_DAY])).to.equal(expectedFeeWei(0));
      await fixture.registry.write.setMaxPriceAge([300]);
      expect(await fixture.registry.read.maxPriceAge()).to.equal(300);
      await expectRevert(fixture.registry.read.quote([ONE_DAY]), "StalePrice");
      await expectRevert(fixture.registry.write.setMaxPriceAge([0]), "ZeroMaxPriceAge");
    });
  });

  describe("withdrawal", () => {
    it("sends collected fees to the treasury and emits Withdrawn", async () => {
      const launcher = fixture.launchers[0];
      if (!launcher) throw new Error("No launcher");
      const fee = expectedFeeWei(0);
      await commitAndReserve(fixture, launcher, { name: "Moon", ticker: "MOON", value: fee });
      const treasury = addressOf(fixture.launchers[3]);
      const before = await fixture.publicClient.getBalance({ address: treasury });
      const hash = await fixture.registry.write.withdraw([treasury, fee]);
      const receipt = await fixture.publicClient.waitForTransactionReceipt({ hash });
      const [event] = parseEventLogs({
        abi: identityRegistryAbi,
        logs: receipt.logs,
        eventName: "Withdrawn",
      });
      expect(event?.args).to.deep.equal({ to: treasury, amountWei: fee });
      expect(await fixture.publicClient.getBalance({ address: treasury })).to.equal(before + fee);
      expect(await fixture.publicClient.getBalance({ address: fixture.registry.address })).to.equal(0n);
    });

    it("refuses more than the balance and the zero address", async () => {
      await expectRevert(
        fixture.registry.write.withdraw([addressOf(stranger), 1n]),
        "InsufficientBalance",
        "0, 1",
      );
      await expectRevert(fixture.registry.write.withdraw([zeroAddress, 0n]), "ZeroAddress");
    });
  });

  describe("reentrancy and refused transfers", () => {
    it("blocks a re-entry into reserve from the refund, and keeps only the outer reservation", async () => {
      const attacker = await deployReentrantWallet();
      const registry = fixture.registry.address;
      // Both reservations are committed and matured, so only the guard can stop the second.
      await attacker.write.execute([registry, await commitCall(attacker.address, "First", "FIRST")]);
      await attacker.write.execute([registry, await commitCall(attacker.address, "Second", "SECOND")]);
      await attacker.write.armReentry([registry, reserveCall("Second", "SECOND")]);
      const fee = expectedFeeWei(0);
      await attacker.write.execute([registry, reserveCall("First", "FIRST")], { value: fee + 1_000n });
      expect(await attacker.read.reentryAttempted()).to.equal(true);
      expect(await attacker.read.reentrySucceeded()).to.equal(false);
      expect(await attacker.read.reentryRevertData()).to.equal(errorSelector("ReentrantCall"));
      expect(await fixture.registry.read.activeReservationCount([attacker.address])).to.equal(1n);
      const [secondName, secondTicker] = await fixture.registry.read.identityHashes(["Second", "SECOND"]);
      const [secondHolder] = await fixture.registry.read.reservationOf([secondName, secondTicker]);
      expect(secondHolder).to.equal(zeroAddress);
      expect(await fixture.publicClient.getBalance({ address: registry })).to.equal(fee);
    });

    it("blocks a re-entry into withdraw by a contract owner, paying out only once", async () => {
      const launcher = fixture.launchers[0];
      if (!launcher) throw new Error("No launcher");
      const fee = expectedFeeWei(0);
      await commitAndReserve(fixture, launcher, { name: "One", ticker: "ONE", value: fee });
      await commitAndReserve(fixture, launcher, { name: "Two", ticker: "TWO", value: fee });
      const attacker = await deployReentrantWallet();
      const registry = fixture.registry.address;
      await fixture.registry.write.transferOwnership([attacker.address]);
      await attacker.write.execute([
        registry,
        encodeFunctionData({ abi: identityRegistryAbi, functionName: "acceptOwnership" }),
      ]);
      expect(await fixture.registry.read.owner()).to.equal(getAddress(attacker.address));
      const withdrawOne = encodeFunctionData({
        abi: identityRegistryAbi,
        functionName: "withdraw",
        args: [attacker.address, fee],
      });
      await attacker.write.armReentry([registry, withdrawOne]);
      await attacker.write.execute([registry, withdrawOne]);
      expect(await attacker.read.reentryAttempted()).to.equal(true);
      expect(await attacker.read.reentryRevertData()).to.equal(errorSelector("ReentrantCall"));
      expect(await fixture.publicClient.getBalance({ address: registry })).to.equal(fee);
      expect(await fixture.publicClient.getBalance({ address: attacker.address })).to.equal(fee);
    });

    it("reverts the whole reservation when the refund is refused, and the withdrawal when payment is refused", async () => {
      const wallet = await deployReentrantWallet();
      await wallet.write.setRejectPayments([true]);
      const registry = fixture.registry.address;
      const fee = expectedFeeWei(0);
      await wallet.write.execute([registry, await commitCall(wallet.address, "Moon", "MOON")]);
      await expectRevert(
        wallet.write.execute([registry, reserveCall("Moon", "MOON")], { value: fee + 1n }),
        "RefundFailed",
      );
      // Exact payment needs no refund, so a contract that refuses ETH can still reserve.
      await wallet.write.execute([registry, reserveCall("Moon", "MOON")], { value: fee });
      await expectRevert(fixture.registry.write.withdraw([wallet.address, fee]), "WithdrawalFailed");
    });
  });

  /** Calldata of `launcher`'s commitment to the reservation reserveCall reveals. */
  async function commitCall(launcher: Address, name: string, ticker: string) {
    const commitment = await commitmentFor(fixture, launcher, { name, ticker });
    return encodeFunctionData({ abi: identityRegistryAbi, functionName: "commit", args: [commitment] });
  }

  async function deployReentrantWallet() {
    const hash = await fixture.owner.deployContract({
      abi: REENTRANT_WALLET_ABI,
      bytecode: readArtifact("ReentrantWallet").bytecode,
    });
    const receipt = await fixture.publicClient.waitForTransactionReceipt({ hash });
    if (!receipt.contractAddress) throw new Error("ReentrantWallet deployment failed");
    return getContract({
      address: getAddress(receipt.contractAddress),
      abi: REENTRANT_WALLET_ABI,
      client: { public: fixture.publicClient, wallet: fixture.owner },
    });
  }
});

function reserveCall(name: string, ticker: string) {
  return encodeFunctionData({
    abi: identityRegistryAbi,
    functionName: "reserve",
    args: [name, ticker, ONE_DAY, PARTNER_REF, SECRET],
  });
}

/** Selector of an argument-less custom error of the registry. */
function errorSelector(name: string): string {
  const error = identityRegistryAbi.find((item) => item.type === "error" && item.name === name);
  if (!error) throw new Error(`No error ${name} in the registry ABI`);
  return toFunctionSelector(`${name}()`);
}

async function deployFeed(fixture: RegistryFixture, decimals: number, answer: bigint): Promise<Address> {
  const hash = await fixture.owner.deployContract({
    abi: localPriceFeedAbi,
    bytecode: readArtifact("LocalPriceFeed").bytecode,
    args: [addressOf(fixture.owner), decimals, "test feed", answer],
  });
  const receipt = await fixture.publicClient.waitForTransactionReceipt({ hash });
  if (!receipt.contractAddress) throw new Error("Feed deployment failed");
  return getAddress(receipt.contractAddress);
}
