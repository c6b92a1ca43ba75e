// The on-chain launch check (launchAllowed / requireLaunchAllowed) and the trusted decision signers.
import { expect } from "chai";
import { type Address, getAddress, getContract, parseEventLogs, zeroAddress } from "viem";
import { identityRegistryAbi } from "../../contracts/abi/identityRegistry";
import { readArtifact } from "../../scripts/evm/artifacts";
import {
  addressOf,
  commitAndReserve,
  expectedFeeWei,
  expectRevert,
  latestTimestamp,
  nextBlockAt,
  type RegistryFixture,
  registryFixture,
  type Wallet,
} from "./fixture";

/** Interface of the test-only contracts/test/LaunchCheckGasProbe.sol. */
const PROBE_ABI = [
  {
    type: "function",
    name: "measureLaunchAllowed",
    inputs: [
      { name: "registry", type: "address" },
      { name: "name", type: "string" },
      { name: "ticker", type: "string" },
      { name: "launcher", type: "address" },
      { name: "warm", type: "bool" },
    ],
    outputs: [
      { name: "gasUsed", type: "uint256" },
      { name: "allowed", type: "bool" },
    ],
    stateMutability: "view",
  },
] as const;

describe("IdentityRegistry launch check", () => {
  let fixture: RegistryFixture;
  let holder: Wallet;
  let stranger: Address;
  let expiresAt: bigint;

  beforeEach(async () => {
    fixture = await registryFixture();
    const [first] = fixture.launchers;
    if (!first) throw new Error("No launcher");
    holder = first;
    stranger = addressOf(fixture.launchers[1]);
    await commitAndReserve(fixture, holder, { name: "Moon Dog", ticker: "MOON", value: expectedFeeWei(0) });
    const [nameHash, tickerHash] = await fixture.registry.read.identityHashes(["Moon Dog", "MOON"]);
    [, expiresAt] = await fixture.registry.read.reservationOf([nameHash, tickerHash]);
  });

  const check = (name: string, ticker: string, launcher: Address) =>
    fixture.registry.read.launchAllowed([name, ticker, launcher]);
  const requireCheck = (name: string, ticker: string, launcher: Address) =>
    fixture.registry.read.requireLaunchAllowed([name, ticker, launcher]);

  it("allows anyone on a free pair, naming no holder", async () => {
    expect(await check("Sun Cat", "SUN", stranger)).to.deep.equal([true, zeroAddress, 0n]);
    await requireCheck("Sun Cat", "SUN", stranger);
  });

  it("allows the holder of a live reservation, naming it", async () => {
    expect(await check("Moon Dog", "MOON", addressOf(holder))).to.deep.equal([
      true,
      addressOf(holder),
      expiresAt,
    ]);
    await requireCheck("Moon Dog", "MOON", addressOf(holder));
  });

  it("refuses anyone else while the reservation is live, and requireLaunchAllowed reverts LaunchRefused", async () => {
    expect(await check("Moon Dog", "MOON", stranger)).to.deep.equal([false, addressOf(holder), expiresAt]);
    await expectRevert(
      requireCheck("Moon Dog", "MOON", stranger),
      "LaunchRefused",
      `${addressOf(holder)}, ${expiresAt}`,
    );
    // The zero address is no wildcard.
    expect((await check("Moon Dog", "MOON", zeroAddress))[0]).to.equal(false);
  });

  it("folds on-chain: differently cased and look-alike spellings of a held pair are refused too", async () => {
    const spellings = [
      ["moon dog", "moon"],
      ["MOONDOG", "MOON"],
      ["m00n-d0g", "m00n"],
      ["M0 0N.D0G!", "M0ON"],
    ] as const;
    for (const [name, ticker] of spellings) {
      expect(await check(name, ticker, stranger)).to.deep.equal([false, addressOf(holder), expiresAt]);
      await expectRevert(requireCheck(name, ticker, stranger), "LaunchRefused");
    }
    // A spelling that folds to another pair is that pair: "$M0ON" is SMOON.
    expect((await check("Moon Dog", "$M0ON", stranger))[0]).to.equal(true);
  });

  it("allows everyone again from exactly the expiry", async () => {
    await nextBlockAt(expiresAt - 1n);
    await fixture.owner.sendTransaction({ to: stranger, value: 0n });
    expect((await check("Moon Dog", "MOON", stranger))[0]).to.equal(false);
    await nextBlockAt(expiresAt);
    await fixture.owner.sendTransaction({ to: stranger, value: 0n });
    expect(await check("Moon Dog", "MOON", stranger)).to.deep.equal([true, zeroAddress, 0n]);
    await requireCheck("Moon Dog", "MOON", stranger);
  });

  it("reverts only BadLength, for names and tickers that fold out of bounds", async () => {
    await expectRevert(check("🚀", "MOON", stranger), "BadLength");
    await expectRevert(check("Moon", "M", stranger), "BadLength");
    await expectRevert(requireCheck("A".repeat(65), "MOON", stranger), "BadLength");
  });

  it("answers a calling contract the same way (the gas bench measures this call)", async () => {
    const hash = await fixture.owner.deployContract({
      abi: PROBE_ABI,
      bytecode: readArtifact("LaunchCheckGasProbe").bytecode,
    });
    const receipt = await fixture.publicClient.waitForTransactionReceipt({ hash });
    if (!receipt.contractAddress) throw new Error("Probe deployment failed");
    const probe = getContract({
      address: getAddress(receipt.contractAddress),
      abi: PROBE_ABI,
      client: { public: fixture.publicClient },
    });
    const [gasUsed, allowed] = await probe.read.measureLaunchAllowed([
      fixture.registry.address,
      "Moon Dog",
      "MOON",
      stranger,
      false,
    ]);
    expect(allowed).to.equal(false);
    expect(gasUsed > 0n).to.equal(true);
  });
});

