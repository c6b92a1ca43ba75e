// Each applicable category of Anchor's sealevel-attacks list, shown failing against the program. The reserve
// attacks run against a reveal whose commitment has matured, so every check after the commitment's is reached.
// Closing accounts: only commitments are closed (an expired reservation is reused in place); a closed one is zeroed
// so nothing revives it in the same transaction (below). Not applicable: sysvar account spoofing (clock and rent
// are read through syscalls, never from accounts; the one loader-owned input, program_data, is address-checked).
// The commitment's own attacks (theft, replay, timing): commitReveal.test.ts.
import { BN } from "@coral-xyz/anchor";
import { Keypair, PublicKey, SystemProgram, type TransactionInstruction } from "@solana/web3.js";
import { expect } from "chai";
import { foldedHash } from "../../core/fold";
import {
  configAddress,
  configArgs,
  localPriceAddress,
  localSettings,
  walletAddress,
} from "../../scripts/solana/registry";
import { programDataAddress } from "../../scripts/solana/upgradeable-loader";
import type { RevealPlan } from "./support/commitReveal";
import { expectProgramError } from "./support/errors";
import {
  deployedRegistry,
  type Fixture,
  fundedWallet,
  providerFor,
  reservationKeys,
  reserveCall,
  sendInstructions,
  warpSlots,
} from "./support/fixture";

type Keys = RevealPlan["accounts"];

/** The launcher commits to reserving pepe/pepe, the commitment matures, and the reveal is built with `keys`. */
async function reserveInstruction(fixture: Fixture, launcher: Keypair, keys: Partial<Keys> = {}) {
  const { commit, plan } = reserveCall(fixture, launcher, "pepe", "pepe");
  await commit.rpc();
  warpSlots(fixture);
  return fixture.program.methods
    .reserve(plan.name, plan.ticker, new BN(plan.durationSeconds), plan.partnerRef, plan.secret)
    .accountsStrict({ ...plan.accounts, ...keys })
    .instruction();
}

/** Copies an account's bytes to a new address under another owner: a lookalike an attacker controls. */
function cloneAccount(fixture: Fixture, source: PublicKey, owner: PublicKey): PublicKey {
  const account = fixture.provider.svm.svm.getAccount(source.toBase58() as never);
  if (!account.exists) throw new Error(`no account at ${source.toBase58()}`);
  const address = Keypair.generate().publicKey;
  fixture.provider.svm.svm.setAccount({
    ...account,
    address: address.toBase58(),
    programAddress: owner.toBase58(),
  } as never);
  return address;
}

function withKey(
  instruction: TransactionInstruction,
  index: number,
  change: Partial<TransactionInstruction["keys"][0]>,
) {
  instruction.keys[index] = { ...(instruction.keys[index] as TransactionInstruction["keys"][0]), ...change };
  return instruction;
}

