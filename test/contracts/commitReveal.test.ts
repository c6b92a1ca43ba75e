// Commit, then reveal: no path reserves without the caller's own matured, unexpired, unused commitment to
// exactly the revealed arguments. The front-running scenario runs with automine off: copies of the creator's
// transactions, sent from another wallet with a higher priority fee, are mined in the same blocks ahead of them.
// Before commit-reveal the copied one-step reserve won the pair (the creator's transaction reverted
// PairReserved); now every copy reverts and the creator holds the pair.
import { expect } from "chai";
import {
  decodeErrorResult,
  encodeAbiParameters,
  encodeFunctionData,
  type Hash,
  type Hex,
  keccak256,
  parseAbiParameters,
  parseEventLogs,
  parseGwei,
  type TransactionReceipt,
  toHex,
  zeroAddress,
} from "viem";
import { identityRegistryAbi } from "../../contracts/abi/identityRegistry";
import { foldV1 } from "../../core/fold";
import {
  addressOf,
  advance,
  commitAndReserve,
  commitFor,
  commitmentFor,
  DURATIONS,
  expectedFeeWei,
  expectRevert,
  inProcessNetwork,
  keepPriceFreshUntil,
  latestTimestamp,
  nextBlockAt,
  ONE_DAY,
  PARTNER_REF,
  type RegistryFixture,
  type Reveal,
  registryFixture,
  revealAs,
  SECRET,
  type Wallet,
  withRegistry,
} from "./fixture";

const MAX_COMMITMENT_AGE = 86_400n;

