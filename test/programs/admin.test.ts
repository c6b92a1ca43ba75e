// Admin paths: initialize (upgrade authority only, once), update_config, the two-step admin hand-over, decision
// signers, the local price source, the price confidence bound and fees.
import { BN, EventParser } from "@coral-xyz/anchor";
import { Keypair, PublicKey } from "@solana/web3.js";
import { expect } from "chai";
import { DEFAULT_TIER_PRICES_USD_MICROS } from "../../core/reservation";
import { deployProgram } from "../../scripts/solana/deploy";
import {
  configAddress,
  configArgs,
  DEFAULT_MAX_CONFIDENCE_BPS,
  feeLamports,
  initializeRegistry,
  LOCAL_MIN_COMMITMENT_SLOTS,
  loadProgramBytes,
  localPriceAddress,
  localSettings,
  PYTH_RECEIVER_PROGRAM_ID,
  type RegistrySettings,
  registryProgram,
  SOL_USD_FEED_ID,
  treasuryAddress,
} from "../../scripts/solana/registry";
import { programDataAddress } from "../../scripts/solana/upgradeable-loader";
import { commitAndReveal } from "./support/commitReveal";
import { expectProgramError } from "./support/errors";
import {
  advanceTo,
  DAY,
  deployedRegistry,
  type Fixture,
  fundedWallet,
  providerFor,
  renewCall,
  reserveCall,
  SOL_PRICE,
  START_TIME,
  sendInstructions,
  warpSlots,
} from "./support/fixture";

function updateConfig(fixture: Fixture, admin: Keypair, settings: RegistrySettings) {
  return fixture.program.methods
    .updateConfig(configArgs(settings))
    .accountsStrict({ admin: admin.publicKey, config: configAddress(fixture.programId) })
    .signers([admin]);
}

const fetchConfig = (fixture: Fixture) =>
  fixture.program.account.config.fetch(configAddress(fixture.programId));

function lastEvents(fixture: Fixture) {
  return [
    ...new EventParser(fixture.programId, fixture.program.coder).parseLogs(fixture.provider.last?.logs ?? []),
  ];
}

/** The data of the last transaction's only event, which must be `name` (camelCase, as Anchor decodes it). */
function onlyEvent(fixture: Fixture, name: string): Record<string, unknown> {
  const events = lastEvents(fixture);
  expect(events.map((event) => event.name)).to.deep.equal([name]);
  return (events[0]?.data ?? {}) as Record<string, unknown>;
}

/** A PriceUpdateV2 account as the Pyth receiver writes it (verification level Full). */
function pythPriceUpdate(feedId: Uint8Array, price: bigint, exponent: number, publishTime: bigint): Buffer {
  const data = Buffer.alloc(134);
  Buffer.from([34, 241, 35, 99, 157, 126, 244, 205]).copy(data, 0);
  data[40] = 1;
  Buffer.from(feedId).copy(data, 41);
  data.writeBigInt64LE(price, 73);
  data.writeInt32LE(exponent, 89);
  data.writeBigInt64LE(publishTime, 93);
  return data;
}

