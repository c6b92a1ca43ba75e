// Decoding of wire transactions: what the server needs to know about a transaction before and
// after litesvm runs it (signature, version, resolved account keys, fee, signature validity).
import { createPublicKey, verify } from "node:crypto";
import { PublicKey, VersionedTransaction } from "@solana/web3.js";
import type { LiteSVM } from "litesvm";
import { ServiceError } from "../../../core/errors/serviceError";
import { base58Decode, base58Encode } from "./base58";
import { RpcError, RpcErrorCode } from "./rpcError";

const ADDRESS_LOOKUP_TABLE_PROGRAM = "AddressLookupTab1e1111111111111111111111111";
const COMPUTE_BUDGET_PROGRAM = "ComputeBudget111111111111111111111111111111";
const LAMPORTS_PER_SIGNATURE = 5000;
const LOOKUP_TABLE_HEADER_BYTES = 56;
const DEFAULT_UNITS_PER_INSTRUCTION = 200_000;
const MAX_COMPUTE_UNITS = 1_400_000;
const ED25519_SPKI_PREFIX = Buffer.from("302a300506032b6570032100", "hex");

/** A transaction error raised before execution (the JSON form of Agave's `TransactionError`). */
export class TransactionRejected extends ServiceError {
  constructor(readonly err: string) {
    super(err);
  }
}

export interface DecodedTransaction {
  wire: Uint8Array;
  transaction: VersionedTransaction;
  signature: string;
  version: "legacy" | 0;
  accountKeys: string[];
  loadedAddresses: { writable: string[]; readonly: string[] };
  fee: number;
}

/** The shape litesvm's `sendTransaction`/`simulateTransaction` take (a @solana/kit Transaction). */
type KitTransaction = Parameters<LiteSVM["sendTransaction"]>[0];

export function decodeWire(encoded: string, encoding: string): Uint8Array {
  if (encoding === "base64") return Buffer.from(encoded, "base64");
  if (encoding === "base58") return base58Decode(encoded);
  throw new RpcError(
    RpcErrorCode.invalidParams,
    `unsupported encoding: ${encoding}. Supported encodings: base58, base64`,
  );
}

function lookupTableAddresses(svm: LiteSVM, table: string): string[] {
  const account = svm.getAccount(table as Parameters<LiteSVM["getAccount"]>[0]);
  if (!account.exists) throw new TransactionRejected("AddressLookupTableNotFound");
  if (account.programAddress !== ADDRESS_LOOKUP_TABLE_PROGRAM) {
    throw new TransactionRejected("InvalidAddressLookupTableOwner");
  }
  const addresses: string[] = [];
  for (let offset = LOOKUP_TABLE_HEADER_BYTES; offset + 32 <= account.data.length; offset += 32) {
    addresses.push(new PublicKey(account.data.subarray(offset, offset + 32)).toBase58());
  }
  return addresses;
}

function resolveLookups(
  svm: LiteSVM,
  transaction: VersionedTransaction,
): DecodedTransaction["loadedAddresses"] {
  const loaded = { writable: [] as string[], readonly: [] as string[] };
  for (const lookup of transaction.message.addressTableLookups) {
    const addresses = lookupTableAddresses(svm, lookup.accountKey.toBase58());
    const pick = (index: number): string => {
      const address = addresses[index];
      if (address === undefined) throw new TransactionRejected("InvalidAddressLookupTableIndex");
      return address;
    };
    loaded.writable.push(...lookup.writableIndexes.map(pick));
    loaded.readonly.push(...lookup.readonlyIndexes.map(pick));
  }
  return loaded;
}

/**
 * Runtime builtins: without a SetComputeUnitLimit each of their instructions reserves 3,000 units,
 * any other program's 200,000 (Agave's default, measured against litesvm's charges).
 */
const BUILTIN_PROGRAMS = new Set([
  "11111111111111111111111111111111",
  COMPUTE_BUDGET_PROGRAM,
  "Vote111111111111111111111111111111111111111",
  "BPFLoader1111111111111111111111111111111111",
  "BPFLoader2111111111111111111111111111111111",
  "BPFLoaderUpgradeab1e11111111111111111111111",
  "LoaderV411111111111111111111111111111111111",
]);
const BUILTIN_UNITS_PER_INSTRUCTION = 3_000;

