// assert_launch_allowed: the registry's answer to "may this wallet launch this name and ticker?", for a launch
// program calling it by CPI (it reads the return data) and for simulations. Refuses (LaunchRefused) only when
// another wallet holds a live reservation; the reservation account must be the pair's PDA, existing or not.
import { randomBytes } from "node:crypto";
import { Keypair, PublicKey, Transaction, type TransactionInstruction } from "@solana/web3.js";
import { expect } from "chai";
import { foldedHash, foldedHashBytes, foldV1 } from "../../core/fold";
import { LiteSvmTransactionError } from "../../scripts/solana/litesvm-connection";
import { configAddress, reservationAddress } from "../../scripts/solana/registry";
import { deployCpiCaller, throughCaller } from "./support/cpiCaller";
import { expectProgramError } from "./support/errors";
import {
  advanceTo,
  DAY,
  deployedRegistry,
  type Fixture,
  fundedWallet,
  providerFor,
  reserveCall,
  START_TIME,
  sendInstructions,
} from "./support/fixture";

const pairAddress = (fixture: Fixture, name: string, ticker: string) =>
  reservationAddress(fixture.programId, foldedHash(foldV1(name)), foldedHash(foldV1(ticker)));

const pairSeeds = (name: string, ticker: string) => [
  Buffer.from("reservation"),
  Buffer.from(foldedHashBytes(foldV1(name))),
  Buffer.from(foldedHashBytes(foldV1(ticker))),
];

/** web3.js's own canonical bump search, which the program's hand-made derivation must match. */
const canonical = (fixture: Fixture, name: string, ticker: string) =>
  PublicKey.findProgramAddressSync(pairSeeds(name, ticker), fixture.programId);

/** The first pair of the form "Low Bump <i>" / "LB<i>" whose canonical bump is below `below`. */
function pairWithBumpBelow(fixture: Fixture, below: number) {
  for (let index = 0; ; index++) {
    const [name, ticker] = [`Low Bump ${index}`, `LB${index}`];
    const [address, bump] = canonical(fixture, name, ticker);
    if (bump < below) return { name, ticker, address, bump };
  }
}

/** The pair's address under a valid bump lower than `bump` (not canonical). */
function lowerValidAddress(fixture: Fixture, name: string, ticker: string, bump: number): PublicKey {
  for (let lower = bump - 1; lower > 0; lower--) {
    try {
      return PublicKey.createProgramAddressSync(
        [...pairSeeds(name, ticker), Buffer.from([lower])],
        fixture.programId,
      );
    } catch {
      // That bump's hash lies on the curve: no address.
    }
  }
  throw new Error("no lower bump gives an address");
}

/** holder (32 bytes) || expires_at (i64 LE) || name_hash (32) || ticker_hash (32): the instruction's return data. */
function launchCheckBytes(holder: PublicKey, expiresAt: bigint, name: string, ticker: string): Buffer {
  const expiry = Buffer.alloc(8);
  expiry.writeBigInt64LE(expiresAt);
  return Buffer.concat([
    holder.toBuffer(),
    expiry,
    Buffer.from(foldedHashBytes(foldV1(name))),
    Buffer.from(foldedHashBytes(foldV1(ticker))),
  ]);
}

