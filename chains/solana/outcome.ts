// What a signature status says about a transaction, in the registry client's terms: final at `confirmed`
// (a supermajority voted on its block), with the program's error named from the IDL when it failed.
import { utils } from "@coral-xyz/anchor";
import type { SignatureStatus, TransactionError } from "@solana/web3.js";
import type { TransactionOutcome } from "../registryClient";
import { programError } from "./idl";

const SIGNATURE_BYTES = 64;

/** Whether `value` is a base58 transaction signature (64 bytes). */
export function isSignature(value: string): boolean {
  try {
    return utils.bytes.bs58.decode(value).length === SIGNATURE_BYTES;
  } catch {
    return false;
  }
}

/** `InstructionError: [i, { Custom: n }]` names the program error; any other error is shown as JSON. */
export function describeTransactionError(error: TransactionError): string {
  const instructionError = (error as { InstructionError?: [number, unknown] }).InstructionError;
  if (instructionError) {
    const [index, detail] = instructionError;
    const custom = (detail as { Custom?: number } | null)?.Custom;
    const known = typeof custom === "number" ? programError(custom) : null;
    if (known) return `instruction ${index} failed with ${known.name} (${custom}): ${known.message}`;
    return `instruction ${index} failed: ${JSON.stringify(detail)}`;
  }
  return `transaction failed: ${JSON.stringify(error)}`;
}

export function outcomeOfStatus(status: SignatureStatus | null): TransactionOutcome {
  if (status === null) return { state: "not_found" };
  // Nodes that predate confirmationStatus mark a finalized status with `confirmations: null`.
  const final =
    status.confirmationStatus === "confirmed" ||
    status.confirmationStatus === "finalized" ||
    (status.confirmationStatus === undefined && status.confirmations === null);
  if (!final) return { state: "pending" };
  if (status.err)
    return { state: "failed", blockNumber: status.slot, error: describeTransactionError(status.err) };
  return { state: "succeeded", blockNumber: status.slot };
}