describe("program: sealevel attacks", () => {
  let fixture: Fixture;
  let launcher: Keypair;
  beforeEach(async () => {
    fixture = await deployedRegistry();
    launcher = fundedWallet(fixture);
  });

  describe("missing signer", () => {
    it("refuses a reserve whose launcher did not sign (someone spending another wallet's lamports)", async () => {
      const instruction = withKey(await reserveInstruction(fixture, launcher), 0, { isSigner: false });
      await expectProgramError(sendInstructions(fixture, [instruction]), "MissingSigner");
    });

    it("refuses update_config when the admin did not sign", async () => {
      const instruction = await fixture.program.methods
        .updateConfig(configArgs(localSettings(fixture.programId)))
        .accountsStrict({ admin: fixture.admin.publicKey, config: configAddress(fixture.programId) })
        .instruction();
      const attack = withKey(instruction, 0, { isSigner: false });
      // The attacker pays and signs the transaction; the admin's key is only named.
      const asAttacker = { ...fixture, provider: providerFor(fixture, launcher) };
      await expectProgramError(sendInstructions(asAttacker, [attack]), "MissingSigner");
    });
  });

  describe("owner checks", () => {
    it("refuses a config copy owned by another program", async () => {
      const fake = cloneAccount(fixture, configAddress(fixture.programId), Keypair.generate().publicKey);
      await expectProgramError(
        sendInstructions(
          fixture,
          [await reserveInstruction(fixture, launcher, { config: fake })],
          [launcher],
        ),
        "InvalidAccount",
      );
    });

    it("refuses a price account with the right layout but not owned by the configured price owner", async () => {
      const fake = cloneAccount(fixture, localPriceAddress(fixture.programId), Keypair.generate().publicKey);
      await expectProgramError(
        sendInstructions(
          fixture,
          [await reserveInstruction(fixture, launcher, { priceUpdate: fake })],
          [launcher],
        ),
        "PriceAccountMismatch",
      );
    });
  });

  describe("account data matching", () => {
    it("refuses another launcher's wallet state (to dodge the 3-per-wallet limit)", async () => {
      const other = fundedWallet(fixture);
      await reserveCall(fixture, other, "other", "OTHER").rpc();
      const attack = await reserveInstruction(fixture, launcher, {
        wallet: walletAddress(fixture.programId, other.publicKey),
      });
      await expectProgramError(sendInstructions(fixture, [attack], [launcher]), "InvalidPda");
    });

    it("refuses a treasury that is not the configured one (fees diverted to the caller)", async () => {
      const attack = await reserveInstruction(fixture, launcher, { treasury: launcher.publicKey });
      await expectProgramError(sendInstructions(fixture, [attack], [launcher]), "DuplicateAccount");
      const elsewhere = await reserveInstruction(fixture, launcher, {
        treasury: Keypair.generate().publicKey,
      });
      await expectProgramError(sendInstructions(fixture, [elsewhere], [launcher]), "InvalidPda");
    });
  });

  describe("type cosplay (discriminators)", () => {
    it("refuses a wallet state or a reservation passed as the config", async () => {
      await reserveCall(fixture, launcher, "doge", "doge").rpc();
      const keys = reservationKeys(fixture, launcher.publicKey, "doge", "doge");
      for (const impostor of [keys.wallet, keys.reservation]) {
        const other = fundedWallet(fixture);
        const attack = await reserveInstruction(fixture, other, { config: impostor });
        await expectProgramError(sendInstructions(fixture, [attack], [other]), "InvalidAccount");
      }
    });

    it("refuses the program-owned price account passed as the config to update_config", async () => {
      const attack = await fixture.program.methods
        .updateConfig(configArgs(localSettings(fixture.programId)))
        .accountsStrict({ admin: fixture.admin.publicKey, config: localPriceAddress(fixture.programId) })
        .instruction();
      await expectProgramError(sendInstructions(fixture, [attack]), "InvalidAccount");
    });

    it("refuses a reservation passed as the wallet state", async () => {
      await reserveCall(fixture, launcher, "doge", "doge").rpc();
      const doge = reservationKeys(fixture, launcher.publicKey, "doge", "doge").reservation;
      const attack = await reserveInstruction(fixture, launcher, { wallet: doge });
      await expectProgramError(sendInstructions(fixture, [attack], [launcher]), "InvalidAccount");
    });
  });

  describe("re-initialisation", () => {
    it("refuses initialize over an existing config, leaving the admin unchanged", async () => {
      const instruction = await fixture.program.methods
        .initialize(configArgs(localSettings(fixture.programId)))
        .accountsStrict({
          admin: fixture.admin.publicKey,
          config: configAddress(fixture.programId),
          treasury: reservationKeys(fixture, launcher.publicKey, "a", "bb").treasury,
          programData: programDataAddress(fixture.programId),
          systemProgram: PublicKey.default,
        })
        .instruction();
      await expectProgramError(sendInstructions(fixture, [instruction]), "AlreadyInitialized");
      const config = await fixture.program.account.config.fetch(configAddress(fixture.programId));
      expect(config.admin.toBase58()).to.equal(fixture.admin.publicKey.toBase58());
    });
  });

  describe("arbitrary CPI", () => {
    it("refuses a System Program lookalike as the CPI target", async () => {
      const fakeSystem = fixture.programId; // any executable program the attacker names
      const attack = await reserveInstruction(fixture, launcher, { systemProgram: fakeSystem });
      await expectProgramError(sendInstructions(fixture, [attack], [launcher]), "InvalidProgramId");
    });
  });

  describe("duplicate mutable accounts", () => {
    it("refuses the same account as reservation and wallet state", async () => {
      const keys = reservationKeys(fixture, launcher.publicKey, "pepe", "pepe");
      const attack = await reserveInstruction(fixture, launcher, { wallet: keys.reservation });
      await expectProgramError(sendInstructions(fixture, [attack], [launcher]), "DuplicateAccount");
    });
  });

  describe("bump seed canonicalisation", () => {
    it("refuses a reservation address derived with a non-canonical bump", async () => {
      const seeds = [
        Buffer.from("reservation"),
        Buffer.from(foldedHash("PEPE").slice(2), "hex"),
        Buffer.from(foldedHash("PEPE").slice(2), "hex"),
      ];
      const [, canonical] = PublicKey.findProgramAddressSync(seeds, fixture.programId);
      let other: PublicKey | null = null;
      for (let bump = canonical - 1; bump >= 0 && other === null; bump--) {
        try {
          other = PublicKey.createProgramAddressSync([...seeds, Buffer.from([bump])], fixture.programId);
        } catch {
          // on the curve: not a valid PDA for this bump
        }
      }
      if (other === null) throw new Error("no second bump found");
      const attack = await reserveInstruction(fixture, launcher, { reservation: other });
      await expectProgramError(sendInstructions(fixture, [attack], [launcher]), "InvalidPda");
    });
  });

  describe("PDA sharing", () => {
    it("refuses one pair's reservation PDA for another pair, whether it exists yet or not", async () => {
      const doge = reservationKeys(fixture, launcher.publicKey, "doge", "doge").reservation;
      const unused = await reserveInstruction(fixture, launcher, { reservation: doge });
      await expectProgramError(sendInstructions(fixture, [unused], [launcher]), "InvalidPda");
      const holder = fundedWallet(fixture);
      await reserveCall(fixture, holder, "doge", "doge").rpc();
      const existing = await reserveInstruction(fixture, launcher, { reservation: doge });
      await expectProgramError(sendInstructions(fixture, [existing], [launcher]), "InvalidPda");
    });
  });

  describe("address checks on loader-owned input", () => {
    it("refuses a forged program-data account naming the attacker as upgrade authority", async () => {
      const attacker = fundedWallet(fixture);
      const forged = cloneAccount(
        fixture,
        programDataAddress(fixture.programId),
        new PublicKey("BPFLoaderUpgradeab1e11111111111111111111111"),
      );
      const instruction = await fixture.program.methods
        .initialize(configArgs(localSettings(fixture.programId)))
        .accountsStrict({
          admin: attacker.publicKey,
          config: configAddress(fixture.programId),
          treasury: reservationKeys(fixture, launcher.publicKey, "a", "bb").treasury,
          programData: forged,
          systemProgram: SystemProgram.programId,
        })
        .instruction();
      await expectProgramError(sendInstructions(fixture, [instruction], [attacker]), "InvalidPda");
    });
  });

  describe("malformed input", () => {
    it("refuses unknown instructions, missing accounts and read-only accounts in writable positions", async () => {
      const reserve = await reserveInstruction(fixture, launcher);
      const unknown = { ...reserve, data: Buffer.alloc(8, 7) } as TransactionInstruction;
      await expectProgramError(sendInstructions(fixture, [unknown], [launcher]), "InvalidInstruction");
      const truncated = { ...reserve, keys: reserve.keys.slice(0, 7) } as TransactionInstruction;
      await expectProgramError(sendInstructions(fixture, [truncated], [launcher]), "NotEnoughAccounts");
      const readOnly = withKey(await reserveInstruction(fixture, launcher), 3, { isWritable: false });
      await expectProgramError(sendInstructions(fixture, [readOnly], [launcher]), "AccountNotWritable");
    });
  });

  describe("closing accounts", () => {
    it("zeroes a revealed commitment: re-funding it in the same transaction does not revive it", async () => {
      const { commit, plan } = reserveCall(fixture, launcher, "pepe", "pepe");
      await commit.rpc();
      warpSlots(fixture);
      const rent = await fixture.provider.svm.getBalance(plan.accounts.commitment);
      const reveal = () =>
        fixture.program.methods
          .reserve(plan.name, plan.ticker, new BN(plan.durationSeconds), plan.partnerRef, plan.secret)
          .accountsStrict(plan.accounts)
          .instruction();
      const refund = SystemProgram.transfer({
        fromPubkey: launcher.publicKey,
        toPubkey: plan.accounts.commitment,
        lamports: rent,
      });
      // Reveal, re-fund, reveal again (a second pair would need the same commitment): the second finds zeros.
      await expectProgramError(
        sendInstructions(fixture, [await reveal(), refund, await reveal()], [launcher]),
        "CommitmentNotFound",
      );
      await sendInstructions(fixture, [await reveal()], [launcher]);
      expect(await fixture.provider.connection.getAccountInfo(plan.accounts.commitment)).to.equal(null);
    });
  });

  describe("pre-funded PDA addresses (denial of service on create_account)", () => {
    it("still reserves when someone sent lamports to the commitment, reservation and wallet addresses first", async () => {
      const keys = reservationKeys(fixture, launcher.publicKey, "pepe", "pepe");
      const call = reserveCall(fixture, launcher, "pepe", "pepe");
      fixture.provider.svm.airdrop(call.plan.accounts.commitment, 2_000_000n);
      fixture.provider.svm.airdrop(keys.reservation, 1_000_000n);
      fixture.provider.svm.airdrop(keys.wallet, 5_000_000_000n);
      await call.rpc();
      const reservation = await fixture.program.account.reservation.fetch(keys.reservation);
      expect(reservation.name).to.equal("PEPE");
      const wallet = await fixture.provider.connection.getAccountInfo(keys.wallet);
      expect(wallet?.owner.toBase58()).to.equal(fixture.programId.toBase58());
      expect(wallet?.lamports).to.equal(5_000_000_000);
    });
  });
});
