// Commit, then reveal: no reservation without the launcher's matured commitment to exactly the revealed request.
// Every way to skip, steal, replay, rush or stretch a commitment is shown failing; close_commitment returns the
// rent of an abandoned one to its launcher, and only once it can no longer be revealed.
import { randomBytes } from "node:crypto";
import { BN } from "@coral-xyz/anchor";
import { Keypair, PublicKey, SystemProgram } from "@solana/web3.js";
import { expect } from "chai";
import { foldedHash, foldV1 } from "../../core/fold";
import {
  commitmentAccountAddress,
  commitmentHash,
  configAddress,
  configArgs,
  localSettings,
  MAX_COMMITMENT_AGE_SECONDS,
} from "../../scripts/solana/registry";
import { commitMethod, planReveal, type RevealPlan, revealMethod } from "./support/commitReveal";
import { expectProgramError } from "./support/errors";
import {
  advanceTo,
  DAY,
  deployedRegistry,
  type Fixture,
  fundedWallet,
  priceAccountOf,
  providerFor,
  reserveCall,
  START_TIME,
  sendInstructions,
  warpSlots,
} from "./support/fixture";

const balance = (fixture: Fixture, address: PublicKey) => fixture.provider.svm.getBalance(address);
const accountAt = (fixture: Fixture, address: PublicKey) =>
  fixture.provider.connection.getAccountInfo(address);

