// The test-only cpi_caller program: its committed .so is what its sources build with the project's toolchain, and
// it calls the registry through a cross-program invocation as a multisig or launchpad does (litesvm in-process).
import { readFileSync } from "node:fs";
import { type Keypair, type PublicKey, Transaction, type TransactionInstruction } from "@solana/web3.js";
import { expect } from "chai";
import { registryEventDecoder } from "../../chains/solana/events";
import { buildProgram, sha256Hex } from "../../scripts/sbf/build";
import { skipWithoutClang } from "../scripts/sbf/support";
import {
  CPI_CALLER_SO_PATH,
  CPI_CALLER_SOURCE_DIR,
  deployCpiCaller,
  TRUNCATING_FILLER_LINES,
  throughCaller,
} from "./support/cpiCaller";
import {
  advanceTo,
  DAY,
  deployedRegistry,
  type Fixture,
  fundedWallet,
  providerFor,
  renewCall,
  reservationKeys,
  reserveCall,
  START_TIME,
  warpSlots,
} from "./support/fixture";

describe("program: cpi_caller (test support)", () => {
  it("the committed cpi_caller.so is exactly what its sources build, and its .sha256 names those bytes", function () {
    const committed = readFileSync(CPI_CALLER_SO_PATH);
    expect(readFileSync(`${CPI_CALLER_SO_PATH}.sha256`, "utf8").split(/\s+/)[0]).to.equal(
      sha256Hex(committed),
    );
    skipWithoutClang(this);
    expect(sha256Hex(buildProgram(CPI_CALLER_SOURCE_DIR))).to.equal(sha256Hex(committed));
  });

  describe("calling the registry", () => {
    let fixture: Fixture;
    let caller: PublicKey;
    let holder: Keypair;
    before(async () => {
      fixture = await deployedRegistry();
      caller = await deployCpiCaller(fixture.provider);
    });
    beforeEach(() => {
      holder = fundedWallet(fixture);
    });

    /** Sends the registry call `call` builds through the caller, signed by the holder; returns the logs. */
    async function viaCaller(
      call: { instruction(): Promise<TransactionInstruction> },
      fillerLines = 0,
    ): Promise<string[]> {
      const provider = providerFor(fixture, holder);
      await provider.sendAndConfirm(
        new Transaction().add(throughCaller(caller, await call.instruction(), fillerLines)),
      );
      return provider.last?.logs ?? [];
    }

    /** Commits (directly), warps a slot, and returns the reveal for the caller to send. */
    async function committedReveal(name: string, ticker: string) {
      const call = reserveCall(fixture, holder, name, ticker);
      await call.commit.rpc();
      warpSlots(fixture);
      return call.reveal;
    }

    it("commits and reveals through a cross-program invocation: the registry runs at depth 2 and its events decode there", async () => {
      const commit = reserveCall(fixture, holder, "relay", "RELAY");
      await viaCaller(commit.commit);
      warpSlots(fixture);
      const logs = await viaCaller(commit.reveal);
      expect(logs[0]).to.equal(`Program ${caller.toBase58()} invoke [1]`);
      expect(logs[1]).to.equal(`Program ${fixture.programId.toBase58()} invoke [2]`);
      const keys = reservationKeys(fixture, holder.publicKey, "relay", "RELAY");
      const reservation = await fixture.program.account.reservation.fetch(keys.reservation);
      expect(reservation.launcher.toBase58()).to.equal(holder.publicKey.toBase58());
      expect(
        registryEventDecoder(fixture.programId.toBase58())(logs).map((event) => event.kind),
      ).to.deep.equal(["created"]);

      await advanceTo(fixture, START_TIME + BigInt(DAY - 3600));
      const renewed = await viaCaller(renewCall(fixture, holder, "relay", "RELAY"));
      expect(registryEventDecoder(fixture.programId.toBase58())(renewed)).to.deep.include({
        kind: "renewed",
        launcher: holder.publicKey.toBase58(),
        nameHash: `0x${Buffer.from(reservation.nameHash).toString("hex")}`,
        tickerHash: `0x${Buffer.from(reservation.tickerHash).toString("hex")}`,
        expiresAt: BigInt(reservation.expiresAt.toString()) + BigInt(DAY),
        feeLamports:
          BigInt((await fixture.program.account.reservation.fetch(keys.reservation)).feeLamports.toString()) -
          BigInt(reservation.feeLamports.toString()),
      });
    });

    it("with filler lines first, the runtime truncates the logs before the registry's event", async () => {
      const logs = await viaCaller(await committedReveal("muted", "MUTED"), TRUNCATING_FILLER_LINES);
      expect(logs).to.include("Log truncated");
      expect(registryEventDecoder(fixture.programId.toBase58())(logs)).to.deep.equal([]);
      const keys = reservationKeys(fixture, holder.publicKey, "muted", "MUTED");
      expect((await fixture.program.account.reservation.fetch(keys.reservation)).name).to.equal("MUTED");
    });
  });
});
