// What every RPC method handler receives, and the `{context, value}` wrapper validators use.
import type { SolanaChain } from "../chain";
import type { Commitment } from "../ledger";
import type { Config, Params } from "../params";
import { optionalNumber } from "../params";
import { RpcError, RpcErrorCode } from "../rpcError";

export type MethodHandler = (params: Params, chain: SolanaChain) => unknown;
export type MethodTable = Record<string, MethodHandler>;

export const API_VERSION = "4.3.0";

/** The slot a read at `commitment` is answered from; enforces `minContextSlot`. */
export function contextSlot(chain: SolanaChain, commitment: Commitment, config: Config): number {
  const slot = chain.ledger.blockAt(commitment).slot;
  const minContextSlot = optionalNumber(config, "minContextSlot");
  if (minContextSlot !== undefined && minContextSlot > slot) {
    throw new RpcError(RpcErrorCode.minContextSlotNotReached, "Minimum context slot has not been reached", {
      contextSlot: slot,
    });
  }
  return slot;
}

export function withContext<T>(
  slot: number,
  value: T,
): { context: { apiVersion: string; slot: number }; value: T } {
  return { context: { apiVersion: API_VERSION, slot }, value };
}
