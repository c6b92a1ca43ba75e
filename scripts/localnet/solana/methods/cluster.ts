// Slots, blocks, blockhashes and node information.
import { VersionedMessage } from "@solana/web3.js";
import type { SolanaChain } from "../chain";
import { BLOCKHASH_VALIDITY_BLOCKS } from "../ledger";
import { commitmentOf, configParam, stringParam } from "../params";
import { invalidParams, RpcError, RpcErrorCode } from "../rpcError";
import { transactionEncodingOf, transactionWithMeta } from "../transactionJson";
import { decodeTransaction } from "../wireTransaction";
import { API_VERSION, contextSlot, type MethodTable, withContext } from "./context";

const SLOTS_PER_EPOCH = 432_000;
const MAX_BLOCK_RANGE = 500_000;

function slotParam(params: unknown[], index: number): number {
  const slot = params[index];
  if (typeof slot !== "number" || !Number.isInteger(slot) || slot < 0) {
    throw invalidParams(`Invalid params: expected a slot number at position ${index}`);
  }
  return slot;
}

/** The block at `slot`, or the error a validator gives for a skipped or not-yet-produced slot. */
function producedBlock(chain: SolanaChain, slot: number, commitment: "confirmed" | "finalized") {
  const block = chain.ledger.block(slot);
  if (block && slot <= chain.ledger.blockAt(commitment).slot) return block;
  if (slot > chain.ledger.blockAt(commitment).slot) {
    throw new RpcError(RpcErrorCode.blockNotAvailable, `Block not available for slot ${slot}`);
  }
  throw new RpcError(
    RpcErrorCode.longTermStorageSlotSkipped,
    `Slot ${slot} was skipped, or missing in long-term storage`,
  );
}

export const clusterMethods: MethodTable = {
  getSlot(params, chain) {
    const config = configParam(params, 0);
    return contextSlot(chain, commitmentOf(config), config);
  },

  getBlockHeight(params, chain) {
    const config = configParam(params, 0);
    contextSlot(chain, commitmentOf(config), config);
    return chain.ledger.blockAt(commitmentOf(config)).blockHeight;
  },

  getLatestBlockhash(params, chain) {
    const config = configParam(params, 0);
    const block = chain.ledger.blockAt(commitmentOf(config));
    return withContext(contextSlot(chain, commitmentOf(config), config), {
      blockhash: block.blockhash,
      lastValidBlockHeight: block.blockHeight + BLOCKHASH_VALIDITY_BLOCKS,
    });
  },

  isBlockhashValid(params, chain) {
    const blockhash = stringParam(params, 0, "a blockhash");
    const config = configParam(params, 1);
    return withContext(
      contextSlot(chain, commitmentOf(config), config),
      chain.ledger.isBlockhashValid(blockhash),
    );
  },

  getEpochInfo(params, chain) {
    const config = configParam(params, 0);
    const block = chain.ledger.blockAt(commitmentOf(config));
    return {
      absoluteSlot: block.slot,
      blockHeight: block.blockHeight,
      epoch: Math.floor(block.slot / SLOTS_PER_EPOCH),
      slotIndex: block.slot % SLOTS_PER_EPOCH,
      slotsInEpoch: SLOTS_PER_EPOCH,
      transactionCount: chain.ledger.transactionCount,
    };
  },

  getEpochSchedule() {
    return {
      firstNormalEpoch: 0,
      firstNormalSlot: 0,
      leaderScheduleSlotOffset: SLOTS_PER_EPOCH,
      slotsPerEpoch: SLOTS_PER_EPOCH,
      warmup: false,
    };
  },

  getTransactionCount(_params, chain) {
    return chain.ledger.transactionCount;
  },

  getBlockTime(params, chain) {
    const block = producedBlock(chain, slotParam(params, 0), "finalized");
    return chain.faults.nullBlockTime ? null : block.blockTime;
  },

  getBlocks(params, chain) {
    const start = slotParam(params, 0);
    const config = typeof params[1] === "object" ? configParam(params, 1) : configParam(params, 2);
    const commitment = commitmentOf(config, "confirmed");
    const end = typeof params[1] === "number" ? slotParam(params, 1) : chain.ledger.blockAt(commitment).slot;
    if (end - start > MAX_BLOCK_RANGE) throw invalidParams(`Slot range too large; max ${MAX_BLOCK_RANGE}`);
    return chain.ledger.blockSlots(start, Math.min(end, chain.ledger.blockAt(commitment).slot));
  },

  getBlock(params, chain) {
    const slot = slotParam(params, 0);
    const config = typeof params[1] === "string" ? { encoding: params[1] } : configParam(params, 1);
    const block = producedBlock(chain, slot, commitmentOf(config, "confirmed") as "confirmed" | "finalized");
    const details = config.transactionDetails ?? "full";
    if (details !== "full" && details !== "signatures" && details !== "none") {
      throw invalidParams(
        `transactionDetails "${String(details)}" is not served by the local node; use full, signatures or none`,
      );
    }
    const records = block.signatures
      .map((signature) => chain.ledger.transaction(signature))
      .filter((r) => r !== undefined);
    const encoding = transactionEncodingOf(config.encoding);
    return {
      blockhash: block.blockhash,
      previousBlockhash: block.previousBlockhash,
      parentSlot: block.parentSlot,
      blockHeight: block.blockHeight,
      blockTime: chain.faults.nullBlockTime ? null : block.blockTime,
      ...(details === "full"
        ? {
            transactions: records.map((r) =>
              transactionWithMeta(r, encoding, config.maxSupportedTransactionVersion),
            ),
          }
        : {}),
      ...(details === "signatures" ? { signatures: block.signatures } : {}),
      ...(config.rewards === false ? {} : { rewards: [] }),
    };
  },

  getFirstAvailableBlock() {
    return 0;
  },

  minimumLedgerSlot() {
    return 0;
  },

  getFeeForMessage(params, chain) {
    const config = configParam(params, 1);
    const slot = contextSlot(chain, commitmentOf(config), config);
    const message = VersionedMessage.deserialize(
      Buffer.from(stringParam(params, 0, "a base64 message"), "base64"),
    );
    if (!chain.ledger.isBlockhashValid(message.recentBlockhash)) return withContext(slot, null);
    // Fee rules live with transaction decoding; wrap the message in an unsigned transaction shell.
    const signatureCount = message.header.numRequiredSignatures;
    const wire = Buffer.concat([
      Buffer.from([signatureCount]),
      Buffer.alloc(64 * signatureCount),
      message.serialize(),
    ]);
    return withContext(slot, decodeTransaction(chain.svm, wire).fee);
  },

  getRecentPrioritizationFees() {
    return [];
  },

  getVersion() {
    return { "solana-core": API_VERSION, "feature-set": 0 };
  },

  getHealth() {
    return "ok";
  },

  getGenesisHash(_params, chain) {
    return chain.ledger.block(0)?.blockhash;
  },

  getIdentity(_params, chain) {
    return { identity: chain.identity };
  },
};