describe("program: commit, then reveal", () => {
  let fixture: Fixture;
  let launcher: Keypair;
  beforeEach(async () => {
    fixture = await deployedRegistry();
    launcher = fundedWallet(fixture);
  });

  const plan = (signer: PublicKey, overrides: Partial<Parameters<typeof planReveal>[3]> = {}) =>
    planReveal(fixture.programId, signer, priceAccountOf(fixture), {
      name: "Pepe",
      ticker: "PEPE",
      durationSeconds: DAY,
      ...overrides,
    });

  /** `launcher` commits to `revealPlan` and the cluster moves one slot on (the local minimum age). */
  async function committed(revealPlan: RevealPlan, signer: Keypair = launcher): Promise<RevealPlan> {
    await commitMethod(fixture.program, revealPlan).signers([signer]).rpc();
    warpSlots(fixture);
    return revealPlan;
  }

  const reveal = (revealPlan: RevealPlan, signer: Keypair = launcher) =>
    revealMethod(fixture.program, revealPlan).signers([signer]).rpc();

  describe("commit", () => {
    it("creates the Commitment PDA with the launcher, the hash, the slot, the time and the canonical bump", async () => {
      const revealPlan = plan(launcher.publicKey);
      const slot = fixture.provider.svm.svm.getClock().slot;
      await commitMethod(fixture.program, revealPlan).signers([launcher]).rpc();
      const stored = await fixture.program.account.commitment.fetch(revealPlan.accounts.commitment);
      expect(stored.launcher.toBase58()).to.equal(launcher.publicKey.toBase58());
      expect(stored.commitment).to.deep.equal(revealPlan.commitment);
      expect(stored.committedSlot.toString()).to.equal(slot.toString());
      expect(stored.committedAt.toString()).to.equal(START_TIME.toString());
      const [address, bump] = PublicKey.findProgramAddressSync(
        [Buffer.from("commitment"), launcher.publicKey.toBuffer(), Buffer.from(revealPlan.commitment)],
        fixture.programId,
      );
      expect(address.toBase58()).to.equal(revealPlan.accounts.commitment.toBase58());
      expect(stored.bump).to.equal(bump);
      const info = await accountAt(fixture, address);
      expect(info?.owner.toBase58()).to.equal(fixture.programId.toBase58());
      expect(info?.data.length).to.equal(89);
    });

    it("hashes keccak256(name_hash || ticker_hash || launcher || duration u64 LE || partner_ref || secret) of the folded pair", async () => {
      const partnerRef = Array.from(randomBytes(32));
      const secret = Array.from(randomBytes(32));
      const duration = Buffer.alloc(8);
      duration.writeBigUInt64LE(259_200n);
      const { keccak256 } = await import("js-sha3");
      const expected = keccak256.array(
        Buffer.concat([
          Buffer.from(foldedHash("PEPE").slice(2), "hex"),
          Buffer.from(foldedHash("PEPE").slice(2), "hex"),
          launcher.publicKey.toBuffer(),
          duration,
          Buffer.from(partnerRef),
          Buffer.from(secret),
        ]),
      );
      // The raw name and ticker fold on-chain: what the launcher commits to is the folded pair.
      const revealPlan = plan(launcher.publicKey, {
        name: "p.e.p.e",
        ticker: "$pepe",
        durationSeconds: 259_200,
        partnerRef,
        secret,
      });
      expect(foldV1("$pepe")).to.equal("SPEPE");
      const folded = plan(launcher.publicKey, {
        name: "PEPE",
        ticker: "SPEPE",
        durationSeconds: 259_200,
        partnerRef,
        secret,
      });
      expect(folded.commitment).to.deep.equal(revealPlan.commitment);
      const manual = commitmentHash(launcher.publicKey, {
        nameHash: foldedHash("PEPE"),
        tickerHash: foldedHash("PEPE"),
        durationSeconds: 259_200,
        partnerRef: Uint8Array.from(partnerRef),
        secret: Uint8Array.from(secret),
      });
      expect(Array.from(manual)).to.deep.equal(expected);
      // The program accepts exactly that hash (the one built from the folded pair here).
      const exact = plan(launcher.publicKey, { durationSeconds: 259_200, partnerRef, secret });
      expect(exact.commitment).to.deep.equal(expected);
      await committed(exact);
      await reveal(exact);
    });

    it("refuses the same commitment twice (CommitmentExists), while it is unrevealed", async () => {
      const revealPlan = plan(launcher.publicKey);
      await commitMethod(fixture.program, revealPlan).signers([launcher]).rpc();
      warpSlots(fixture);
      await expectProgramError(
        commitMethod(fixture.program, revealPlan).signers([launcher]).rpc(),
        "CommitmentExists",
      );
    });

    it("refuses an address that is not the launcher's PDA of that hash, and an unsigned launcher", async () => {
      const revealPlan = plan(launcher.publicKey);
      const other = plan(launcher.publicKey);
      const wrong = await fixture.program.methods
        .commit(revealPlan.commitment)
        .accountsStrict({
          launcher: launcher.publicKey,
          commitment: other.accounts.commitment,
          systemProgram: SystemProgram.programId,
        })
        .signers([launcher])
        .instruction();
      await expectProgramError(sendInstructions(fixture, [wrong], [launcher]), "InvalidPda");
      const unsigned = await commitMethod(fixture.program, revealPlan).instruction();
      unsigned.keys[0] = { ...(unsigned.keys[0] as (typeof unsigned.keys)[0]), isSigner: false };
      await expectProgramError(sendInstructions(fixture, [unsigned]), "MissingSigner");
    });

    it("still commits when someone pre-funded the commitment address", async () => {
      const revealPlan = plan(launcher.publicKey);
      fixture.provider.svm.airdrop(revealPlan.accounts.commitment, 1_000_000n);
      await committed(revealPlan);
      await reveal(revealPlan);
    });
  });

  describe("reveal (reserve)", () => {
    it("reserves and closes the commitment: the account is gone and its rent is back with the launcher", async () => {
      const revealPlan = await committed(plan(launcher.publicKey));
      const rent = await balance(fixture, revealPlan.accounts.commitment);
      expect(rent).to.be.greaterThan(0);
      const before = await balance(fixture, launcher.publicKey);
      await reveal(revealPlan);
      expect(await accountAt(fixture, revealPlan.accounts.commitment)).to.equal(null);
      const spent =
        (await balance(fixture, revealPlan.accounts.reservation)) +
        (await balance(fixture, revealPlan.accounts.wallet)) +
        Number(
          (await fixture.program.account.reservation.fetch(revealPlan.accounts.reservation)).feeLamports,
        );
      expect(before - (await balance(fixture, launcher.publicKey))).to.equal(spent - rent);
    });

    it("refuses a reveal without any commitment (CommitmentNotFound)", async () => {
      await expectProgramError(reveal(plan(launcher.publicKey)), "CommitmentNotFound");
    });

    it("refuses a reveal naming another launcher's commitment to the same request", async () => {
      const other = fundedWallet(fixture);
      const theirs = await committed(plan(other.publicKey), other);
      const mine = plan(launcher.publicKey, { secret: theirs.secret });
      mine.accounts.commitment = theirs.accounts.commitment;
      await expectProgramError(reveal(mine), "CommitmentNotFound");
      await reveal(theirs, other);
    });

    it("refuses a reveal copied from the mempool and signed by another wallet, with the victim's or its own commitment address", async () => {
      const victim = await committed(plan(launcher.publicKey));
      const thief = fundedWallet(fixture);
      // Same arguments, the thief as launcher: the victim's commitment names the victim.
      const copied = {
        ...victim,
        accounts: { ...plan(thief.publicKey).accounts, commitment: victim.accounts.commitment },
      };
      await expectProgramError(reveal(copied, thief), "CommitmentNotFound");
      // The thief's own PDA for the victim's hash holds nothing: the hash binds the victim's key.
      const ownAddress = commitmentAccountAddress(
        fixture.programId,
        thief.publicKey,
        Buffer.from(victim.commitment),
      );
      await expectProgramError(
        reveal({ ...copied, accounts: { ...copied.accounts, commitment: ownAddress } }, thief),
        "CommitmentNotFound",
      );
      // Even committing to the victim's hash under the thief's key does not match a reveal signed by the thief.
      const thiefCommit = { ...copied, accounts: { ...copied.accounts, commitment: ownAddress } };
      await commitMethod(fixture.program, thiefCommit).signers([thief]).rpc();
      warpSlots(fixture);
      await expectProgramError(reveal(thiefCommit, thief), "CommitmentNotFound");
      await reveal(victim);
      const reservation = await fixture.program.account.reservation.fetch(victim.accounts.reservation);
      expect(reservation.launcher.toBase58()).to.equal(launcher.publicKey.toBase58());
    });

    it("refuses a reveal in the commitment's own slot (CommitmentTooNew), in another transaction or the same one", async () => {
      const revealPlan = plan(launcher.publicKey);
      await commitMethod(fixture.program, revealPlan).signers([launcher]).rpc();
      await expectProgramError(reveal(revealPlan), "CommitmentTooNew");
      const sameTransaction = plan(launcher.publicKey);
      await expectProgramError(
        sendInstructions(
          fixture,
          [
            await commitMethod(fixture.program, sameTransaction).instruction(),
            await revealMethod(fixture.program, sameTransaction).instruction(),
          ],
          [launcher],
        ),
        "CommitmentTooNew",
      );
      expect(await accountAt(fixture, sameTransaction.accounts.commitment)).to.equal(null);
      warpSlots(fixture);
      await reveal(revealPlan);
    });

    it("waits min_commitment_slots slots when the admin raises it", async () => {
      const settings = { ...localSettings(fixture.programId), minCommitmentSlots: 3 };
      await fixture.program.methods
        .updateConfig(configArgs(settings))
        .accountsStrict({ admin: fixture.admin.publicKey, config: configAddress(fixture.programId) })
        .rpc();
      const revealPlan = await committed(plan(launcher.publicKey));
      await expectProgramError(reveal(revealPlan), "CommitmentTooNew");
      warpSlots(fixture);
      await expectProgramError(reveal(revealPlan), "CommitmentTooNew");
      warpSlots(fixture);
      await reveal(revealPlan);
    });

    it("reveals up to 24 hours after the commitment, and refuses one second later (CommitmentExpired)", async () => {
      const late = await committed(plan(launcher.publicKey, { name: "late" }));
      const onTime = await committed(plan(launcher.publicKey, { name: "ontime" }));
      await advanceTo(fixture, START_TIME + BigInt(MAX_COMMITMENT_AGE_SECONDS));
      await reveal(onTime);
      await advanceTo(fixture, START_TIME + BigInt(MAX_COMMITMENT_AGE_SECONDS) + 1n);
      await expectProgramError(reveal(late), "CommitmentExpired");
    });

    it("refuses to reuse a consumed commitment (CommitmentNotFound); a revived one: security.test.ts", async () => {
      const revealPlan = await committed(plan(launcher.publicKey));
      await reveal(revealPlan);
      await expectProgramError(reveal(revealPlan), "CommitmentNotFound");
      // Even once the pair is free again, the old reveal does not replay: a new reservation needs a new commitment.
      await advanceTo(fixture, START_TIME + BigInt(DAY));
      await expectProgramError(reveal(revealPlan), "CommitmentNotFound");
    });

    for (const [field, change] of [
      ["duration", { durationSeconds: 3 * DAY }],
      ["partner_ref", { partnerRef: Array.from({ length: 32 }, () => 7) }],
      ["secret", { secret: Array.from(randomBytes(32)) }],
      ["name", { name: "Pepe2" }],
      ["ticker", { ticker: "PEPE2" }],
    ] as const) {
      it(`refuses a reveal whose ${field} differs from the commitment's (CommitmentNotFound)`, async () => {
        const revealPlan = await committed(plan(launcher.publicKey));
        const altered = plan(launcher.publicKey, {
          secret: revealPlan.secret,
          partnerRef: revealPlan.partnerRef,
          ...change,
        });
        await expectProgramError(
          reveal({
            ...altered,
            accounts: { ...altered.accounts, commitment: revealPlan.accounts.commitment },
          }),
          "CommitmentNotFound",
        );
        await reveal(revealPlan);
      });
    }

    it("accepts another spelling of the same folded pair (the commitment binds the fold, not the bytes)", async () => {
      const revealPlan = await committed(plan(launcher.publicKey, { name: "PEPE", ticker: "PEPE" }));
      await reveal({ ...revealPlan, name: "p e p e", ticker: "pepe!" });
    });

    it("refuses a commitment account that is read-only, owned by another program, or another type", async () => {
      const other = fundedWallet(fixture);
      const otherCall = reserveCall(fixture, other, "other", "OTHER");
      await otherCall.rpc();
      const otherWallet = otherCall.plan.accounts.wallet;
      const revealPlan = await committed(plan(launcher.publicKey));
      const readOnly = await revealMethod(fixture.program, revealPlan).instruction();
      readOnly.keys[7] = { ...(readOnly.keys[7] as (typeof readOnly.keys)[0]), isWritable: false };
      await expectProgramError(sendInstructions(fixture, [readOnly], [launcher]), "AccountNotWritable");

      const account = fixture.provider.svm.svm.getAccount(revealPlan.accounts.commitment.toBase58() as never);
      if (!account.exists) throw new Error("no commitment");
      const foreign = Keypair.generate().publicKey;
      fixture.provider.svm.svm.setAccount({
        ...account,
        address: foreign.toBase58(),
        programAddress: Keypair.generate().publicKey.toBase58(),
      } as never);
      await expectProgramError(
        reveal({ ...revealPlan, accounts: { ...revealPlan.accounts, commitment: foreign } }),
        "CommitmentNotFound",
      );
      await expectProgramError(
        reveal({
          ...revealPlan,
          // Another wallet's WalletState: program-owned, another type (config or price would be duplicates).
          accounts: { ...revealPlan.accounts, commitment: otherWallet },
        }),
        "CommitmentNotFound",
      );
      await reveal(revealPlan);
    });
  });

  describe("close_commitment", () => {
    /** close_commitment in a transaction paid and signed by `by` alone (no launcher signature needed). */
    async function close(
      revealPlan: RevealPlan,
      by: Keypair,
      launcherAccount = revealPlan.accounts.launcher,
    ) {
      const instruction = await fixture.program.methods
        .closeCommitment()
        .accountsStrict({ commitment: revealPlan.accounts.commitment, launcher: launcherAccount })
        .instruction();
      return sendInstructions({ ...fixture, provider: providerFor(fixture, by) }, [instruction]);
    }

    it("refuses to close a commitment that can still be revealed (CommitmentNotExpired), even at exactly 24 hours", async () => {
      const revealPlan = await committed(plan(launcher.publicKey));
      const anyone = fundedWallet(fixture);
      await expectProgramError(close(revealPlan, anyone), "CommitmentNotExpired");
      await expectProgramError(close(revealPlan, launcher), "CommitmentNotExpired");
      await advanceTo(fixture, START_TIME + BigInt(MAX_COMMITMENT_AGE_SECONDS));
      await expectProgramError(close(revealPlan, anyone), "CommitmentNotExpired");
    });

    it("lets anyone close an expired commitment, its rent going to the launcher, and it is gone", async () => {
      const revealPlan = await committed(plan(launcher.publicKey));
      const rent = await balance(fixture, revealPlan.accounts.commitment);
      await advanceTo(fixture, START_TIME + BigInt(MAX_COMMITMENT_AGE_SECONDS) + 1n);
      const anyone = fundedWallet(fixture);
      const before = await balance(fixture, launcher.publicKey);
      await close(revealPlan, anyone);
      expect((await balance(fixture, launcher.publicKey)) - before).to.equal(rent);
      expect(await accountAt(fixture, revealPlan.accounts.commitment)).to.equal(null);
      await expectProgramError(close(revealPlan, anyone), "CommitmentNotFound");
      await expectProgramError(reveal(revealPlan), "CommitmentNotFound");
    });

    it("refuses to send the rent anywhere but the commitment's launcher", async () => {
      const revealPlan = await committed(plan(launcher.publicKey));
      await advanceTo(fixture, START_TIME + BigInt(MAX_COMMITMENT_AGE_SECONDS) + 1n);
      const thief = fundedWallet(fixture);
      await expectProgramError(close(revealPlan, thief, thief.publicKey), "InvalidAccount");
      await close(revealPlan, thief);
    });

    it("refuses a consumed commitment and accounts of other types", async () => {
      const revealPlan = await committed(plan(launcher.publicKey));
      await reveal(revealPlan);
      await advanceTo(fixture, START_TIME + BigInt(MAX_COMMITMENT_AGE_SECONDS) + 1n);
      await expectProgramError(close(revealPlan, launcher), "CommitmentNotFound");
      await expectProgramError(
        close(
          {
            ...revealPlan,
            accounts: { ...revealPlan.accounts, commitment: revealPlan.accounts.reservation },
          },
          launcher,
        ),
        "CommitmentNotFound",
      );
    });
  });

  it("reserveCall commits, warps one slot and reveals (the helper every program test uses)", async () => {
    const call = reserveCall(fixture, launcher, "helper", "HELP", DAY, { partnerRef: Array(32).fill(1) });
    await call.rpc();
    const reservation = await fixture.program.account.reservation.fetch(call.plan.accounts.reservation);
    expect(reservation.partnerRef).to.deep.equal(Array(32).fill(1));
    expect(new BN(reservation.expiresAt).toString()).to.equal((START_TIME + BigInt(DAY)).toString());
  });
});
