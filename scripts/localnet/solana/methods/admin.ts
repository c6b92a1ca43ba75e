// Control methods of the local node (not part of Solana's RPC): fault plans, time travel and
// block production (which works even while the timer is frozen), so tests in other processes can drive the chain over the same socket.
import type { FaultPlan } from "../faults";
import { configParam } from "../params";
import { invalidParams } from "../rpcError";
import type { MethodTable } from "./context";

const MAX_BLOCKS_PER_CALL = 10_000;

export const adminMethods: MethodTable = {
  localnet_setFaults(params, chain) {
    chain.setFaults(configParam(params, 0) as FaultPlan);
    return chain.faults.current;
  },

  localnet_getFaults(_params, chain) {
    return chain.faults.current;
  },

  localnet_warpTime(params, chain) {
    const seconds = params[0];
    if (typeof seconds !== "number" || !Number.isInteger(seconds) || seconds < 0) {
      throw invalidParams("localnet_warpTime takes a non-negative number of seconds");
    }
    chain.warpTime(seconds);
    return chain.now();
  },

  localnet_produceBlocks(params, chain) {
    const count = params[0] ?? 1;
    if (typeof count !== "number" || !Number.isInteger(count) || count < 1 || count > MAX_BLOCKS_PER_CALL) {
      throw invalidParams(`localnet_produceBlocks takes a block count from 1 to ${MAX_BLOCKS_PER_CALL}`);
    }
    for (let i = 0; i < count; i++) chain.produceBlock();
    return chain.ledger.head.slot;
  },
};