describe("program: admin", () => {
  let fixture: Fixture;
  beforeEach(async () => {
    fixture = await deployedRegistry();
  });

  it("initializes once: a second initialize is refused with AlreadyInitialized", async () => {
    await expectProgramError(
      initializeRegistry(fixture.program, localSettings(fixture.programId)),
      "AlreadyInitialized",
    );
  });

  it("lets only the program's upgrade authority initialize, so nobody can front-run the deployer", async () => {
    const program = Keypair.generate();
    await deployProgram(fixture.provider, { program, bytes: loadProgramBytes() });
    const intruder = fundedWallet(fixture);
    const asIntruder = registryProgram(providerFor(fixture, intruder), program.publicKey);
    await expectProgramError(
      initializeRegistry(asIntruder, localSettings(program.publicKey)),
      "Unauthorized",
    );
    await initializeRegistry(
      registryProgram(fixture.provider, program.publicKey),
      localSettings(program.publicKey),
    );
  });

  it("initializes the config's new fields: 1-slot commitments, the confidence bound, no pending admin, no signers", async () => {
    const config = await fetchConfig(fixture);
    expect(config.minCommitmentSlots.toNumber()).to.equal(LOCAL_MIN_COMMITMENT_SLOTS);
    expect(config.maxConfidenceBps).to.equal(DEFAULT_MAX_CONFIDENCE_BPS);
    expect(config.pendingAdmin.toBase58()).to.equal(PublicKey.default.toBase58());
    expect(config.decisionSigners).to.have.length(4);
    for (const entry of config.decisionSigners) {
      expect(entry.signer.toBase58()).to.equal(PublicKey.default.toBase58());
      expect([entry.validFrom.toNumber(), entry.validUntil.toNumber()]).to.deep.equal([0, 0]);
    }
    const info = await fixture.provider.connection.getAccountInfo(configAddress(fixture.programId));
    expect(info?.data.length).to.equal(444);
  });

  it("refuses out-of-range settings with InvalidConfig", async () => {
    const base = localSettings(fixture.programId);
    for (const settings of [
      { ...base, tierUsdMicros: [0, 1, 2, 3] },
      { ...base, maxPriceAgeSecs: 0 },
      { ...base, minCommitmentSlots: 0 },
      { ...base, minCommitmentSlots: 1001 },
      { ...base, maxConfidenceBps: 0 },
      { ...base, maxConfidenceBps: 10_001 },
    ]) {
      await expectProgramError(updateConfig(fixture, fixture.admin, settings).rpc(), "InvalidConfig");
    }
    await updateConfig(fixture, fixture.admin, {
      ...base,
      minCommitmentSlots: 1000,
      maxConfidenceBps: 10_000,
    }).rpc();
  });

  it("lets the admin change tier prices (the next fee follows), and nobody else", async () => {
    const settings = {
      ...localSettings(fixture.programId),
      tierUsdMicros: [10_000_000, 20_000_000, 30_000_000, 40_000_000],
    };
    await expectProgramError(updateConfig(fixture, fundedWallet(fixture), settings).rpc(), "Unauthorized");
    await updateConfig(fixture, fixture.admin, settings).rpc();
    const config = await fetchConfig(fixture);
    expect(config.admin.toBase58()).to.equal(fixture.admin.publicKey.toBase58());
    expect(config.tierUsdMicros.map((usd) => usd.toNumber())).to.deep.equal(settings.tierUsdMicros);
    const updated = onlyEvent(fixture, "configUpdated");
    expect((updated.minCommitmentSlots as BN).toNumber()).to.equal(LOCAL_MIN_COMMITMENT_SLOTS);
    expect(updated.maxConfidenceBps).to.equal(DEFAULT_MAX_CONFIDENCE_BPS);
    expect((updated.tierUsdMicros as BN[]).map((usd) => usd.toNumber())).to.deep.equal(
      settings.tierUsdMicros,
    );

    const launcher = fundedWallet(fixture);
    const treasury = treasuryAddress(fixture.programId);
    const before = await fixture.provider.svm.getBalance(treasury);
    await reserveCall(fixture, launcher, "pepe", "pepe").rpc();
    const fee = BigInt((await fixture.provider.svm.getBalance(treasury)) - before);
    expect(fee).to.equal(feeLamports(10_000_000n, SOL_PRICE.price, SOL_PRICE.exponent));
  });

  describe("two-step admin hand-over", () => {
    const propose = (fixture: Fixture, admin: Keypair, newAdmin: PublicKey) =>
      fixture.program.methods
        .proposeAdmin(newAdmin)
        .accountsStrict({ admin: admin.publicKey, config: configAddress(fixture.programId) })
        .signers([admin])
        .rpc();
    const accept = (fixture: Fixture, signer: Keypair) =>
      fixture.program.methods
        .acceptAdmin()
        .accountsStrict({ pendingAdmin: signer.publicKey, config: configAddress(fixture.programId) })
        .signers([signer])
        .rpc();

    it("proposes, refuses the wrong signer, accepts, and the old admin loses every right", async () => {
      const successor = fundedWallet(fixture);
      const intruder = fundedWallet(fixture);
      await propose(fixture, fixture.admin, successor.publicKey);
      const started = onlyEvent(fixture, "adminTransferStarted");
      expect((started.admin as PublicKey).toBase58()).to.equal(fixture.admin.publicKey.toBase58());
      expect((started.pendingAdmin as PublicKey).toBase58()).to.equal(successor.publicKey.toBase58());
      let config = await fetchConfig(fixture);
      expect(config.admin.toBase58()).to.equal(fixture.admin.publicKey.toBase58());
      expect(config.pendingAdmin.toBase58()).to.equal(successor.publicKey.toBase58());

      await expectProgramError(accept(fixture, intruder), "Unauthorized");
      await expectProgramError(accept(fixture, fixture.admin), "Unauthorized");
      await accept(fixture, successor);
      const transferred = onlyEvent(fixture, "adminTransferred");
      expect((transferred.previousAdmin as PublicKey).toBase58()).to.equal(
        fixture.admin.publicKey.toBase58(),
      );
      expect((transferred.admin as PublicKey).toBase58()).to.equal(successor.publicKey.toBase58());
      config = await fetchConfig(fixture);
      expect(config.admin.toBase58()).to.equal(successor.publicKey.toBase58());
      expect(config.pendingAdmin.toBase58()).to.equal(PublicKey.default.toBase58());
      await expectProgramError(accept(fixture, successor), "Unauthorized");

      const settings = localSettings(fixture.programId);
      await expectProgramError(updateConfig(fixture, fixture.admin, settings).rpc(), "Unauthorized");
      await expectProgramError(propose(fixture, fixture.admin, fixture.admin.publicKey), "Unauthorized");
      await updateConfig(fixture, successor, settings).rpc();
    });

    it("never loses the admin to a mistyped key: the admin proposes again, or cancels with its own or the zero key", async () => {
      const typo = Keypair.generate();
      const intended = fundedWallet(fixture);
      await propose(fixture, fixture.admin, typo.publicKey);
      await propose(fixture, fixture.admin, intended.publicKey);
      fixture.provider.svm.airdrop(typo.publicKey, 1_000_000_000n);
      await expectProgramError(accept(fixture, typo), "Unauthorized");

      await propose(fixture, fixture.admin, fixture.admin.publicKey);
      expect((await fetchConfig(fixture)).pendingAdmin.toBase58()).to.equal(PublicKey.default.toBase58());
      await expectProgramError(accept(fixture, intended), "Unauthorized");
      await propose(fixture, fixture.admin, intended.publicKey);
      await propose(fixture, fixture.admin, PublicKey.default);
      await expectProgramError(accept(fixture, intended), "Unauthorized");
      expect((await fetchConfig(fixture)).admin.toBase58()).to.equal(fixture.admin.publicKey.toBase58());
    });

    it("lets only the admin propose, and only with its signature", async () => {
      const intruder = fundedWallet(fixture);
      await expectProgramError(propose(fixture, intruder, intruder.publicKey), "Unauthorized");
      const unsigned = await fixture.program.methods
        .proposeAdmin(intruder.publicKey)
        .accountsStrict({ admin: fixture.admin.publicKey, config: configAddress(fixture.programId) })
        .instruction();
      unsigned.keys[0] = { ...(unsigned.keys[0] as (typeof unsigned.keys)[0]), isSigner: false };
      await expectProgramError(
        sendInstructions({ ...fixture, provider: providerFor(fixture, intruder) }, [unsigned]),
        "MissingSigner",
      );
      const unsignedAccept = await fixture.program.methods
        .acceptAdmin()
        .accountsStrict({ pendingAdmin: intruder.publicKey, config: configAddress(fixture.programId) })
        .instruction();
      unsignedAccept.keys[0] = {
        ...(unsignedAccept.keys[0] as (typeof unsignedAccept.keys)[0]),
        isSigner: false,
      };
      await expectProgramError(sendInstructions(fixture, [unsignedAccept]), "MissingSigner");
    });
  });

  describe("decision signers", () => {
    const set = (fixture: Fixture, admin: Keypair, signer: PublicKey, from: bigint, until: bigint) =>
      fixture.program.methods
        .setDecisionSigner(signer, new BN(from.toString()), new BN(until.toString()))
        .accountsStrict({ admin: admin.publicKey, config: configAddress(fixture.programId) })
        .signers([admin])
        .rpc();
    const revoke = (fixture: Fixture, admin: Keypair, signer: PublicKey) =>
      fixture.program.methods
        .revokeDecisionSigner(signer)
        .accountsStrict({ admin: admin.publicKey, config: configAddress(fixture.programId) })
        .signers([admin])
        .rpc();
    const entries = async (fixture: Fixture) =>
      (await fetchConfig(fixture)).decisionSigners.map((entry) => ({
        signer: entry.signer.toBase58(),
        validFrom: BigInt(entry.validFrom.toString()),
        validUntil: BigInt(entry.validUntil.toString()),
      }));
    const YEAR = 365n * 86_400n;

    it("sets a signer with its window (event DecisionSignerSet), and updates the same key in place", async () => {
      const key = Keypair.generate().publicKey;
      await set(fixture, fixture.admin, key, START_TIME, START_TIME + YEAR);
      const event = onlyEvent(fixture, "decisionSignerSet");
      expect((event.signer as PublicKey).toBase58()).to.equal(key.toBase58());
      expect((event.validFrom as BN).toString()).to.equal(START_TIME.toString());
      expect((event.validUntil as BN).toString()).to.equal((START_TIME + YEAR).toString());
      await set(fixture, fixture.admin, key, START_TIME + 10n, START_TIME + 2n * YEAR);
      const stored = await entries(fixture);
      expect(stored[0]).to.deep.equal({
        signer: key.toBase58(),
        validFrom: START_TIME + 10n,
        validUntil: START_TIME + 2n * YEAR,
      });
      expect(stored.slice(1).every((entry) => entry.signer === PublicKey.default.toBase58())).to.equal(true);
    });

    it("holds 4 keys, refuses a 5th (DecisionSignerSetFull), and reuses an entry whose window has ended", async () => {
      const keys = Array.from({ length: 5 }, () => Keypair.generate().publicKey);
      await set(fixture, fixture.admin, keys[0] as PublicKey, START_TIME - YEAR, START_TIME + 100n);
      for (const key of keys.slice(1, 4))
        await set(fixture, fixture.admin, key, START_TIME, START_TIME + YEAR);
      await expectProgramError(
        set(fixture, fixture.admin, keys[4] as PublicKey, START_TIME, START_TIME + YEAR),
        "DecisionSignerSetFull",
      );
      await advanceTo(fixture, START_TIME + 99n);
      await expectProgramError(
        set(fixture, fixture.admin, keys[4] as PublicKey, START_TIME, START_TIME + YEAR),
        "DecisionSignerSetFull",
      );
      await advanceTo(fixture, START_TIME + 100n);
      await set(fixture, fixture.admin, keys[4] as PublicKey, START_TIME + 100n, START_TIME + YEAR);
      expect((await entries(fixture)).map((entry) => entry.signer)).to.deep.equal(
        [keys[4], keys[1], keys[2], keys[3]].map((key) => key?.toBase58()),
      );
    });

    it("revokes at once (valid_until = now, event DecisionSignerRevoked) and never extends an ended window", async () => {
      const key = Keypair.generate().publicKey;
      const ended = Keypair.generate().publicKey;
      await set(fixture, fixture.admin, key, START_TIME - YEAR, START_TIME + YEAR);
      await set(fixture, fixture.admin, ended, START_TIME - YEAR, START_TIME - 10n);
      await advanceTo(fixture, START_TIME + 50n);
      await revoke(fixture, fixture.admin, key);
      const event = onlyEvent(fixture, "decisionSignerRevoked");
      expect((event.signer as PublicKey).toBase58()).to.equal(key.toBase58());
      expect((event.validUntil as BN).toString()).to.equal((START_TIME + 50n).toString());
      await revoke(fixture, fixture.admin, ended);
      const stored = await entries(fixture);
      expect(stored[0]?.validUntil).to.equal(START_TIME + 50n);
      expect(stored[1]?.validUntil).to.equal(START_TIME - 10n);
      await expectProgramError(
        revoke(fixture, fixture.admin, Keypair.generate().publicKey),
        "DecisionSignerNotFound",
      );
      await expectProgramError(revoke(fixture, fixture.admin, PublicKey.default), "DecisionSignerNotFound");
    });

    it("refuses the zero key and empty windows (InvalidConfig)", async () => {
      await expectProgramError(
        set(fixture, fixture.admin, PublicKey.default, START_TIME, START_TIME + YEAR),
        "InvalidConfig",
      );
      const key = Keypair.generate().publicKey;
      await expectProgramError(set(fixture, fixture.admin, key, START_TIME, START_TIME), "InvalidConfig");
      await expectProgramError(
        set(fixture, fixture.admin, key, START_TIME + 1n, START_TIME),
        "InvalidConfig",
      );
    });

    it("lets only the admin set or revoke", async () => {
      const intruder = fundedWallet(fixture);
      const key = Keypair.generate().publicKey;
      await expectProgramError(set(fixture, intruder, key, START_TIME, START_TIME + YEAR), "Unauthorized");
      await set(fixture, fixture.admin, key, START_TIME, START_TIME + YEAR);
      await expectProgramError(revoke(fixture, intruder, key), "Unauthorized");
      expect((await entries(fixture))[0]?.validUntil).to.equal(START_TIME + YEAR);
    });
  });

  describe("price confidence", () => {
    const pushConfidence = (fixture: Fixture, conf: bigint) =>
      fixture.program.methods
        .pushPrice(
          new BN(SOL_PRICE.price.toString()),
          new BN(conf.toString()),
          SOL_PRICE.exponent,
          new BN(START_TIME.toString()),
        )
        .accountsStrict({
          admin: fixture.admin.publicKey,
          config: configAddress(fixture.programId),
          priceUpdate: localPriceAddress(fixture.programId),
          systemProgram: PublicKey.default,
        })
        .rpc();
    // 2% of $150 with exponent -8: 3 USD = 3_00000000.
    const bound = (SOL_PRICE.price * BigInt(DEFAULT_MAX_CONFIDENCE_BPS)) / 10_000n;

    it("refuses a reveal when the confidence interval exceeds max_confidence_bps of the price, and accepts the bound", async () => {
      const launcher = fundedWallet(fixture);
      await pushConfidence(fixture, bound + 1n);
      await expectProgramError(
        reserveCall(fixture, launcher, "pepe", "pepe").rpc(),
        "PriceConfidenceTooWide",
      );
      await pushConfidence(fixture, bound);
      await reserveCall(fixture, launcher, "pepe", "pepe").rpc();
    });

    it("refuses a renewal too, follows update_config, and handles confidences near u64's limit", async () => {
      const launcher = fundedWallet(fixture);
      await reserveCall(fixture, launcher, "pepe", "pepe").rpc();
      await advanceTo(fixture, START_TIME + BigInt(DAY) - 60n);
      const pushAt = (conf: bigint) =>
        fixture.program.methods
          .pushPrice(
            new BN(SOL_PRICE.price.toString()),
            new BN(conf.toString()),
            SOL_PRICE.exponent,
            new BN((START_TIME + BigInt(DAY) - 60n).toString()),
          )
          .accountsStrict({
            admin: fixture.admin.publicKey,
            config: configAddress(fixture.programId),
            priceUpdate: localPriceAddress(fixture.programId),
            systemProgram: PublicKey.default,
          })
          .rpc();
      await pushAt(2n ** 64n - 1n);
      await expectProgramError(renewCall(fixture, launcher, "pepe", "pepe").rpc(), "PriceConfidenceTooWide");
      await pushAt(bound * 5n);
      await expectProgramError(renewCall(fixture, launcher, "pepe", "pepe").rpc(), "PriceConfidenceTooWide");
      await updateConfig(fixture, fixture.admin, {
        ...localSettings(fixture.programId),
        maxConfidenceBps: 1000,
      }).rpc();
      await renewCall(fixture, launcher, "pepe", "pepe").rpc();
    });
  });

  it("reads a Pyth receiver PriceUpdateV2 in production settings and refuses the local price account then", async () => {
    const pythAccount = Keypair.generate().publicKey;
    fixture.provider.svm.svm.setAccount({
      address: pythAccount.toBase58(),
      data: pythPriceUpdate(SOL_USD_FEED_ID, 200_00000000n, -8, START_TIME),
      executable: false,
      lamports: 10_000_000n,
      programAddress: PYTH_RECEIVER_PROGRAM_ID.toBase58(),
      space: 134n,
    } as never);
    const production = {
      ...localSettings(fixture.programId),
      priceUpdate: pythAccount,
      priceOwner: PYTH_RECEIVER_PROGRAM_ID,
    };
    await updateConfig(fixture, fixture.admin, production).rpc();

    const launcher = fundedWallet(fixture);
    const request = { name: "pepe", ticker: "pepe", durationSeconds: 86_400 };
    await commitAndReveal(fixture.program, launcher, pythAccount, request, () => warpSlots(fixture));
    const keys = reserveCall(fixture, launcher, "pepe", "pepe").plan.accounts;
    const reservation = await fixture.program.account.reservation.fetch(keys.reservation);
    expect(BigInt(reservation.feeLamports.toString())).to.equal(
      feeLamports(DEFAULT_TIER_PRICES_USD_MICROS[0], 200_00000000n, -8),
    );

    await expectProgramError(
      fixture.program.methods
        .pushPrice(new BN(1), new BN(0), -8, new BN(START_TIME.toString()))
        .accountsStrict({
          admin: fixture.admin.publicKey,
          config: configAddress(fixture.programId),
          priceUpdate: localSettings(fixture.programId).priceUpdate,
          systemProgram: PublicKey.default,
        })
        .rpc(),
      "LocalPriceDisabled",
    );
    const other = fundedWallet(fixture);
    await expectProgramError(reserveCall(fixture, other, "doge", "doge").rpc(), "PriceAccountMismatch");
  });

  it("refuses a price whose fee would overflow u64 with MathOverflow", async () => {
    await fixture.program.methods
      .pushPrice(new BN(1), new BN(0), -12, new BN(START_TIME.toString()))
      .accountsStrict({
        admin: fixture.admin.publicKey,
        config: configAddress(fixture.programId),
        priceUpdate: localSettings(fixture.programId).priceUpdate,
        systemProgram: PublicKey.default,
      })
      .rpc();
    const launcher = fundedWallet(fixture);
    await expectProgramError(reserveCall(fixture, launcher, "pepe", "pepe", 2_592_000).rpc(), "MathOverflow");
  });

  it("lets the admin withdraw fees down to the treasury's rent-exempt minimum, and nobody else", async () => {
    const launcher = fundedWallet(fixture);
    await reserveCall(fixture, launcher, "pepe", "pepe").rpc();
    const treasury = treasuryAddress(fixture.programId);
    const rentMinimum = await fixture.provider.connection.getMinimumBalanceForRentExemption(0);
    const available = (await fixture.provider.svm.getBalance(treasury)) - rentMinimum;
    const destination = Keypair.generate().publicKey;
    const withdraw = (admin: Keypair, lamports: number) =>
      fixture.program.methods
        .withdrawFees(new BN(lamports))
        .accountsStrict({
          admin: admin.publicKey,
          config: configAddress(fixture.programId),
          treasury,
          destination,
          systemProgram: PublicKey.default,
        })
        .signers([admin]);
    await expectProgramError(withdraw(fundedWallet(fixture), available).rpc(), "Unauthorized");
    await expectProgramError(withdraw(fixture.admin, available + 1).rpc(), "InsufficientTreasury");
    await withdraw(fixture.admin, available).rpc();
    expect(await fixture.provider.svm.getBalance(destination)).to.equal(available);
    expect(await fixture.provider.svm.getBalance(treasury)).to.equal(rentMinimum);
  });

  it("deploys with the provider wallet as upgrade authority (what initialize checks)", async () => {
    const info = await fixture.provider.connection.getAccountInfo(programDataAddress(fixture.programId));
    expect(info?.data.subarray(13, 45).equals(fixture.admin.publicKey.toBuffer())).to.equal(true);
  });
});
