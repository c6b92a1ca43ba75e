// Admin paths: initialize (upgrade authority only, once), update_config, the local price source and fees.
import { BN } from "@coral-xyz/anchor";
import { Keypair, PublicKey } from "@solana/web3.js";
import { expect } from "chai";
import { DEFAULT_TIER_PRICES_USD_MICROS } from "../../core/reservation";
import { deployProgram } from "../../scripts/solana/deploy";
import {
  configAddress,
  configArgs,
  feeLamports,
  initializeRegistry,
  loadProgramBytes,
  localSettings,
  PYTH_RECEIVER_PROGRAM_ID,
  type RegistrySettings,
  registryProgram,
  SOL_USD_FEED_ID,
  treasuryAddress,
} from "../../scripts/solana/registry";
import { programDataAddress } from "../../scripts/solana/upgradeable-loader";
import { expectProgramError } from "./support/errors";
import {
  deployedRegistry,
  type Fixture,
  fundedWallet,
  providerFor,
  reservationKeys,
  reserveCall,
  SOL_PRICE,
  START_TIME,
} from "./support/fixture";

function updateConfig(fixture: Fixture, admin: Keypair, newAdmin: PublicKey, settings: RegistrySettings) {
  return fixture.program.methods
    .updateConfig(newAdmin, configArgs(settings))
    .accountsStrict({ admin: admin.publicKey, config: configAddress(fixture.programId) })
    .signers([admin]);
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

  it("refuses out-of-range settings with InvalidConfig", async () => {
    const settings = { ...localSettings(fixture.programId), tierUsdMicros: [0, 1, 2, 3] };
    await expectProgramError(
      updateConfig(fixture, fixture.admin, fixture.admin.publicKey, settings).rpc(),
      "InvalidConfig",
    );
    const ageless = { ...localSettings(fixture.programId), maxPriceAgeSecs: 0 };
    await expectProgramError(
      updateConfig(fixture, fixture.admin, fixture.admin.publicKey, ageless).rpc(),
      "InvalidConfig",
    );
  });

  it("lets the admin change tier prices (the next fee follows) and hand over the admin role", async () => {
    const settings = {
      ...localSettings(fixture.programId),
      tierUsdMicros: [10_000_000, 20_000_000, 30_000_000, 40_000_000],
    };
    const successor = fundedWallet(fixture);
    await updateConfig(fixture, fixture.admin, successor.publicKey, settings).rpc();
    const config = await fixture.program.account.config.fetch(configAddress(fixture.programId));
    expect(config.admin.toBase58()).to.equal(successor.publicKey.toBase58());
    expect(config.tierUsdMicros.map((usd) => usd.toNumber())).to.deep.equal(settings.tierUsdMicros);

    const launcher = fundedWallet(fixture);
    const treasury = treasuryAddress(fixture.programId);
    const before = await fixture.provider.svm.getBalance(treasury);
    await reserveCall(fixture, launcher, "pepe", "pepe").rpc();
    const fee = BigInt((await fixture.provider.svm.getBalance(treasury)) - before);
    expect(fee).to.equal(feeLamports(10_000_000n, SOL_PRICE.price, SOL_PRICE.exponent));

    await expectProgramError(
      updateConfig(fixture, fixture.admin, fixture.admin.publicKey, settings).rpc(),
      "Unauthorized",
    );
    await updateConfig(fixture, successor, successor.publicKey, settings).rpc();
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
    await updateConfig(fixture, fixture.admin, fixture.admin.publicKey, production).rpc();

    const launcher = fundedWallet(fixture);
    const keys = {
      ...reservationKeys(fixture, launcher.publicKey, "pepe", "pepe"),
      priceUpdate: pythAccount,
    };
    await fixture.program.methods
      .reserve("pepe", "pepe", new BN(86_400), Array(32).fill(0))
      .accountsStrict(keys)
      .signers([launcher])
      .rpc();
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
    const localKeys = reservationKeys(fixture, other.publicKey, "doge", "doge");
    await expectProgramError(
      fixture.program.methods
        .reserve("doge", "doge", new BN(86_400), Array(32).fill(0))
        .accountsStrict(localKeys)
        .signers([other])
        .rpc(),
      "PriceAccountMismatch",
    );
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
