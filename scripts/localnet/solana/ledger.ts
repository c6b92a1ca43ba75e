// The chain history litesvm does not keep: blocks with their hashes and times, every landed
// transaction, a per-address signature index and the commitment levels. litesvm holds account state.
import { createHash, randomBytes } from "node:crypto";
import { PublicKey } from "@solana/web3.js";
import type { TransactionErrorJson } from "./transactionError";

export type Commitment = "processed" | "confirmed" | "finalized";

export interface BlockRecord {
  slot: number;
  parentSlot: number;
  blockHeight: number;
  blockhash: string;
  previousBlockhash: string;
  blockTime: number;
  signatures: string[];
}

export interface InnerInstructionJson {
  index: number;
  instructions: { programIdIndex: number; accounts: number[]; data: string; stackHeight: number }[];
}

export interface TransactionRecord {
  signature: string;
  slot: number;
  /** Serialized transaction exactly as sent. */
  wire: Uint8Array;
  version: "legacy" | 0;
  /** Static keys followed by lookup-table writable and readonly keys. */
  accountKeys: string[];
  loadedAddresses: { writable: string[]; readonly: string[] };
  err: TransactionErrorJson | null;
  fee: number;
  preBalances: number[];
  postBalances: number[];
  logMessages: string[];
  innerInstructions: InnerInstructionJson[];
  computeUnitsConsumed: number;
  returnData: { programId: string; data: [string, "base64"] } | null;
}

export interface CommitmentLag {
  /** Blocks between the newest (processed) block and the confirmed one. */
  confirmed: number;
  /** Blocks between the newest block and the finalized one. */
  finalized: number;
}

/** Recent blockhashes stay valid for this many blocks, as on a cluster. */
export const BLOCKHASH_VALIDITY_BLOCKS = 150;

function nextBlockhash(previous: string, slot: number): string {
  const digest = createHash("sha256").update(previous).update(String(slot)).digest();
  return new PublicKey(digest).toBase58();
}

export class Ledger {
  private readonly blocks: BlockRecord[] = [];
  private readonly blockBySlot = new Map<number, BlockRecord>();
  private readonly heightByBlockhash = new Map<string, number>();
  private readonly transactions = new Map<string, TransactionRecord>();
  private readonly signaturesByAddress = new Map<string, string[]>();
  lag: CommitmentLag = { confirmed: 0, finalized: 0 };
  /** Blocks the node answering the current request trails by (faults.ts, `laggingReplicaBlocks`). */
  private replicaLag = 0;

  constructor(genesisTime: number) {
    const genesis: BlockRecord = {
      slot: 0,
      parentSlot: 0,
      blockHeight: 0,
      // Every chain gets its own genesis, as a fresh validator ledger does: clients such as the
      // indexer tell a restarted local chain from the one they had read by its genesis hash.
      blockhash: nextBlockhash(randomBytes(32).toString("hex"), 0),
      previousBlockhash: "11111111111111111111111111111111",
      blockTime: genesisTime,
      signatures: [],
    };
    this.append(genesis);
  }

  private append(block: BlockRecord): void {
    this.blocks.push(block);
    this.blockBySlot.set(block.slot, block);
    this.heightByBlockhash.set(block.blockhash, block.blockHeight);
  }

  /** The newest block: transactions sent now land in it. */
  get head(): BlockRecord {
    return this.blocks[this.blocks.length - 1] as BlockRecord;
  }

  /** Opens the next block `skip + 1` slots later (skipped slots have no block). */
  produceBlock(blockTime: number, skip = 0): BlockRecord {
    const parent = this.head;
    const slot = parent.slot + 1 + skip;
    const block: BlockRecord = {
      slot,
      parentSlot: parent.slot,
      blockHeight: parent.blockHeight + 1,
      blockhash: nextBlockhash(parent.blockhash, slot),
      previousBlockhash: parent.blockhash,
      blockTime,
      signatures: [],
    };
    this.append(block);
    return block;
  }

  /** The newest block visible at a commitment level. */
  blockAt(commitment: Commitment): BlockRecord {
    const lag = (commitment === "processed" ? 0 : this.lag[commitment]) + this.replicaLag;
    return this.blocks[Math.max(0, this.blocks.length - 1 - lag)] as BlockRecord;
  }

  /** Runs `answer` (synchronous) as a node `blocks` behind this one answers it. */
  answerBehind<T>(blocks: number, answer: () => T): T {
    this.replicaLag = blocks;
    try {
      return answer();
    } finally {
      this.replicaLag = 0;
    }
  }

  /** The newest `count` blocks, newest first. */
  recentBlocks(count: number): BlockRecord[] {
    return this.blocks.slice(-count).reverse();
  }

  block(slot: number): BlockRecord | undefined {
    return this.blockBySlot.get(slot);
  }

  /** Slots that have a block in [start, end], ascending. */
  blockSlots(start: number, end: number): number[] {
    return this.blocks.filter((b) => b.slot >= start && b.slot <= end).map((b) => b.slot);
  }

  lastValidBlockHeight(blockhash: string): number | undefined {
    const height = this.heightByBlockhash.get(blockhash);
    return height === undefined ? undefined : height + BLOCKHASH_VALIDITY_BLOCKS;
  }

  isBlockhashValid(blockhash: string): boolean {
    const lastValid = this.lastValidBlockHeight(blockhash);
    return lastValid !== undefined && this.head.blockHeight <= lastValid;
  }

  record(transaction: TransactionRecord): void {
    this.transactions.set(transaction.signature, transaction);
    this.head.signatures.push(transaction.signature);
    for (const address of new Set(transaction.accountKeys)) {
      const list = this.signaturesByAddress.get(address);
      if (list) list.push(transaction.signature);
      else this.signaturesByAddress.set(address, [transaction.signature]);
    }
  }

  transaction(signature: string): TransactionRecord | undefined {
    return this.transactions.get(signature);
  }

  get transactionCount(): number {
    return this.transactions.size;
  }

  commitmentOf(slot: number): Commitment {
    if (slot <= this.blockAt("finalized").slot) return "finalized";
    if (slot <= this.blockAt("confirmed").slot) return "confirmed";
    return "processed";
  }

  /** Blocks built on top of the block at `slot` (heights count blocks). */
  blocksSince(slot: number): number {
    return this.head.blockHeight - (this.blockBySlot.get(slot)?.blockHeight ?? this.head.blockHeight);
  }

  /** Confirmations as a validator reports them: null once finalized. */
  confirmationsOf(slot: number): number | null {
    return this.commitmentOf(slot) === "finalized" ? null : this.blocksSince(slot);
  }

  /**
   * Signatures that touched `address`, newest first, visible at `commitment`;
   * `before` and `until` are exclusive bounds as on a cluster.
   */
  signaturesFor(
    address: string,
    options: { before?: string; until?: string; limit: number; commitment: Commitment },
  ): TransactionRecord[] {
    const all = this.signaturesByAddress.get(address) ?? [];
    const visibleSlot = this.blockAt(options.commitment).slot;
    let end = all.length;
    if (options.before !== undefined) {
      const index = all.lastIndexOf(options.before);
      if (index < 0) return [];
      end = index;
    }
    const result: TransactionRecord[] = [];
    for (let i = end - 1; i >= 0 && result.length < options.limit; i--) {
      const signature = all[i] as string;
      if (signature === options.until) break;
      const record = this.transactions.get(signature) as TransactionRecord;
      if (record.slot <= visibleSlot) result.push(record);
    }
    return result;
  }
}