describe("program: assert_launch_allowed", () => {
  let fixture: Fixture;
  let holder: Keypair;
  let expiresAt: bigint;
  beforeEach(async () => {
    fixture = await deployedRegistry();
    holder = fundedWallet(fixture);
    await reserveCall(fixture, holder, "Pepe", "PEPE").rpc();
    expiresAt = START_TIME + BigInt(DAY);
  });

  const method = (
    name: string,
    ticker: string,
    launcher: PublicKey,
    reservation = pairAddress(fixture, name, ticker),
  ) =>
    fixture.program.methods
      .assertLaunchAllowed(name, ticker, launcher)
      .accountsStrict({ config: configAddress(fixture.programId), reservation });

  /** The decoded answer; the folded pair's keys are checked on every answer (they never depend on the holder). */
  async function answer(name: string, ticker: string, launcher: PublicKey, reservation?: PublicKey) {
    const result = await method(name, ticker, launcher, reservation).view();
    expect(Buffer.from(result.nameHash)).to.deep.equal(Buffer.from(foldedHashBytes(foldV1(name))));
    expect(Buffer.from(result.tickerHash)).to.deep.equal(Buffer.from(foldedHashBytes(foldV1(ticker))));
    return { holder: result.holder.toBase58(), expiresAt: BigInt(result.expiresAt.toString()) };
  }

  const FREE = { holder: PublicKey.default.toBase58(), expiresAt: 0n };

  it("reads free (zero holder and expiry) for a pair never reserved, whoever launches", async () => {
    expect(await answer("Doge", "DOGE", holder.publicKey)).to.deep.equal(FREE);
    expect(await answer("Doge", "DOGE", Keypair.generate().publicKey)).to.deep.equal(FREE);
  });

  it("returns the folded pair's keccak256 keys (the reservation PDA's seeds) for any spelling: 104 bytes", async () => {
    const spelled = await answer("d.o.g.e", "d0ge", holder.publicKey);
    expect(spelled).to.deep.equal(FREE);
    const raw = await fixture.provider.simulate(
      new Transaction().add(await method("d.o.g.e", "d0ge", holder.publicKey).instruction()),
    );
    expect(raw.err).to.equal(null);
    expect(Buffer.from(fixture.provider.last?.returnData ?? [])).to.deep.equal(
      launchCheckBytes(PublicKey.default, 0n, "Doge", "DOGE"),
    );
  });

  it("allows the holder, returning its key and the expiry", async () => {
    expect(await answer("Pepe", "PEPE", holder.publicKey)).to.deep.equal({
      holder: holder.publicKey.toBase58(),
      expiresAt,
    });
  });

  it("refuses another wallet with LaunchRefused, for any spelling of the folded pair, and still returns the holder to a simulation", async () => {
    const other = Keypair.generate().publicKey;
    await expectProgramError(method("Pepe", "PEPE", other).view(), "LaunchRefused");
    await expectProgramError(method("p.e.p.e", "pepe", other).view(), "LaunchRefused");
    const instruction = await method("Pepe", "PEPE", other).instruction();
    const refused = await fixture.provider
      .simulate(new Transaction().add(instruction))
      .then(() => expect.fail("the simulation succeeded"))
      .catch((error: unknown) => error as LiteSvmTransactionError);
    expect(refused).to.be.instanceOf(LiteSvmTransactionError);
    expect(refused.returnData.programId).to.equal(fixture.programId.toBase58());
    expect(Buffer.from(refused.returnData.data)).to.deep.equal(
      launchCheckBytes(holder.publicKey, expiresAt, "Pepe", "PEPE"),
    );
    // Sent for real (not a view), the transaction fails the same way.
    await expectProgramError(sendInstructions(fixture, [instruction]), "LaunchRefused");
  });

  it("reads an expired reservation as free, for anyone, from the expiry second on", async () => {
    const other = Keypair.generate().publicKey;
    await advanceTo(fixture, expiresAt - 1n);
    await expectProgramError(method("Pepe", "PEPE", other).view(), "LaunchRefused");
    await advanceTo(fixture, expiresAt);
    expect(await answer("Pepe", "PEPE", other)).to.deep.equal(FREE);
    expect(await answer("Pepe", "PEPE", holder.publicKey)).to.deep.equal(FREE);
  });

  it("refuses an account that is not the pair's PDA (InvalidPda): an empty address, another pair's reservation or PDA", async () => {
    const other = Keypair.generate().publicKey;
    await expectProgramError(
      method("Pepe", "PEPE", other, Keypair.generate().publicKey).view(),
      "InvalidPda",
    );
    // A free pair checked against another pair's live reservation, and the held pair against a free pair's PDA.
    await expectProgramError(
      method("Doge", "DOGE", other, pairAddress(fixture, "Pepe", "PEPE")).view(),
      "InvalidPda",
    );
    await expectProgramError(
      method("Pepe", "PEPE", other, pairAddress(fixture, "Doge", "DOGE")).view(),
      "InvalidPda",
    );
  });

  it("refuses an account owned by another program with data, and program accounts of another type (InvalidAccount)", async () => {
    const account = fixture.provider.svm.svm.getAccount(
      pairAddress(fixture, "Pepe", "PEPE").toBase58() as never,
    );
    if (!account.exists) throw new Error("no reservation");
    const foreign = Keypair.generate().publicKey;
    fixture.provider.svm.svm.setAccount({
      ...account,
      address: foreign.toBase58(),
      programAddress: Keypair.generate().publicKey.toBase58(),
    } as never);
    await expectProgramError(method("Pepe", "PEPE", holder.publicKey, foreign).view(), "InvalidAccount");
    const wallet = reserveCall(fixture, holder, "Pepe", "PEPE").plan.accounts.wallet;
    await expectProgramError(method("Pepe", "PEPE", holder.publicKey, wallet).view(), "InvalidAccount");
    const notConfig = await method("Pepe", "PEPE", holder.publicKey).instruction();
    notConfig.keys[0] = { ...(notConfig.keys[0] as TransactionInstruction["keys"][0]), pubkey: wallet };
    await expectProgramError(sendInstructions(fixture, [notConfig]), "InvalidAccount");
  });

  it("refuses names and tickers outside the bounds with BadLength", async () => {
    await expectProgramError(method("!!!", "PEPE", holder.publicKey).view(), "BadLength");
    await expectProgramError(method("Pepe", "P", holder.publicKey).view(), "BadLength");
  });

  describe("the reservation PDA, derived by hand (sha256, then the Ed25519 curve check)", () => {
    it("is web3.js's canonical address for random pairs and for a pair whose bump is below 250", async () => {
      const low = pairWithBumpBelow(fixture, 250);
      const pairs = Array.from({ length: 64 }, () => [
        randomBytes(8).toString("hex"),
        randomBytes(4).toString("hex"),
      ]);
      pairs.push([low.name, low.ticker]);
      const bumps = new Set<number>();
      for (const [name, ticker] of pairs as [string, string][]) {
        const [address, bump] = canonical(fixture, name, ticker);
        bumps.add(bump);
        expect(await answer(name, ticker, holder.publicKey, address), `${name} / ${ticker}`).to.deep.equal(
          FREE,
        );
      }
      // Off-curve at the first try and after several tries on the curve.
      expect(bumps.has(255)).to.equal(true);
      expect(Math.min(...bumps)).to.be.below(250);
    });

    it("refuses the pair's address under a lower, non-canonical bump (InvalidPda), free or held", async () => {
      const low = pairWithBumpBelow(fixture, 250);
      const lower = lowerValidAddress(fixture, low.name, low.ticker, low.bump);
      await expectProgramError(method(low.name, low.ticker, holder.publicKey, lower).view(), "InvalidPda");
      // Reserving runs the same search; the held pair is then checked with its stored bump.
      await reserveCall(fixture, holder, low.name, low.ticker).rpc();
      expect(await answer(low.name, low.ticker, holder.publicKey, low.address)).to.deep.equal({
        holder: holder.publicKey.toBase58(),
        expiresAt: START_TIME + BigInt(DAY),
      });
      const held = pairAddress(fixture, "Pepe", "PEPE");
      const [, pepeBump] = canonical(fixture, "Pepe", "PEPE");
      await expectProgramError(
        method("Pepe", "PEPE", holder.publicKey, lowerValidAddress(fixture, "Pepe", "PEPE", pepeBump)).view(),
        "InvalidPda",
      );
      expect(await answer("Pepe", "PEPE", holder.publicKey, held)).to.deep.equal({
        holder: holder.publicKey.toBase58(),
        expiresAt,
      });
    });

    it("refuses a Reservation account whose stored bump is not the one of its address (InvalidPda)", async () => {
      const address = pairAddress(fixture, "Pepe", "PEPE");
      const account = fixture.provider.svm.svm.getAccount(address.toBase58() as never);
      if (!account.exists) throw new Error("no reservation");
      const data = Buffer.from(account.data);
      const { coder } = fixture.program;
      const record = coder.accounts.decode("reservation", data);
      (await coder.accounts.encode("reservation", { ...record, bump: record.bump - 1 })).copy(data);
      fixture.provider.svm.svm.setAccount({ ...account, data } as never);
      await expectProgramError(method("Pepe", "PEPE", holder.publicKey).view(), "InvalidPda");
    });
  });

  describe("called by another program (CPI), which reads the return data", () => {
    let caller: PublicKey;
    beforeEach(async () => {
      caller = await deployCpiCaller(fixture.provider);
    });

    /** Sends assert_launch_allowed through the caller; returns the transaction's return data and its program. */
    async function viaCaller(name: string, ticker: string, launcher: PublicKey) {
      const payer = fundedWallet(fixture);
      const provider = providerFor(fixture, payer);
      const instruction = await method(name, ticker, launcher).instruction();
      await provider.sendAndConfirm(new Transaction().add(throughCaller(caller, instruction)));
      return {
        programId: provider.last?.returnProgramId,
        data: Buffer.from(provider.last?.returnData ?? []),
      };
    }

    it("returns the holder, expiry and folded keys to the calling program, which sets them as its own return data", async () => {
      const held = await viaCaller("Pepe", "PEPE", holder.publicKey);
      expect(held.programId).to.equal(caller.toBase58());
      expect(held.data).to.deep.equal(launchCheckBytes(holder.publicKey, expiresAt, "Pepe", "PEPE"));
      const free = await viaCaller("Doge", "DOGE", holder.publicKey);
      expect(free.programId).to.equal(caller.toBase58());
      expect(free.data).to.deep.equal(launchCheckBytes(PublicKey.default, 0n, "Doge", "DOGE"));
    });

    it("fails the calling program's whole transaction with LaunchRefused when another wallet holds the pair", async () => {
      const instruction = await method("Pepe", "PEPE", Keypair.generate().publicKey).instruction();
      await expectProgramError(
        sendInstructions(fixture, [throughCaller(caller, instruction)]),
        "LaunchRefused",
      );
    });
  });
});