describe("IdentityRegistry commit and reveal", () => {
  let fixture: RegistryFixture;
  let creator: Wallet;
  let other: Wallet;
  const moon: Reveal = { name: "Moon", ticker: "MOON", value: expectedFeeWei(0) };

  beforeEach(async () => {
    fixture = await registryFixture();
    const [first, second] = [fixture.launchers[0], fixture.launchers[1]];
    if (!first || !second) throw new Error("Not enough launchers");
    [creator, other] = [first, second];
  });

  async function holderOf(name: string, ticker: string) {
    const [nameHash, tickerHash] = await fixture.registry.read.identityHashes([name, ticker]);
    const [holder] = await fixture.registry.read.reservationOf([nameHash, tickerHash]);
    return holder;
  }

  describe("makeCommitment", () => {
    it("is keccak256(abi.encode(nameHash, tickerHash, launcher, durationSeconds, partnerRef, secret)) of the folded pair", async () => {
      const launcher = addressOf(creator);
      const encoded = encodeAbiParameters(
        parseAbiParameters("bytes32, bytes32, address, uint32, bytes32, bytes32"),
        [
          keccak256(toHex(foldV1("Dog Wif Hat 2"))),
          keccak256(toHex(foldV1("$wif"))),
          launcher,
          DURATIONS[2],
          PARTNER_REF,
          SECRET,
        ],
      );
      const onChain = await fixture.registry.read.makeCommitment([
        "Dog Wif Hat 2",
        "$wif",
        launcher,
        DURATIONS[2],
        PARTNER_REF,
        SECRET,
      ]);
      expect(onChain).to.equal(keccak256(encoded));
      // Any spelling that folds alike commits to the same pair.
      expect(
        await fixture.registry.read.makeCommitment([
          "DOGWIFHAT2",
          "SWIF",
          launcher,
          DURATIONS[2],
          PARTNER_REF,
          SECRET,
        ]),
      ).to.equal(onChain);
    });
  });

  describe("commit", () => {
    it("stores the block time under the committer and emits Committed with both fields indexed", async () => {
      const commitment = await commitmentFor(fixture, addressOf(creator), moon);
      const hash = await fixture.registryAs(creator).write.commit([commitment]);
      const receipt = await fixture.publicClient.waitForTransactionReceipt({ hash });
      const block = await fixture.publicClient.getBlock({ blockNumber: receipt.blockNumber });
      expect(await fixture.registry.read.commitmentOf([addressOf(creator), commitment])).to.equal(
        block.timestamp,
      );
      expect(await fixture.registry.read.commitmentOf([addressOf(other), commitment])).to.equal(0n);
      const [event] = parseEventLogs({
        abi: identityRegistryAbi,
        logs: receipt.logs,
        eventName: "Committed",
      });
      expect(event?.args).to.deep.equal({ launcher: addressOf(creator), commitment });
      expect(receipt.logs[0]?.topics).to.have.length(3);
    });

    it("refuses the same value twice from the same wallet until it has expired, naming when it was made", async () => {
      const { commitment, committedAt } = await commitFor(fixture, creator, moon);
      await expectRevert(
        fixture.registryAs(creator).write.commit([commitment]),
        "CommitmentExists",
        `${committedAt}`,
      );
      await nextBlockAt(committedAt + MAX_COMMITMENT_AGE);
      await expectRevert(
        fixture.registryAs(creator).write.commit([commitment]),
        "CommitmentExists",
        `${committedAt}`,
      );
      // Expired: committing again restarts its clock.
      await nextBlockAt(committedAt + MAX_COMMITMENT_AGE + 1n);
      await fixture.registryAs(creator).write.commit([commitment]);
      expect(await fixture.registry.read.commitmentOf([addressOf(creator), commitment])).to.equal(
        committedAt + MAX_COMMITMENT_AGE + 1n,
      );
    });

    it("lets another wallet commit the same value, stored apart from the first", async () => {
      const { commitment, committedAt } = await commitFor(fixture, creator, moon);
      await fixture.registryAs(other).write.commit([commitment]);
      expect(await fixture.registry.read.commitmentOf([addressOf(creator), commitment])).to.equal(
        committedAt,
      );
      const copiedAt = await fixture.registry.read.commitmentOf([addressOf(other), commitment]);
      expect(copiedAt > committedAt).to.equal(true);
    });

    it("is not payable and stays open while reservations are paused", async () => {
      const commitment = await commitmentFor(fixture, addressOf(creator), moon);
      let refused = false;
      try {
        await creator.writeContract({
          address: fixture.registry.address,
          abi: [
            {
              type: "function",
              name: "commit",
              inputs: [{ name: "commitment", type: "bytes32" }],
              outputs: [],
              stateMutability: "payable",
            },
          ],
          functionName: "commit",
          args: [commitment],
          value: 1n,
        });
      } catch {
        refused = true;
      }
      expect(refused).to.equal(true);
      await fixture.registry.write.setPaused([true]);
      await fixture.registryAs(creator).write.commit([commitment]);
    });
  });

  describe("reveal", () => {
    it("consumes the commitment and reserves exactly as before (same Reserved event)", async () => {
      const { commitment } = await commitFor(fixture, creator, moon);
      const hash = await revealAs(fixture, creator, moon);
      const receipt = await fixture.publicClient.waitForTransactionReceipt({ hash });
      expect(await fixture.registry.read.commitmentOf([addressOf(creator), commitment])).to.equal(0n);
      const events = parseEventLogs({ abi: identityRegistryAbi, logs: receipt.logs });
      expect(events.map((event) => event.eventName)).to.deep.equal(["Reserved"]);
      expect(await holderOf("Moon", "MOON")).to.equal(addressOf(creator));
    });

    it("refuses a reveal without any commitment", async () => {
      await expectRevert(revealAs(fixture, creator, moon), "CommitmentNotFound");
      expect(await holderOf("Moon", "MOON")).to.equal(zeroAddress);
    });

    it("refuses a reveal of another launcher's commitment, committed by it or copied", async () => {
      const { commitment } = await commitFor(fixture, creator, moon);
      await expectRevert(revealAs(fixture, other, moon), "CommitmentNotFound");
      // A copy of the commitment is stored under the copier, but its reveal hashes the copier's address.
      await fixture.registryAs(other).write.commit([commitment]);
      await expectRevert(revealAs(fixture, other, moon), "CommitmentNotFound");
      // A commitment the copier makes naming the creator as launcher is no better.
      const forCreator = await commitmentFor(fixture, addressOf(creator), {
        ...moon,
        secret: keccak256("0x01"),
      });
      await fixture.registryAs(other).write.commit([forCreator]);
      await expectRevert(
        revealAs(fixture, other, { ...moon, secret: keccak256("0x01") }),
        "CommitmentNotFound",
      );
      await expectRevert(
        revealAs(fixture, creator, { ...moon, secret: keccak256("0x01") }),
        "CommitmentNotFound",
      );
      await revealAs(fixture, creator, moon);
      expect(await holderOf("Moon", "MOON")).to.equal(addressOf(creator));
    });

    it("refuses a reveal whose arguments differ from the commitment in any field", async () => {
      await commitFor(fixture, creator, moon);
      const variants: Reveal[] = [
        { ...moon, durationSeconds: DURATIONS[1], value: expectedFeeWei(1) },
        { ...moon, partnerRef: keccak256(toHex("another partner")) },
        { ...moon, secret: keccak256(toHex("another secret")) },
        { ...moon, name: "Moons" },
        { ...moon, ticker: "MOONS" },
      ];
      for (const variant of variants) {
        await expectRevert(revealAs(fixture, creator, variant), "CommitmentNotFound");
      }
      // The pair is committed folded: another spelling of the same pair is the same reveal.
      await revealAs(fixture, creator, { ...moon, name: "m00n", ticker: "m0on" });
      expect(await holderOf("Moon", "MOON")).to.equal(addressOf(creator));
    });

    it("refuses a consumed commitment, even once the pair is free again", async () => {
      await commitAndReserve(fixture, creator, moon);
      await expectRevert(revealAs(fixture, creator, moon), "CommitmentNotFound");
      await advance(fixture, ONE_DAY);
      await expectRevert(revealAs(fixture, creator, moon), "CommitmentNotFound");
      // A fresh commitment to the same arguments works.
      await commitAndReserve(fixture, creator, moon);
    });

    it("refuses a reveal before minCommitmentAge and accepts it at exactly that age", async () => {
      const slow = await withRegistry(fixture, { minCommitmentAgeSeconds: 60 });
      expect(await slow.registry.read.minCommitmentAge()).to.equal(60);
      const { committedAt } = await commitFor(slow, creator, moon);
      await keepPriceFreshUntil(slow, Number(committedAt) + 60);
      await nextBlockAt(committedAt + 59n);
      await expectRevert(revealAs(slow, creator, moon), "CommitmentTooNew", `${committedAt + 60n}`);
      await nextBlockAt(committedAt + 60n);
      await revealAs(slow, creator, moon);
    });

    it("on the default local registry (one second), a reveal can never share its commitment's block", async () => {
      expect(await fixture.registry.read.minCommitmentAge()).to.equal(1);
      const { committedAt } = await commitFor(fixture, creator, moon);
      await nextBlockAt(committedAt + 1n);
      await revealAs(fixture, creator, moon);
    });

    it("accepts a reveal at exactly MAX_COMMITMENT_AGE and refuses it one second later", async () => {
      expect(await fixture.registry.read.MAX_COMMITMENT_AGE()).to.equal(MAX_COMMITMENT_AGE);
      const { committedAt } = await commitFor(fixture, creator, moon);
      const late = { ...moon, ticker: "MOOON" };
      await commitFor(fixture, creator, late);
      const lateCommittedAt = BigInt(await latestTimestamp());
      await keepPriceFreshUntil(fixture, Number(lateCommittedAt + MAX_COMMITMENT_AGE + 1n));
      await nextBlockAt(committedAt + MAX_COMMITMENT_AGE);
      await revealAs(fixture, creator, moon);
      await nextBlockAt(lateCommittedAt + MAX_COMMITMENT_AGE + 1n);
      await expectRevert(
        revealAs(fixture, creator, late),
        "CommitmentExpired",
        `${lateCommittedAt + MAX_COMMITMENT_AGE}`,
      );
    });

    it("keeps the commitment when the reveal fails for another reason, so it can be retried", async () => {
      const { commitment, committedAt } = await commitFor(fixture, creator, moon);
      await expectRevert(revealAs(fixture, creator, { ...moon, value: 1n }), "InsufficientPayment");
      expect(await fixture.registry.read.commitmentOf([addressOf(creator), commitment])).to.equal(
        committedAt,
      );
      await revealAs(fixture, creator, moon);
    });
  });
});

