// The parts of a stored wire transaction that the JSON encodings show.
import { VersionedTransaction } from "@solana/web3.js";
import { base58Encode } from "./base58";

export interface TransactionShape {
  signatures: string[];
  staticAccountKeys: string[];
  header: {
    numRequiredSignatures: number;
    numReadonlySignedAccounts: number;
    numReadonlyUnsignedAccounts: number;
  };
  recentBlockhash: string;
  instructions: { programIdIndex: number; accounts: number[]; data: Uint8Array }[];
  addressTableLookups: { accountKey: string; writableIndexes: number[]; readonlyIndexes: number[] }[];
  isWritable(index: number): boolean;
}

export function decodeTransactionShape(wire: Uint8Array): TransactionShape {
  const { message, signatures } = VersionedTransaction.deserialize(wire);
  return {
    signatures: signatures.map(base58Encode),
    staticAccountKeys: message.staticAccountKeys.map((key) => key.toBase58()),
    header: { ...message.header },
    recentBlockhash: message.recentBlockhash,
    instructions: message.compiledInstructions.map((instruction) => ({
      programIdIndex: instruction.programIdIndex,
      accounts: [...instruction.accountKeyIndexes],
      data: instruction.data,
    })),
    addressTableLookups: message.addressTableLookups.map((lookup) => ({
      accountKey: lookup.accountKey.toBase58(),
      writableIndexes: [...lookup.writableIndexes],
      readonlyIndexes: [...lookup.readonlyIndexes],
    })),
    isWritable: (index) => message.isAccountWritable(index),
  };
}
