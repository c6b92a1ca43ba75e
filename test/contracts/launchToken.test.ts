// The example launchpad's minimal ERC-20 (contracts/examples/LaunchToken.sol), deployed by a launch.
import { expect } from "chai";
import { type Address, getContract, maxUint256, parseEventLogs, zeroAddress, zeroHash } from "viem";
import { launchTokenAbi } from "../../contracts/test/abi/launchToken";
import { addressOf, type Wallet } from "./fixture";
import { expectGuardRevert, FREE, type GuardFixture, guardFixture } from "./guardFixture";

const SUPPLY = 1_000_000_000n * 10n ** 18n;

describe("LaunchToken", () => {
  let fixture: GuardFixture;
  let address: Address;
  let launcher: Address;
  let spender: Address;
  let receiver: Address;

  beforeEach(async () => {
    fixture = await guardFixture();
    launcher = addressOf(fixture.copycat);
    spender = addressOf(fixture.other);
    receiver = addressOf(fixture.holder);
    address = await fixture.launchpad.read.predictToken([FREE.name, FREE.ticker, launcher, zeroHash]);
    await fixture.launchpadAs(fixture.copycat).write.launchRegistryOnly([FREE.name, FREE.ticker, zeroHash]);
  });

  const tokenAs = (wallet: Wallet) =>
    getContract({ address, abi: launchTokenAbi, client: { public: fixture.publicClient, wallet } });

  it("minted the whole supply to the launcher, with a Transfer from the zero address", async () => {
    const logs = await fixture.publicClient.getContractEvents({
      address,
      abi: launchTokenAbi,
      eventName: "Transfer",
      fromBlock: "earliest",
    });
    expect(logs.map((log) => log.args)).to.deep.equal([{ from: zeroAddress, to: launcher, value: SUPPLY }]);
    expect(await tokenAs(fixture.copycat).read.balanceOf([launcher])).to.equal(SUPPLY);
  });

  it("transfers, and refuses more than the balance and the zero address", async () => {
    const token = tokenAs(fixture.copycat);
    const hash = await token.write.transfer([receiver, 5n]);
    const receipt = await fixture.publicClient.waitForTransactionReceipt({ hash });
    const [event] = parseEventLogs({ abi: launchTokenAbi, logs: receipt.logs, eventName: "Transfer" });
    expect(event?.args).to.deep.equal({ from: launcher, to: receiver, value: 5n });
    expect(await token.read.balanceOf([receiver])).to.equal(5n);
    expect(await token.read.balanceOf([launcher])).to.equal(SUPPLY - 5n);
    await expectGuardRevert(
      tokenAs(fixture.holder).write.transfer([launcher, 6n]),
      "ERC20InsufficientBalance",
      [receiver, 5n, 6n],
    );
    await expectGuardRevert(token.write.transfer([zeroAddress, 1n]), "ERC20InvalidReceiver", [zeroAddress]);
  });

  it("spends allowances (an unlimited one is never decreased) and refuses beyond them", async () => {
    const owner = tokenAs(fixture.copycat);
    await owner.write.approve([spender, 10n]);
    expect(await owner.read.allowance([launcher, spender])).to.equal(10n);
    await tokenAs(fixture.other).write.transferFrom([launcher, receiver, 4n]);
    expect(await owner.read.allowance([launcher, spender])).to.equal(6n);
    await expectGuardRevert(
      tokenAs(fixture.other).write.transferFrom([launcher, receiver, 7n]),
      "ERC20InsufficientAllowance",
      [spender, 6n, 7n],
    );
    await owner.write.approve([spender, maxUint256]);
    await tokenAs(fixture.other).write.transferFrom([launcher, receiver, 7n]);
    expect(await owner.read.allowance([launcher, spender])).to.equal(maxUint256);
    expect(await owner.read.balanceOf([receiver])).to.equal(11n);
    await expectGuardRevert(owner.write.approve([zeroAddress, 1n]), "ERC20InvalidSpender", [zeroAddress]);
  });
});
