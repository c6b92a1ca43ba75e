// The BPF upgradeable loader, for which @solana/web3.js 1.x has no helpers: its addresses, and the instructions
// (bincode: a u32 tag, then the arguments) that deploy a program from a buffer, as `solana program deploy` does.
import {
  PublicKey,
  SYSVAR_CLOCK_PUBKEY,
  SYSVAR_RENT_PUBKEY,
  SystemProgram,
  TransactionInstruction,
} from "@solana/web3.js";
import { concatBytes, u32, u64 } from "../onchainGuard/borsh";

export const BPF_LOADER_UPGRADEABLE = new PublicKey("BPFLoaderUpgradeab1e11111111111111111111111");
/** Bytes before the program in a buffer account: its tag and Option<authority>. */
export const BUFFER_HEADER_BYTES = 37;
/** A Program account: its tag and its ProgramData's address. */
export const PROGRAM_ACCOUNT_BYTES = 36;

type Meta = TransactionInstruction["keys"][number];
const meta = (pubkey: PublicKey, isSigner: boolean, isWritable: boolean): Meta => ({
  pubkey,
  isSigner,
  isWritable,
});

/** The program's ProgramData account ["programId"] under the upgradeable loader. */
export function programDataAddress(programId: PublicKey): PublicKey {
  return PublicKey.findProgramAddressSync([programId.toBytes()], BPF_LOADER_UPGRADEABLE)[0];
}

function loaderInstruction(keys: Meta[], tag: number, ...args: Uint8Array[]): TransactionInstruction {
  return new TransactionInstruction({
    programId: BPF_LOADER_UPGRADEABLE,
    keys,
    data: Buffer.from(concatBytes(u32(tag), ...args)),
  });
}

/** InitializeBuffer: `buffer` (created for the loader) is written only by `authority`. */
export function initializeBuffer(buffer: PublicKey, authority: PublicKey): TransactionInstruction {
  return loaderInstruction([meta(buffer, false, true), meta(authority, false, false)], 0);
}

/** Write: `bytes` at `offset` of the program in `buffer`. */
export function writeBuffer(
  buffer: PublicKey,
  authority: PublicKey,
  offset: number,
  bytes: Uint8Array,
): TransactionInstruction {
  const keys = [meta(buffer, false, true), meta(authority, true, false)];
  return loaderInstruction(keys, 1, u32(offset), u64(BigInt(bytes.length)), bytes);
}

/** DeployWithMaxDataLen: `program` (created for the loader) runs `buffer`'s ELF, upgradeable by `authority`. */
export function deployWithMaxDataLen(
  payer: PublicKey,
  program: PublicKey,
  buffer: PublicKey,
  authority: PublicKey,
  maxDataLength: number,
): TransactionInstruction {
  const keys = [
    meta(payer, true, true),
    meta(programDataAddress(program), false, true),
    meta(program, false, true),
    meta(buffer, false, true),
    meta(SYSVAR_RENT_PUBKEY, false, false),
    meta(SYSVAR_CLOCK_PUBKEY, false, false),
    meta(SystemProgram.programId, false, false),
    meta(authority, true, false),
  ];
  return loaderInstruction(keys, 2, u64(BigInt(maxDataLength)));
}
