// A copycat's launch: what a launcher who skips the SDK's checks sends for an `onchain` answer (a block, an
// expired decision, someone else's). For tests that prove the launch program itself refuses it.

import { PublicKey, type TransactionInstruction } from "@solana/web3.js";
import { Buffer } from "buffer";
import type { SolanaOnchainDecision } from "../../../core/decision/onchain/answer";
import { launchInstructionsOf } from "../onchainGuard/solana";

/** The Ed25519 verification of the answer's own message and signature, then `launch`, with no check at all. */
export function uncheckedLaunchInstructions(
  onchain: SolanaOnchainDecision,
  launch: { name: string; ticker: string; launcher: PublicKey; mint: PublicKey },
): [TransactionInstruction, TransactionInstruction] {
  const signed = {
    signer: new PublicKey(onchain.signer).toBytes(),
    signature: Buffer.from(onchain.signature, "base64"),
    message: Buffer.from(onchain.message, "base64"),
  };
  return launchInstructionsOf(onchain, signed, {
    ...launch,
    launchpadProgram: new PublicKey(onchain.launchpadProgram),
  });
}