describe("IdentityRegistry front-running (automine off, copies in the same block with a higher fee)", () => {
  let fixture: RegistryFixture;
  let creator: Wallet;
  let frontRunner: Wallet;
  const pair = { name: "Moon", ticker: "MOON" };

  beforeEach(async () => {
    fixture = await registryFixture();
    const [first, second] = [fixture.launchers[0], fixture.launchers[1]];
    if (!first || !second) throw new Error("Not enough launchers");
    [creator, frontRunner] = [first, second];
    const { hre } = await inProcessNetwork();
    await hre.network.provider.send("evm_setAutomine", [false]);
  });

  afterEach(async () => {
    const { hre } = await inProcessNetwork();
    await hre.network.provider.send("evm_setAutomine", [true]);
  });

  /** Sends without estimating (an estimate would run against the pending block), at the given tip. */
  const send = (wallet: Wallet, data: Hex, value: bigint, tipGwei: string, nonceOffset = 0): Promise<Hash> =>
    (async () =>
      wallet.sendTransaction({
        to: fixture.registry.address,
        data,
        value,
        gas: 300_000n,
        maxFeePerGas: parseGwei("100"),
        maxPriorityFeePerGas: parseGwei(tipGwei),
        nonce:
          (await fixture.publicClient.getTransactionCount({ address: wallet.account.address })) + nonceOffset,
      }))();

  /** Mines one block and returns the receipts of `hashes`, all of which it must contain. */
  async function mine(...hashes: Hash[]): Promise<TransactionReceipt[]> {
    const { hre } = await inProcessNetwork();
    await hre.network.provider.send("evm_mine", []);
    const receipts = await Promise.all(
      hashes.map((hash) => fixture.publicClient.getTransactionReceipt({ hash })),
    );
    expect(new Set(receipts.map((receipt) => receipt.blockNumber)).size).to.equal(1);
    return receipts;
  }

  /** The custom error a mined transaction reverted with, read from its trace. */
  async function revertNameOf(hash: Hash): Promise<string> {
    const { hre } = await inProcessNetwork();
    const trace = (await hre.network.provider.send("debug_traceTransaction", [
      hash,
      { disableStorage: true, disableMemory: true, disableStack: true },
    ])) as { failed: boolean; returnValue: string };
    expect(trace.failed).to.equal(true);
    const data = (trace.returnValue.startsWith("0x") ? trace.returnValue : `0x${trace.returnValue}`) as Hex;
    return decodeErrorResult({ abi: identityRegistryAbi, data }).errorName;
  }

  const revealData = (secret: Hex = SECRET) =>
    encodeFunctionData({
      abi: identityRegistryAbi,
      functionName: "reserve",
      args: [pair.name, pair.ticker, ONE_DAY, PARTNER_REF, secret],
    });
  const commitData = (commitment: Hex) =>
    encodeFunctionData({ abi: identityRegistryAbi, functionName: "commit", args: [commitment] });

  async function holderOfPair() {
    const [nameHash, tickerHash] = await fixture.registry.read.identityHashes([pair.name, pair.ticker]);
    const [holder] = await fixture.registry.read.reservationOf([nameHash, tickerHash]);
    return holder;
  }

  it("a copied commit and a copied reveal both lose: the creator holds the pair", async () => {
    const commitment = await commitmentFor(fixture, addressOf(creator), pair);
    const creatorCommit = await send(creator, commitData(commitment), 0n, "1");
    const copiedCommit = await send(frontRunner, commitData(commitment), 0n, "5");
    const [creatorCommitted, copyCommitted] = await mine(creatorCommit, copiedCommit);
    // The copy was mined first and stored, but under the copier, where no reveal of its own can match it.
    expect(copyCommitted?.transactionIndex).to.be.lessThan(creatorCommitted?.transactionIndex ?? 0);
    expect([creatorCommitted?.status, copyCommitted?.status]).to.deep.equal(["success", "success"]);
    expect(await fixture.registry.read.commitmentOf([addressOf(frontRunner), commitment])).to.not.equal(0n);

    const fee = expectedFeeWei(0);
    const creatorReveal = await send(creator, revealData(), fee, "1");
    const copiedReveal = await send(frontRunner, revealData(), fee, "5");
    const [creatorRevealed, copyRevealed] = await mine(creatorReveal, copiedReveal);
    expect(copyRevealed?.transactionIndex).to.be.lessThan(creatorRevealed?.transactionIndex ?? 0);
    expect(copyRevealed?.status).to.equal("reverted");
    expect(await revertNameOf(copiedReveal)).to.equal("CommitmentNotFound");
    expect(creatorRevealed?.status).to.equal("success");
    expect(await holderOfPair()).to.equal(addressOf(creator));
  });

  it("a copier who reads the pair from the pending reveal cannot commit and reveal in time", async () => {
    const commitment = await commitmentFor(fixture, addressOf(creator), pair);
    await mine(await send(creator, commitData(commitment), 0n, "1"));

    // The reveal shows name and ticker; the copier commits for itself and reveals in the creator's block.
    const fee = expectedFeeWei(0);
    const ownSecret = keccak256(toHex("front-runner"));
    const ownCommitment = await commitmentFor(fixture, addressOf(frontRunner), {
      ...pair,
      secret: ownSecret,
    });
    const creatorReveal = await send(creator, revealData(), fee, "1");
    const ownCommit = await send(frontRunner, commitData(ownCommitment), 0n, "5");
    const ownReveal = await send(frontRunner, revealData(ownSecret), fee, "5", 1);
    const [creatorRevealed, ownCommitted, ownRevealed] = await mine(creatorReveal, ownCommit, ownReveal);
    expect(ownCommitted?.status).to.equal("success");
    expect(ownRevealed?.transactionIndex).to.be.lessThan(creatorRevealed?.transactionIndex ?? 0);
    expect(ownRevealed?.status).to.equal("reverted");
    expect(await revertNameOf(ownReveal)).to.equal("CommitmentTooNew");
    expect(creatorRevealed?.status).to.equal("success");
    expect(await holderOfPair()).to.equal(addressOf(creator));
  });
});
