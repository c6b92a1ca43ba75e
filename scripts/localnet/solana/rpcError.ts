// JSON-RPC errors with the codes an Agave validator uses, so clients take the same error paths locally.
import { ServiceError } from "../../../core/errors/serviceError";
export const RpcErrorCode = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  blockCleanedUp: -32001,
  sendTransactionPreflightFailure: -32002,
  transactionSignatureVerificationFailure: -32003,
  blockNotAvailable: -32004,
  slotSkipped: -32007,
  longTermStorageSlotSkipped: -32009,
  minContextSlotNotReached: -32016,
  unsupportedTransactionVersion: -32015,
} as const;

export class RpcError extends ServiceError {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export function invalidParams(message: string): RpcError {
  return new RpcError(RpcErrorCode.invalidParams, message);
}
