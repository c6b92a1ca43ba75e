// core's Solana launch decision against the real verifier: programs/guarded_launchpad (the committed .so) beside the
// registry in litesvm. A message built by solanaLaunchDecisionMessage from the service's own forms (base58 keys, 0x
// hashes from core/fold, a Date) and signed with node:crypto Ed25519 is the decision the program launches with.
import { randomBytes } from "node:crypto";
import { Ed25519Program, type Keypair, PublicKey, type TransactionInstruction } from "@solana/web3.js";
import { expect } from "chai";
import { toHex } from "viem";
import { type SolanaLaunchDecisionFields, solanaLaunchDecisionMessage } from "../../../core/decision/onchain";
import { foldedHash, foldV1 } from "../../../core/fold";
import { expectProgramError } from "../../programs/support/errors";
import { fundedWallet, START_TIME, sendInstructions } from "../../programs/support/fixture";
import {
  deployedLaunchpad,
  type LaunchPlan,
  type LaunchpadFixture,
  launchInstruction,
  planLaunch,
  signEd25519,
} from "../../programs/support/launchpad";

/** The genesis hashes as `solana genesis-hash` prints them; the test launchpads are configured for mainnet-beta. */
const MAINNET_GENESIS = "5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d";
const DEVNET_GENESIS = "EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG";
const PAIR = { name: "Doge Coin", ticker: "DOGE" };

describe("core/decision/onchain: the Solana decision against guarded_launchpad (litesvm)", () => {
  let fixture: LaunchpadFixture;
  let launcher: Keypair;

  beforeEach(async () => {
    fixture = await deployedLaunchpad();
    launcher = fundedWallet(fixture);
  });

  /** The decision for `launch` in the forms the service holds: base58 text, 0x hex, a Date. */
  function serviceFields(launch: LaunchPlan): SolanaLaunchDecisionFields {
    return {
      cluster: MAINNET_GENESIS,
      registryProgram: fixture.programId.toBase58(),
      launchpadProgram: fixture.launchpad.programId.toBase58(),
      nameHash: foldedHash(foldV1(launch.name)),
      tickerHash: foldedHash(foldV1(launch.ticker)),
      launcher: launch.launcher.publicKey.toBase58(),
      mint: launch.mint.publicKey.toBase58(),
      decision: "allow",
      // A Date within the expiry second encodes that second.
      expiresAt: new Date(Number(launch.expiresAt) * 1000 + 999),
      nonce: toHex(launch.nonce),
    };
  }

  /** The Ed25519 instruction over core's message, signed by the trusted key with node:crypto, and the launch. */
  async function launchWith(launch: LaunchPlan, fields: SolanaLaunchDecisionFields): Promise<string> {
    const message = solanaLaunchDecisionMessage(fields);
    const instructions: TransactionInstruction[] = [
      Ed25519Program.createInstructionWithPublicKey({
        publicKey: fixture.decisionKey.publicKey.toBytes(),
        message,
        signature: signEd25519(fixture.decisionKey, message),
      }),
      await launchInstruction(fixture.launchpad, fixture.programId, launch),
    ];
    return sendInstructions(fixture, instructions, [launch.launcher, launch.mint]);
  }

  const plan = () => planLaunch(fixture.launchpad, fixture.programId, launcher, PAIR, START_TIME + 600n);

  it("a message built by solanaLaunchDecisionMessage and signed with node:crypto launches: the record names the launcher and the signer", async () => {
    const launch = plan();
    const fields = serviceFields(launch);
    // The same bytes as the test suite's own plan (PublicKeys, raw hashes, bigint expiry).
    expect(Buffer.from(solanaLaunchDecisionMessage(fields)).toString("hex")).to.equal(
      Buffer.from(solanaLaunchDecisionMessage(launch.fields)).toString("hex"),
    );
    await launchWith(launch, fields);
    const record = await fixture.launchpad.account.launch.fetch(launch.mint.publicKey);
    expect(record.launcher.toBase58()).to.equal(launcher.publicKey.toBase58());
    expect(record.decisionSigner.toBase58()).to.equal(fixture.decisionKey.publicKey.toBase58());
    expect(toHex(Uint8Array.from(record.nameHash))).to.equal(fields.nameHash);
    expect(toHex(Uint8Array.from(record.tickerHash))).to.equal(fields.tickerHash);
    expect(BigInt(record.launchedAt.toString())).to.equal(START_TIME);
  });

  it("the program refuses core's message for a block (DecisionBlocked) and for another cluster, mint or expiry second (DecisionMismatch)", async () => {
    const refusals: [Partial<SolanaLaunchDecisionFields>, string][] = [
      [{ decision: "block" }, "DecisionBlocked"],
      [{ cluster: DEVNET_GENESIS }, "DecisionMismatch"],
      [{ mint: new PublicKey(randomBytes(32)).toBase58() }, "DecisionMismatch"],
      [{ expiresAt: Number(START_TIME) + 601 }, "DecisionMismatch"],
    ];
    for (const [override, code] of refusals) {
      const launch = plan();
      const error = await expectProgramError(
        launchWith(launch, { ...serviceFields(launch), ...override }),
        code,
      );
      expect(error.program.toBase58()).to.equal(fixture.launchpad.programId.toBase58());
    }
    const launch = plan();
    await launchWith(launch, serviceFields(launch));
  });
});
