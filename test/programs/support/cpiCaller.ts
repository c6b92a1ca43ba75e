// The test-only cpi_caller program (cpi_caller/src, built with scripts/sbf like the registry, its .so committed):
// it invokes another program through a cross-program invocation, forwarding the accounts and instruction data it
// is given, as a multisig or a launchpad calls the registry. Optionally it logs past the runtime's log limit first.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Provider } from "@coral-xyz/anchor";
import { Keypair, PublicKey, TransactionInstruction } from "@solana/web3.js";
import { deployProgram } from "../../../scripts/solana/deploy";

export const CPI_CALLER_SOURCE_DIR = join(__dirname, "cpi_caller", "src");
export const CPI_CALLER_SO_PATH = join(__dirname, "cpi_caller", "build", "cpi_caller.so");

/** Filler lines of 100 bytes that push what the callee logs past the runtime's 10,000-byte limit. */
export const TRUNCATING_FILLER_LINES = 120;

/** Deploys the committed cpi_caller.so under a fresh program id through the upgradeable loader. */
export async function deployCpiCaller(provider: Provider): Promise<PublicKey> {
  const deployed = await deployProgram(provider, {
    program: Keypair.generate(),
    bytes: readFileSync(CPI_CALLER_SO_PATH),
  });
  return new PublicKey(deployed.programId);
}

/**
 * `instruction` sent through the caller: the callee's program id first, then its accounts with their flags, and
 * its data after the number of filler lines the caller logs before invoking it.
 */
export function throughCaller(
  caller: PublicKey,
  instruction: TransactionInstruction,
  fillerLines = 0,
): TransactionInstruction {
  return new TransactionInstruction({
    programId: caller,
    keys: [{ pubkey: instruction.programId, isSigner: false, isWritable: false }, ...instruction.keys],
    data: Buffer.concat([Buffer.from([fillerLines]), instruction.data]),
  });
}
