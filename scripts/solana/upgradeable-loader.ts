// Instructions of the BPF Upgradeable Loader (bincode-encoded `UpgradeableLoaderInstruction`), which
// @solana/web3.js 1.x does not ship. Deploying through it applies the cluster's strict ELF checks.
import {
  PublicKey,
  SYSVAR_CLOCK_PUBKEY,
  SYSVAR_RENT_PUBKEY,
  SystemProgram,
  TransactionInstruction,
} from "@solana/web3.js";

export const BPF_LOADER_UPGRADEABLE_ID = new PublicKey("BPFLoaderUpgradeab1e11111111111111111111111");

/** Bytes before the program bytes in a buffer account (enum tag + Option<authority>). */
export const BUFFER_METADATA_SIZE = 37;
/** Bytes before the program bytes in a program-data account (tag + slot + Option<authority>). */
export const PROGRAM_DATA_METADATA_SIZE = 45;
/** Size of the program account itself (tag + program-data address). */
export const PROGRAM_ACCOUNT_SIZE = 36;

enum LoaderInstruction {
  InitializeBuffer = 0,
  Write = 1,
  DeployWithMaxDataLen = 2,
}

export function programDataAddress(programId: PublicKey): PublicKey {
  return PublicKey.findProgramAddressSync([programId.toBuffer()], BPF_LOADER_UPGRADEABLE_ID)[0];
}

export function initializeBufferInstruction(buffer: PublicKey, authority: PublicKey): TransactionInstruction {
  const data = Buffer.alloc(4);
  data.writeUInt32LE(LoaderInstruction.InitializeBuffer, 0);
  return new TransactionInstruction({
    programId: BPF_LOADER_UPGRADEABLE_ID,
    keys: [
      { pubkey: buffer, isSigner: false, isWritable: true },
      { pubkey: authority, isSigner: false, isWritable: false },
    ],
    data,
  });
}

export function writeInstruction(
  buffer: PublicKey,
  authority: PublicKey,
  offset: number,
  bytes: Uint8Array,
): TransactionInstruction {
  const data = Buffer.alloc(16 + bytes.length);
  data.writeUInt32LE(LoaderInstruction.Write, 0);
  data.writeUInt32LE(offset, 4);
  data.writeBigUInt64LE(BigInt(bytes.length), 8);
  data.set(bytes, 16);
  return new TransactionInstruction({
    programId: BPF_LOADER_UPGRADEABLE_ID,
    keys: [
      { pubkey: buffer, isSigner: false, isWritable: true },
      { pubkey: authority, isSigner: true, isWritable: false },
    ],
    data,
  });
}

export function deployWithMaxDataLenInstruction(accounts: {
  payer: PublicKey;
  programId: PublicKey;
  buffer: PublicKey;
  authority: PublicKey;
  maxDataLen: number;
}): TransactionInstruction {
  const data = Buffer.alloc(12);
  data.writeUInt32LE(LoaderInstruction.DeployWithMaxDataLen, 0);
  data.writeBigUInt64LE(BigInt(accounts.maxDataLen), 4);
  return new TransactionInstruction({
    programId: BPF_LOADER_UPGRADEABLE_ID,
    keys: [
      { pubkey: accounts.payer, isSigner: true, isWritable: true },
      { pubkey: programDataAddress(accounts.programId), isSigner: false, isWritable: true },
      { pubkey: accounts.programId, isSigner: false, isWritable: true },
      { pubkey: accounts.buffer, isSigner: false, isWritable: true },
      { pubkey: SYSVAR_RENT_PUBKEY, isSigner: false, isWritable: false },
      { pubkey: SYSVAR_CLOCK_PUBKEY, isSigner: false, isWritable: false },
      { pubkey: SystemProgram.programId, isSigner: false, isWritable: false },
      { pubkey: accounts.authority, isSigner: true, isWritable: false },
    ],
    data,
  });
}