/** Base fee plus the priority fee set through Compute Budget instructions. */
function transactionFee(transaction: VersionedTransaction, accountKeys: string[]): number {
  let microLamportsPerUnit = 0n;
  let unitLimit: number | undefined;
  let defaultUnits = 0;
  for (const instruction of transaction.message.compiledInstructions) {
    const program = accountKeys[instruction.programIdIndex] as string;
    defaultUnits += BUILTIN_PROGRAMS.has(program)
      ? BUILTIN_UNITS_PER_INSTRUCTION
      : DEFAULT_UNITS_PER_INSTRUCTION;
    if (program !== COMPUTE_BUDGET_PROGRAM) continue;
    const data = Buffer.from(instruction.data);
    if (data[0] === 2 && data.length >= 5) unitLimit = data.readUInt32LE(1);
    if (data[0] === 3 && data.length >= 9) microLamportsPerUnit = data.readBigUInt64LE(1);
  }
  const units = BigInt(Math.min(unitLimit ?? defaultUnits, MAX_COMPUTE_UNITS));
  const priority = (microLamportsPerUnit * units + 999_999n) / 1_000_000n;
  return transaction.message.header.numRequiredSignatures * LAMPORTS_PER_SIGNATURE + Number(priority);
}

export function decodeTransaction(svm: LiteSVM, wire: Uint8Array): DecodedTransaction {
  let transaction: VersionedTransaction;
  try {
    transaction = VersionedTransaction.deserialize(wire);
  } catch (error) {
    throw new RpcError(
      RpcErrorCode.invalidParams,
      `failed to deserialize solana_transaction::versioned::VersionedTransaction: ${(error as Error).message}`,
    );
  }
  const version = transaction.message.version;
  if (version !== "legacy" && version !== 0) {
    throw new RpcError(RpcErrorCode.invalidParams, `unsupported transaction version ${version}`);
  }
  const staticKeys = transaction.message.staticAccountKeys.map((key) => key.toBase58());
  const loadedAddresses = resolveLookups(svm, transaction);
  const accountKeys = [...staticKeys, ...loadedAddresses.writable, ...loadedAddresses.readonly];
  const firstSignature = transaction.signatures[0] ?? new Uint8Array(64);
  return {
    wire,
    transaction,
    signature: base58Encode(firstSignature),
    version,
    accountKeys,
    loadedAddresses,
    fee: transactionFee(transaction, accountKeys),
  };
}

/** Whether every required signature verifies over the message bytes. */
export function signaturesVerify(decoded: DecodedTransaction): boolean {
  const message = decoded.transaction.message.serialize();
  const signers = decoded.transaction.message.header.numRequiredSignatures;
  for (let index = 0; index < signers; index++) {
    const signature = decoded.transaction.signatures[index];
    const signer = decoded.transaction.message.staticAccountKeys[index];
    if (!signature || !signer) return false;
    const key = createPublicKey({
      key: Buffer.concat([ED25519_SPKI_PREFIX, signer.toBuffer()]),
      format: "der",
      type: "spki",
    });
    if (!verify(null, message, key, signature)) return false;
  }
  return true;
}

/** The same transaction in the @solana/kit shape that litesvm's API takes. */
export function toKitTransaction(decoded: DecodedTransaction): KitTransaction {
  const signers = decoded.transaction.message.header.numRequiredSignatures;
  const signatures: Record<string, Uint8Array | null> = {};
  for (let index = 0; index < signers; index++) {
    const signature = decoded.transaction.signatures[index];
    const signed = signature?.some((byte) => byte !== 0);
    signatures[decoded.accountKeys[index] as string] = signed ? (signature as Uint8Array) : null;
  }
  return {
    messageBytes: decoded.transaction.message.serialize(),
    signatures,
  } as unknown as KitTransaction;
}
