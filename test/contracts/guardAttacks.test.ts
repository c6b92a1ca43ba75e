// Attacks on the identity guard's signed path, one test each: replays across chains, factories and launches,
// deadlines, malleable and non-canonical signatures, untrusted and rotated keys, decisions for other facts,
// and a registry that fails.
import { expect } from "chai";
import {
  type Address,
  concat,
  getAddress,
  type Hex,
  keccak256,
  numberToHex,
  parseSignature,
  recoverAddress,
  serializeCompactSignature,
  signatureToCompactSignature,
  size,
  toHex,
} from "viem";
import { revertingIdentityRegistryAbi } from "../../contracts/test/abi/revertingIdentityRegistry";
import { launchDecisionDigest } from "../../core/decision/onchain";
import { readArtifact } from "../../scripts/evm/artifacts";
import { addressOf, latestTimestamp, nextBlockAt } from "./fixture";
import {
  DECISION_KEY,
  type DecisionFields,
  decisionFor,
  deployLaunchpad,
  expectGuardRevert,
  FREE,
  type GuardFixture,
  guardFixture,
  launchWith,
  NEXT_DECISION_KEY,
  pairHashes,
  RESERVED,
  type SignedLaunch,
  saltOf,
  signDecision,
  tokenAt,
} from "./guardFixture";

/** secp256k1's group order. */
const CURVE_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const HALF_ORDER = CURVE_ORDER / 2n;

/** r ‖ s ‖ v, 65 bytes, with any values (no validity implied). */
function rawSignature(r: bigint | Hex, s: bigint, v: number): Hex {
  const word = (value: bigint | Hex) =>
    typeof value === "string" ? value : numberToHex(value, { size: 32 });
  return concat([word(r), word(s), numberToHex(v, { size: 1 })]);
}

/** The digest of `fields` for the launchpad `verifyingContract` on the fixture's chain (core's encoder). */
function digestOf(fixture: GuardFixture, fields: DecisionFields, verifyingContract: Address): Hex {
  return launchDecisionDigest({ ...fields, chainId: fixture.chainId, factory: verifyingContract });
}