describe("IdentityRegistry decision signers", () => {
  let fixture: RegistryFixture;
  const signer = getAddress(`0x${"51".repeat(20)}`);

  beforeEach(async () => {
    fixture = await registryFixture();
  });

  const isSigner = (at: bigint) => fixture.registry.read.isDecisionSigner([signer, at]);

  it("trusts a signer inside [validFrom, validUntil) only, and tells it with DecisionSignerSet", async () => {
    expect(await fixture.registry.read.decisionSignerWindow([signer])).to.deep.equal([0n, 0n]);
    expect(await isSigner(0n)).to.equal(false);
    const hash = await fixture.registry.write.setDecisionSigner([signer, 1_000n, 2_000n]);
    const receipt = await fixture.publicClient.waitForTransactionReceipt({ hash });
    const [event] = parseEventLogs({
      abi: identityRegistryAbi,
      logs: receipt.logs,
      eventName: "DecisionSignerSet",
    });
    expect(event?.args).to.deep.equal({ signer, validFrom: 1_000n, validUntil: 2_000n });
    expect(await fixture.registry.read.decisionSignerWindow([signer])).to.deep.equal([1_000n, 2_000n]);
    expect(await isSigner(999n)).to.equal(false);
    expect(await isSigner(1_000n)).to.equal(true);
    expect(await isSigner(1_999n)).to.equal(true);
    expect(await isSigner(2_000n)).to.equal(false);
    expect(
      await fixture.registry.read.isDecisionSigner([getAddress(`0x${"52".repeat(20)}`), 1_500n]),
    ).to.equal(false);
  });

  it("refuses the zero address and windows that do not end after they start", async () => {
    await expectRevert(fixture.registry.write.setDecisionSigner([zeroAddress, 0n, 1n]), "ZeroAddress");
    await expectRevert(
      fixture.registry.write.setDecisionSigner([signer, 5n, 5n]),
      "InvalidSignerWindow",
      "5, 5",
    );
    await expectRevert(
      fixture.registry.write.setDecisionSigner([signer, 6n, 5n]),
      "InvalidSignerWindow",
      "6, 5",
    );
  });

  it("revokes with immediate effect, keeping decisions made before the revocation valid", async () => {
    const now = BigInt(await latestTimestamp());
    await fixture.registry.write.setDecisionSigner([signer, now - 100n, now + 10_000n]);
    const revokedAt = now + 50n;
    await nextBlockAt(revokedAt);
    const hash = await fixture.registry.write.revokeDecisionSigner([signer]);
    const receipt = await fixture.publicClient.waitForTransactionReceipt({ hash });
    const [event] = parseEventLogs({
      abi: identityRegistryAbi,
      logs: receipt.logs,
      eventName: "DecisionSignerRevoked",
    });
    expect(event?.args).to.deep.equal({ signer, revokedAt });
    expect(await fixture.registry.read.decisionSignerWindow([signer])).to.deep.equal([now - 100n, revokedAt]);
    expect(await isSigner(revokedAt - 1n)).to.equal(true);
    expect(await isSigner(revokedAt)).to.equal(false);
    expect(await isSigner(now + 5_000n)).to.equal(false);
  });

  it("never lengthens a window: revoking an expired signer keeps its end, a future one becomes empty", async () => {
    const now = BigInt(await latestTimestamp());
    await fixture.registry.write.setDecisionSigner([signer, 100n, 200n]);
    await fixture.registry.write.revokeDecisionSigner([signer]);
    expect(await fixture.registry.read.decisionSignerWindow([signer])).to.deep.equal([100n, 200n]);
    const future = getAddress(`0x${"53".repeat(20)}`);
    await fixture.registry.write.setDecisionSigner([future, now + 1_000n, now + 2_000n]);
    await fixture.registry.write.revokeDecisionSigner([future]);
    const [validFrom, validUntil] = await fixture.registry.read.decisionSignerWindow([future]);
    expect(validFrom).to.equal(validUntil);
    expect(await fixture.registry.read.isDecisionSigner([future, now + 1_500n])).to.equal(false);
  });

  it("refuses to revoke an address that was never a signer", async () => {
    await expectRevert(
      fixture.registry.write.revokeDecisionSigner([signer]),
      "UnknownDecisionSigner",
      signer,
    );
  });

  it("re-trusts a revoked signer only through a new setDecisionSigner", async () => {
    const now = BigInt(await latestTimestamp());
    await fixture.registry.write.setDecisionSigner([signer, now, now + 1_000n]);
    await fixture.registry.write.revokeDecisionSigner([signer]);
    await fixture.registry.write.setDecisionSigner([signer, now + 10n, now + 2_000n]);
    expect(await isSigner(now + 1_500n)).to.equal(true);
  });
});
