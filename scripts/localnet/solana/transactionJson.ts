// Transactions as getTransaction / getBlock return them (json, jsonParsed, base64, base58).
import { base58Encode } from "./base58";
import type { TransactionRecord } from "./ledger";
import { invalidParams, RpcError, RpcErrorCode } from "./rpcError";
import { decodeTransactionShape } from "./wireShape";

export type TransactionEncoding = "json" | "jsonParsed" | "base64" | "base58";

export function transactionEncodingOf(value: unknown): TransactionEncoding {
  const encoding = value ?? "json";
  if (encoding === "json" || encoding === "jsonParsed" || encoding === "base64" || encoding === "base58")
    return encoding;
  throw invalidParams(`Unsupported encoding "${String(encoding)}": use json, jsonParsed, base64 or base58`);
}

/** -32015 unless the client said it understands the transaction's version, as validators do. */
export function assertVersionSupported(record: TransactionRecord, maxSupportedVersion: unknown): void {
  if (record.version === "legacy") return;
  if (typeof maxSupportedVersion === "number" && maxSupportedVersion >= record.version) return;
  throw new RpcError(
    RpcErrorCode.unsupportedTransactionVersion,
    `Transaction version (${record.version}) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": ${record.version}`,
  );
}

function messageJson(record: TransactionRecord, parsed: boolean) {
  const shape = decodeTransactionShape(record.wire);
  const staticCount = shape.staticAccountKeys.length;
  const keyAt = (index: number) => record.accountKeys[index] as string;
  const instructions = shape.instructions.map((instruction) =>
    parsed
      ? {
          programId: keyAt(instruction.programIdIndex),
          accounts: instruction.accounts.map(keyAt),
          data: base58Encode(instruction.data),
          stackHeight: null,
        }
      : {
          programIdIndex: instruction.programIdIndex,
          accounts: instruction.accounts,
          data: base58Encode(instruction.data),
          stackHeight: null,
        },
  );
  const accountKeys = parsed
    ? record.accountKeys.map((pubkey, index) => ({
        pubkey,
        signer: index < shape.header.numRequiredSignatures,
        writable: shape.isWritable(index),
        source: index < staticCount ? "transaction" : "lookupTable",
      }))
    : shape.staticAccountKeys;
  return {
    signatures: shape.signatures,
    message: {
      accountKeys,
      header: shape.header,
      recentBlockhash: shape.recentBlockhash,
      instructions,
      ...(record.version === 0 ? { addressTableLookups: shape.addressTableLookups } : {}),
    },
  };
}

function metaJson(record: TransactionRecord, parsed: boolean) {
  const keyAt = (index: number) => record.accountKeys[index] as string;
  const innerInstructions = parsed
    ? record.innerInstructions.map((entry) => ({
        index: entry.index,
        instructions: entry.instructions.map((inner) => ({
          programId: keyAt(inner.programIdIndex),
          accounts: inner.accounts.map(keyAt),
          data: inner.data,
          stackHeight: inner.stackHeight,
        })),
      }))
    : record.innerInstructions;
  return {
    err: record.err,
    status: record.err === null ? { Ok: null } : { Err: record.err },
    fee: record.fee,
    preBalances: record.preBalances,
    postBalances: record.postBalances,
    innerInstructions,
    logMessages: record.logMessages,
    preTokenBalances: [],
    postTokenBalances: [],
    rewards: [],
    loadedAddresses: record.loadedAddresses,
    computeUnitsConsumed: record.computeUnitsConsumed,
    ...(record.returnData ? { returnData: record.returnData } : {}),
  };
}

export function encodedTransaction(record: TransactionRecord, encoding: TransactionEncoding) {
  if (encoding === "base64") return [Buffer.from(record.wire).toString("base64"), "base64"];
  if (encoding === "base58") return [base58Encode(record.wire), "base58"];
  return messageJson(record, encoding === "jsonParsed");
}

/** One transaction with its meta, as inside getTransaction and getBlock answers. */
export function transactionWithMeta(
  record: TransactionRecord,
  encoding: TransactionEncoding,
  maxSupportedVersion: unknown,
) {
  assertVersionSupported(record, maxSupportedVersion);
  return {
    transaction: encodedTransaction(record, encoding),
    meta: metaJson(record, encoding === "jsonParsed"),
    ...(maxSupportedVersion === undefined || maxSupportedVersion === null ? {} : { version: record.version }),
  };
}