describe("IdentityGuard attacks", () => {
  let fixture: GuardFixture;
  let signed: SignedLaunch;

  beforeEach(async () => {
    fixture = await guardFixture();
    signed = await decisionFor(fixture, fixture.holder, RESERVED);
  });

  const isDecisionSigner = (signer: Address, at: bigint) =>
    fixture.registry.read.isDecisionSigner([signer, at]);

  const launch = (signature?: Hex, launch: SignedLaunch = signed) =>
    launchWith(fixture, fixture.holder, launch, { signature });

  /** An attack must leave the launch possible with the genuine decision afterwards (nothing was consumed). */
  async function genuineStillLaunches(): Promise<void> {
    await launch();
    expect(await tokenAt(fixture, signed.token).read.balanceOf([addressOf(fixture.holder)])).to.not.equal(0n);
  }

  describe("replays", () => {
    it("refuses a decision signed for another chain id (domain chainId 1)", async () => {
      const mainnet = await decisionFor(fixture, fixture.holder, RESERVED, {
        chainId: 1,
        nonce: signed.nonce,
      });
      const revert = await expectGuardRevert(launch(mainnet.signature), "UntrustedDecisionSigner");
      expect(revert.args[0]).to.not.equal(DECISION_KEY.address);
      await genuineStillLaunches();
    });

    it("refuses a decision signed for another factory, whether its token or only its domain differs", async () => {
      const otherAddress = await deployLaunchpad(fixture);
      const other = fixture.launchpadAs(fixture.holder, otherAddress);
      // A decision for the other factory (its domain and its token), replayed here with this factory's token.
      const forOther = await decisionFor(fixture, fixture.holder, RESERVED, {
        launchpad: other,
        salt: signed.salt,
      });
      await expectGuardRevert(launch(forOther.signature), "UntrustedDecisionSigner");
      // This factory's token named, but signed under the other factory's domain.
      const otherDomain = await decisionFor(fixture, fixture.holder, RESERVED, {
        verifyingContract: otherAddress,
        nonce: signed.nonce,
      });
      await expectGuardRevert(launch(otherDomain.signature), "UntrustedDecisionSigner");
      // And this factory's genuine decision, replayed on the other factory.
      await expectGuardRevert(
        launchWith(fixture, fixture.holder, signed, { launchpad: otherAddress }),
        "UntrustedDecisionSigner",
      );
      await genuineStillLaunches();
      await launchWith(fixture, fixture.holder, forOther, { launchpad: otherAddress });
    });

    it("refuses a second launch with the same signature: DecisionReused(digest)", async () => {
      await launch();
      const digest = digestOf(fixture, signed.fields, fixture.launchpad.address);
      await expectGuardRevert(launch(), "DecisionReused", [digest]);
      // The high-s twin of the used signature names the same decision: still reused.
      const { r, s, v } = parseSignature(signed.signature);
      const twin = rawSignature(r, CURVE_ORDER - BigInt(s), Number(v) === 27 ? 28 : 27);
      await expectGuardRevert(launch(twin), "DecisionReused", [digest]);
      // With another salt the token differs, so the signature proves nothing for that launch.
      await expectGuardRevert(
        launchWith(fixture, fixture.holder, { ...signed, salt: saltOf("another") }),
        "UntrustedDecisionSigner",
      );
    });
  });

  describe("deadline", () => {
    it("refuses a decision from exactly its expiresAt: DecisionExpired(expiresAt)", async () => {
      await nextBlockAt(signed.expiresAt);
      await expectGuardRevert(launch(), "DecisionExpired", [signed.expiresAt]);
      // Extending the deadline in the call does not help: the signature covers it.
      await expectGuardRevert(
        launchWith(fixture, fixture.holder, { ...signed, expiresAt: signed.expiresAt + 3_600n }),
        "UntrustedDecisionSigner",
      );
    });

    it("accepts it in its last second", async () => {
      await nextBlockAt(signed.expiresAt - 1n);
      await genuineStillLaunches();
    });
  });

  describe("signature encoding", () => {
    it("refuses the high-s twin of a valid signature (which plain ecrecover accepts)", async () => {
      const { r, s, v } = parseSignature(signed.signature);
      const highS = CURVE_ORDER - BigInt(s);
      const twin = rawSignature(r, highS, Number(v) === 27 ? 28 : 27);
      // Same key, same digest: only the s rule stands in the way.
      expect(
        await recoverAddress({
          hash: digestOf(fixture, signed.fields, fixture.launchpad.address),
          signature: twin,
        }),
      ).to.equal(DECISION_KEY.address);
      await expectGuardRevert(launch(twin), "InvalidDecisionSignatureS", [numberToHex(highS, { size: 32 })]);
      await genuineStillLaunches();
    });

    it("draws the s line at half the curve order", async () => {
      const { r } = parseSignature(signed.signature);
      // s = n/2 passes the rule (and recovers some unrelated key); n/2 + 1 does not.
      await expectGuardRevert(launch(rawSignature(r, HALF_ORDER, 27)), "UntrustedDecisionSigner");
      await expectGuardRevert(launch(rawSignature(r, HALF_ORDER + 1n, 27)), "InvalidDecisionSignatureS", [
        numberToHex(HALF_ORDER + 1n, { size: 32 }),
      ]);
    });

    it("refuses the 64-byte EIP-2098 compact form of a valid signature, and any length but 65", async () => {
      const compact = serializeCompactSignature(
        signatureToCompactSignature(parseSignature(signed.signature)),
      );
      expect(size(compact)).to.equal(64);
      await expectGuardRevert(launch(compact), "InvalidDecisionSignatureLength", [64n]);
      await expectGuardRevert(launch(concat([signed.signature, "0x00"])), "InvalidDecisionSignatureLength", [
        66n,
      ]);
      await expectGuardRevert(launch("0x"), "InvalidDecisionSignatureLength", [0n]);
      await genuineStillLaunches();
    });

    it("refuses signatures that recover to address(0): r = 0, s = 0, r off the curve", async () => {
      const { r, s, v } = parseSignature(signed.signature);
      const vNumber = Number(v);
      for (const signature of [
        rawSignature(0n, BigInt(s), vNumber),
        rawSignature(r, 0n, vNumber),
        rawSignature(CURVE_ORDER, BigInt(s), vNumber),
        rawSignature(5n, BigInt(s), vNumber), // x = 5 is not on secp256k1
      ]) {
        await expectGuardRevert(launch(signature), "InvalidDecisionSignature", []);
      }
      await genuineStillLaunches();
    });

    it("accepts v only as 27 or 28 (not the 0/1 parity form, nor 29)", async () => {
      const { r, s, yParity } = parseSignature(signed.signature);
      for (const v of [yParity, 29, 0xff]) {
        await expectGuardRevert(launch(rawSignature(r, BigInt(s), v)), "InvalidDecisionSignatureV", [v]);
      }
      await genuineStillLaunches();
    });
  });

  describe("signer set", () => {
    it("refuses a key the registry never trusted", async () => {
      const foreign = await decisionFor(fixture, fixture.holder, RESERVED, {
        key: NEXT_DECISION_KEY,
        nonce: signed.nonce,
      });
      await expectGuardRevert(launch(foreign.signature), "UntrustedDecisionSigner", [
        NEXT_DECISION_KEY.address,
      ]);
    });

    it("refuses a revoked key from the revocation's block on", async () => {
      const hash = await fixture.registry.write.revokeDecisionSigner([DECISION_KEY.address]);
      const { blockNumber } = await fixture.publicClient.waitForTransactionReceipt({ hash });
      const { timestamp: revokedAt } = await fixture.publicClient.getBlock({ blockNumber });
      await expectGuardRevert(launch(), "UntrustedDecisionSigner", [DECISION_KEY.address]);
      expect(await isDecisionSigner(DECISION_KEY.address, revokedAt)).to.equal(false);
    });

    it("refuses a key before its window starts, and accepts it from validFrom", async () => {
      const now = BigInt(await latestTimestamp());
      const validFrom = now + 100n;
      await fixture.registry.write.setDecisionSigner([
        NEXT_DECISION_KEY.address,
        validFrom,
        validFrom + 86_400n,
      ]);
      const next = await decisionFor(fixture, fixture.holder, RESERVED, {
        key: NEXT_DECISION_KEY,
        expiresAt: validFrom + 600n,
      });
      await nextBlockAt(validFrom - 1n);
      await expectGuardRevert(launch(undefined, next), "UntrustedDecisionSigner", [
        NEXT_DECISION_KEY.address,
      ]);
      await nextBlockAt(validFrom);
      await launch(undefined, next);
      // The guard's answers are the registry's isDecisionSigner at those times.
      expect(await isDecisionSigner(NEXT_DECISION_KEY.address, validFrom - 1n)).to.equal(false);
      expect(await isDecisionSigner(NEXT_DECISION_KEY.address, validFrom)).to.equal(true);
    });

    it("rotation: both keys launch during the overlap, the old one is refused from its validUntil", async () => {
      const now = BigInt(await latestTimestamp());
      const oldUntil = now + 1_000n;
      // The operator rotates: the new key starts now, the old one stays valid until oldUntil.
      await fixture.registry.write.setDecisionSigner([DECISION_KEY.address, now - 3_600n, oldUntil]);
      await fixture.registry.write.setDecisionSigner([NEXT_DECISION_KEY.address, now, now + 365n * 86_400n]);
      const expiresAt = oldUntil + 600n;
      const decide = (pair: typeof FREE, key = DECISION_KEY) =>
        decisionFor(fixture, fixture.copycat, pair, { key, expiresAt });
      const launchAsCopycat = (launch: SignedLaunch) => launchWith(fixture, fixture.copycat, launch);

      const overlapOld = await decide({ name: "Overlap Old", ticker: "OLD" });
      const overlapNew = await decide({ name: "Overlap New", ticker: "NEW" }, NEXT_DECISION_KEY);
      const lateOld = await decide({ name: "Late Old", ticker: "LATE" });
      const lateNew = await decide({ name: "Late New", ticker: "LATE" }, NEXT_DECISION_KEY);
      await nextBlockAt(oldUntil - 2n);
      await launchAsCopycat(overlapOld);
      await nextBlockAt(oldUntil - 1n);
      await launchAsCopycat(overlapNew);
      await nextBlockAt(oldUntil);
      await expectGuardRevert(launchAsCopycat(lateOld), "UntrustedDecisionSigner", [DECISION_KEY.address]);
      await launchAsCopycat(lateNew);
      expect(await isDecisionSigner(DECISION_KEY.address, oldUntil - 1n)).to.equal(true);
      expect(await isDecisionSigner(DECISION_KEY.address, oldUntil)).to.equal(false);
    });
  });

  describe("decisions for other facts", () => {
    it("refuses a decision for another launcher", async () => {
      const forOther = await decisionFor(fixture, fixture.copycat, FREE, {
        launcher: addressOf(fixture.other),
      });
      await expectGuardRevert(launchWith(fixture, fixture.copycat, forOther), "UntrustedDecisionSigner");
      // Nor can the other launcher: the same salt predicts its own token, not the one signed.
      await expectGuardRevert(launchWith(fixture, fixture.other, forOther), "UntrustedDecisionSigner");
    });

    it("refuses a decision for another token (another salt's address)", async () => {
      const other = await fixture.launchpad.read.predictToken([
        RESERVED.name,
        RESERVED.ticker,
        addressOf(fixture.holder),
        saltOf("other"),
      ]);
      const forOtherToken = await decisionFor(fixture, fixture.holder, RESERVED, { token: other });
      await expectGuardRevert(launch(forOtherToken.signature), "UntrustedDecisionSigner");
      await expectGuardRevert(launch(undefined, forOtherToken), "UntrustedDecisionSigner");
    });

    it("refuses a decision for another pair, including a spelling that folds to another pair", async () => {
      const forFree = await decisionFor(fixture, fixture.holder, RESERVED, { signedPair: FREE });
      await expectGuardRevert(launch(undefined, forFree), "UntrustedDecisionSigner");
      // "$M0ON" folds to SMOON, not MOON: a decision for MOON DOG::MOON does not cover it.
      const spelled = { name: "Moon Dog", ticker: "$M0ON" };
      const otherFold = await decisionFor(fixture, fixture.holder, spelled, { signedPair: RESERVED });
      expect(pairHashes(spelled).tickerHash).to.not.equal(pairHashes(RESERVED).tickerHash);
      await expectGuardRevert(launchWith(fixture, fixture.holder, otherFold), "UntrustedDecisionSigner");
    });

    it("accepts a spelling that folds to the decision's pair (the token keeps its spelling)", async () => {
      const spelled = { name: "m00n-d0g", ticker: "m00n" };
      const sameFold = await decisionFor(fixture, fixture.holder, spelled, { signedPair: RESERVED });
      expect(sameFold.fields.nameHash).to.equal(pairHashes(RESERVED).nameHash);
      await launchWith(fixture, fixture.holder, sameFold);
      const token = tokenAt(fixture, sameFold.token);
      expect(await token.read.name()).to.equal("m00n-d0g");
      expect(await token.read.symbol()).to.equal("m00n");
    });
  });

  describe("a registry that fails", () => {
    let stub: Address;
    let guarded: Address;

    beforeEach(async () => {
      const hash = await fixture.owner.deployContract({
        abi: revertingIdentityRegistryAbi,
        bytecode: readArtifact("RevertingIdentityRegistry").bytecode,
      });
      const receipt = await fixture.publicClient.waitForTransactionReceipt({ hash });
      if (!receipt.contractAddress) throw new Error("Stub registry deployment failed");
      stub = getAddress(receipt.contractAddress);
      guarded = await deployLaunchpad(fixture, stub);
    });

    /** RevertingIdentityRegistry.Failing. */
    const FAILING = {
      none: 0,
      identityHashes: 1,
      reservationOf: 2,
      decisionSignerWindow: 3,
      emptyAnswer: 4,
      malformedReservation: 5,
    } as const;

    const setFailing = (mode: number) =>
      fixture.owner.writeContract({
        address: stub,
        abi: revertingIdentityRegistryAbi,
        functionName: "setFailing",
        args: [mode],
      });

    /** A signed launch on the stub-guarded launchpad; the stub trusts any key and keys pairs by raw bytes. */
    async function stubLaunch(label: string, failing: number) {
      const pair = { name: `Stub ${label}`, ticker: "STUB" };
      const launchpad = fixture.launchpadAs(fixture.copycat, guarded);
      const launcher = addressOf(fixture.copycat);
      const salt = saltOf(label);
      const token = await launchpad.read.predictToken([pair.name, pair.ticker, launcher, salt]);
      const fields: DecisionFields = {
        nameHash: keccak256(toHex(pair.name)),
        tickerHash: keccak256(toHex(pair.ticker)),
        launcher,
        token,
        decision: "allow",
        expiresAt: BigInt(await latestTimestamp()) + 600n,
        nonce: saltOf(`nonce:${label}`),
      };
      const signature = await signDecision(
        fields,
        { chainId: fixture.chainId, verifyingContract: guarded },
        NEXT_DECISION_KEY,
      );
      await setFailing(failing);
      return {
        signed: () =>
          launchpad.write.launch([pair.name, pair.ticker, salt, fields.expiresAt, fields.nonce, signature]),
        registryOnly: () =>
          launchpad.write.launchRegistryOnly([pair.name, pair.ticker, saltOf(`${label}:a`)]),
      };
    }

    it("control: while the stub answers, it lets every launch through (so only a failure can stop one)", async () => {
      const launches = await stubLaunch("answering", FAILING.none);
      await launches.signed();
      await launches.registryOnly();
    });

    it("identityHashes reverts: both paths revert with the registry's error", async () => {
      const launches = await stubLaunch("hashes", FAILING.identityHashes);
      await expectGuardRevert(launches.signed(), "RegistryUnavailable", []);
      await expectGuardRevert(launches.registryOnly(), "RegistryUnavailable", []);
    });

    it("reservationOf reverts: both paths revert with the registry's error", async () => {
      const launches = await stubLaunch("reservation", FAILING.reservationOf);
      await expectGuardRevert(launches.signed(), "RegistryUnavailable", []);
      await expectGuardRevert(launches.registryOnly(), "RegistryUnavailable", []);
    });

    it("decisionSignerWindow reverts: the signed path reverts (the registry-only path never asks it)", async () => {
      const launches = await stubLaunch("signers", FAILING.decisionSignerWindow);
      await expectGuardRevert(launches.signed(), "RegistryUnavailable", []);
      await launches.registryOnly();
    });

    it("identityHashes answers nothing: both paths revert RegistryAnswerInvalid", async () => {
      const launches = await stubLaunch("empty", FAILING.emptyAnswer);
      await expectGuardRevert(launches.signed(), "RegistryAnswerInvalid", []);
      await expectGuardRevert(launches.registryOnly(), "RegistryAnswerInvalid", []);
    });

    it("reservationOf answers a launcher that is no address: both paths revert RegistryAnswerInvalid", async () => {
      const launches = await stubLaunch("malformed", FAILING.malformedReservation);
      await expectGuardRevert(launches.signed(), "RegistryAnswerInvalid", []);
      await expectGuardRevert(launches.registryOnly(), "RegistryAnswerInvalid", []);
    });
  });
});
