// The local Solana chain: litesvm for execution and account state, a ledger for blocks and
// history, a block timer, and the send/simulate rules a cluster's RPC node applies.
import { createHash } from "node:crypto";
import {
  ComputeBudgetProgram,
  Keypair,
  PublicKey,
  SystemProgram,
  TransactionMessage,
  VersionedTransaction,
} from "@solana/web3.js";
import { FailedTransactionMetadata, LiteSVM, type TransactionMetadata } from "litesvm";
import {
  BPF_LOADER_UPGRADEABLE_ID,
  PROGRAM_ACCOUNT_SIZE,
  PROGRAM_DATA_METADATA_SIZE,
  programDataAddress,
} from "../../solana/upgradeable-loader";
import { type AccountState, byteView } from "./accountEncoding";
import { base58Encode } from "./base58";
import { FaultInjector, type FaultPlan } from "./faults";
import { type BlockRecord, type InnerInstructionJson, Ledger, type TransactionRecord } from "./ledger";
import { RpcError, RpcErrorCode } from "./rpcError";
import { type TransactionErrorJson, transactionErrorJson, transactionErrorText } from "./transactionError";
import {
  type DecodedTransaction,
  decodeTransaction,
  signaturesVerify,
  TransactionRejected,
  toKitTransaction,
} from "./wireTransaction";

type Address = Parameters<LiteSVM["getAccount"]>[0];

/** `UpgradeableLoaderState` tags (bincode u32) of a program account and of its program-data account. */
const UPGRADEABLE_PROGRAM_TAG = 2;
const UPGRADEABLE_PROGRAM_DATA_TAG = 3;

export interface SolanaChainOptions {
  /** Milliseconds per slot; a cluster runs at about 400. */
  slotMs?: number;
}

export interface ChainListener {
  block?(block: BlockRecord): void;
  transaction?(record: TransactionRecord): void;
}

export interface SimulationResult {
  err: TransactionErrorJson | null;
  logs: string[];
  unitsConsumed: number;
  returnData: TransactionRecord["returnData"];
  innerInstructions: InnerInstructionJson[];
  postAccounts: Map<string, AccountState>;
}

const FAUCET_LAMPORTS = 500_000_000n * 1_000_000_000n;
/** Entries a cluster's SlotHashes sysvar holds. */
const SLOT_HASHES_ENTRIES = 512;

export function asAddress(address: string): Address {
  return address as Address;
}

function innerInstructionsJson(meta: TransactionMetadata): InnerInstructionJson[] {
  return meta
    .innerInstructions()
    .map((list, index) => ({
      index,
      instructions: list.map((inner) => ({
        programIdIndex: inner.instruction().programIdIndex(),
        accounts: [...inner.instruction().accounts()],
        data: base58Encode(inner.instruction().data()),
        stackHeight: inner.stackHeight(),
      })),
    }))
    .filter((entry) => entry.instructions.length > 0);
}

function returnDataJson(meta: TransactionMetadata): TransactionRecord["returnData"] {
  const returnData = meta.returnData();
  const data = returnData.data();
  if (data.length === 0) return null;
  return {
    programId: new PublicKey(returnData.programId()).toBase58(),
    data: [Buffer.from(data).toString("base64"), "base64"],
  };
}

function preflightFailure(err: TransactionErrorJson, logs: string[], unitsConsumed = 0): RpcError {
  return new RpcError(
    RpcErrorCode.sendTransactionPreflightFailure,
    `Transaction simulation failed: ${transactionErrorText(err)}`,
    { err, logs, accounts: null, unitsConsumed, returnData: null, innerInstructions: null },
  );
}

export class SolanaChain {
  readonly svm: LiteSVM;
  readonly ledger: Ledger;
  readonly faults = new FaultInjector();
  readonly slotMs: number;
  private readonly listeners = new Set<ChainListener>();
  private readonly faucet = Keypair.fromSeed(createHash("sha256").update("localnet faucet").digest());
  /** The node's identity key, as `getIdentity` reports it. */
  readonly identity = new PublicKey(createHash("sha256").update("localnet identity").digest()).toBase58();
  private timeOffsetSeconds = 0;
  private airdropCount = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(options: SolanaChainOptions = {}) {
    this.slotMs = options.slotMs ?? 400;
    // The ledger checks blockhash age (150 blocks) and duplicates itself; litesvm only knows
    // its single latest blockhash and a bounded history.
    this.svm = new LiteSVM().withBlockhashCheck(false).withTransactionHistory(0n);
    this.ledger = new Ledger(this.now());
    this.svm.setAccount({
      address: asAddress(this.faucet.publicKey.toBase58()),
      data: new Uint8Array(0),
      executable: false,
      lamports: FAUCET_LAMPORTS as never,
      programAddress: asAddress(SystemProgram.programId.toBase58()),
      space: 0n,
    });
    this.syncClock();
  }

  /** Unix time of the chain, wall clock plus any `warpTime`. */
  now(): number {
    return Math.floor(Date.now() / 1000) + this.timeOffsetSeconds;
  }

  /** Starts block production; the first block opens at once so nothing lands in genesis. */
  start(): void {
    if (this.timer) return;
    this.tick();
    this.timer = setInterval(() => this.tick(), this.slotMs);
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  subscribe(listener: ChainListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  setFaults(plan: FaultPlan): void {
    this.faults.set(plan);
    this.ledger.lag = {
      confirmed: plan.commitmentLag?.confirmed ?? 0,
      finalized: plan.commitmentLag?.finalized ?? 0,
    };
  }

  /** The block timer's step: the next block, unless the fault plan froze production. */
  private tick(): void {
    if (!this.faults.blocksFrozen) this.produceBlock();
  }

  /** Produces the next block now (skipping slots if the fault plan says so). */
  produceBlock(): BlockRecord {
    const block = this.ledger.produceBlock(this.now(), this.faults.slotsToSkip());
    this.syncClock();
    this.syncSlotHashes();
    for (const listener of this.listeners) listener.block?.(block);
    return block;
  }

  /**
   * Moves chain time forward (e.g. into a renewal window) without waiting. A new block opens at
   * the new time, so block times and the Clock sysvar agree as they do on a cluster.
   */
  warpTime(seconds: number): void {
    this.timeOffsetSeconds += seconds;
    this.produceBlock();
  }

  /** Keeps the SlotHashes sysvar in step with produced blocks (address lookup tables need it). */
  private syncSlotHashes(): void {
    const hashes = this.ledger.recentBlocks(SLOT_HASHES_ENTRIES).map((block) => ({
      slot: BigInt(block.slot),
      hash: block.blockhash,
    }));
    this.svm.setSlotHashes(hashes);
  }

  private syncClock(): void {
    const clock = this.svm.getClock();
    clock.slot = BigInt(this.ledger.head.slot);
    clock.unixTimestamp = BigInt(this.now());
    this.svm.setClock(clock);
  }

  /**
   * Loads an upgradeable program as a validator does at genesis (`solana-test-validator --upgradeable-program`):
   * its program-data account (deployed at the head slot, `authority` may upgrade it) and its program account are
   * written directly, without the loader's transactions. The next block makes it callable. Returns the program-data
   * address and the deploy slot.
   */
  loadUpgradeableProgram(
    programId: string,
    authority: string,
    bytes: Uint8Array,
    maxDataLen: number,
  ): { programData: string; deploySlot: number } {
    const programData = programDataAddress(new PublicKey(programId));
    const slot = this.ledger.head.slot;
    const data = new Uint8Array(PROGRAM_DATA_METADATA_SIZE + maxDataLen);
    const view = new DataView(data.buffer);
    view.setUint32(0, UPGRADEABLE_PROGRAM_DATA_TAG, true);
    view.setBigUint64(4, BigInt(slot), true);
    data[12] = 1;
    data.set(new PublicKey(authority).toBytes(), 13);
    data.set(bytes, PROGRAM_DATA_METADATA_SIZE);
    const program = new Uint8Array(PROGRAM_ACCOUNT_SIZE);
    new DataView(program.buffer).setUint32(0, UPGRADEABLE_PROGRAM_TAG, true);
    program.set(programData.toBytes(), 4);
    const loader = asAddress(BPF_LOADER_UPGRADEABLE_ID.toBase58());
    for (const [address, account, executable] of [
      [programData.toBase58(), data, false],
      [programId, program, true],
    ] as const) {
      this.svm.setAccount({
        address: asAddress(address),
        data: account,
        executable,
        lamports: this.svm.minimumBalanceForRentExemption(BigInt(account.length)) as never,
        programAddress: loader,
        space: BigInt(account.length),
      });
    }
    this.produceBlock();
    return { programData: programData.toBase58(), deploySlot: slot };
  }

  /** An account as RPC shows it: null when it does not exist or holds no lamports. */
  account(address: string): AccountState | null {
    const account = this.svm.getAccount(asAddress(address));
    if (!account.exists || account.lamports === 0n) return null;
    return {
      lamports: account.lamports,
      data: byteView(account.data),
      owner: account.programAddress,
      executable: account.executable,
    };
  }

  balance(address: string): bigint {
    return this.svm.getBalance(asAddress(address)) ?? 0n;
  }

  decode(wire: Uint8Array): DecodedTransaction {
    try {
      return decodeTransaction(this.svm, wire);
    } catch (error) {
      if (error instanceof TransactionRejected) throw preflightFailure(error.err, []);
      throw error;
    }
  }

  simulate(
    decoded: DecodedTransaction,
    options: { sigVerify: boolean; replaceRecentBlockhash: boolean },
  ): SimulationResult {
    const empty = {
      logs: [],
      unitsConsumed: 0,
      returnData: null,
      innerInstructions: [],
      postAccounts: new Map(),
    };
    if (
      !options.replaceRecentBlockhash &&
      !this.ledger.isBlockhashValid(decoded.transaction.message.recentBlockhash)
    ) {
      return { err: "BlockhashNotFound", ...empty };
    }
    if (options.sigVerify && !signaturesVerify(decoded)) return { err: "SignatureFailure", ...empty };
    const outcome = this.simulateUnchecked(decoded);
    const meta = outcome.meta();
    const postAccounts: SimulationResult["postAccounts"] = new Map();
    if (!(outcome instanceof FailedTransactionMetadata)) {
      for (const account of outcome.postAccounts()) {
        postAccounts.set(account.address, {
          lamports: account.lamports,
          data: byteView(account.data),
          owner: account.programAddress,
          executable: account.executable,
        });
      }
    }
    return {
      err: outcome instanceof FailedTransactionMetadata ? transactionErrorJson(outcome.err()) : null,
      logs: meta.logs(),
      unitsConsumed: Number(meta.computeUnitsConsumed()),
      returnData: returnDataJson(meta),
      innerInstructions: innerInstructionsJson(meta),
      postAccounts,
    };
  }

  /** Runs a simulation with litesvm's own signature check off (the caller decides on signatures). */
  private simulateUnchecked(decoded: DecodedTransaction): ReturnType<LiteSVM["simulateTransaction"]> {
    this.svm.withSigverify(false);
    try {
      return this.svm.simulateTransaction(toKitTransaction(decoded));
    } finally {
      this.svm.withSigverify(true);
    }
  }

  /**
   * Accepts a transaction the way an RPC node does: signatures are always checked; with preflight
   * a failing simulation is a -32002 error; without it, a transaction with an unknown blockhash
   * or an already-seen signature is silently dropped, and an execution failure lands with `err`.
   */
  send(wire: Uint8Array, options: { skipPreflight: boolean }): string {
    const decoded = this.decode(wire);
    if (!signaturesVerify(decoded)) {
      throw new RpcError(
        RpcErrorCode.transactionSignatureVerificationFailure,
        "Transaction signature verification failure",
      );
    }
    const blockhashValid = this.ledger.isBlockhashValid(decoded.transaction.message.recentBlockhash);
    const duplicate = this.ledger.transaction(decoded.signature) !== undefined;
    if (!options.skipPreflight) {
      if (!blockhashValid) throw preflightFailure("BlockhashNotFound", []);
      if (duplicate) throw preflightFailure("AlreadyProcessed", []);
      const simulation = this.simulate(decoded, { sigVerify: false, replaceRecentBlockhash: false });
      if (simulation.err !== null) {
        throw preflightFailure(simulation.err, simulation.logs, simulation.unitsConsumed);
      }
    }
    if (blockhashValid && !duplicate) this.execute(decoded);
    return decoded.signature;
  }

  private execute(decoded: DecodedTransaction): void {
    const preBalances = decoded.accountKeys.map((key) => this.balance(key));
    const outcome = this.svm.sendTransaction(toKitTransaction(decoded));
    const postBalances = decoded.accountKeys.map((key) => this.balance(key));
    const failed = outcome instanceof FailedTransactionMetadata;
    // A failure that charged no fee never lands on a cluster (e.g. fee payer cannot pay).
    if (failed && postBalances[0] === preBalances[0]) return;
    const meta = failed ? outcome.meta() : (outcome as TransactionMetadata);
    const record: TransactionRecord = {
      signature: decoded.signature,
      slot: this.ledger.head.slot,
      wire: decoded.wire,
      version: decoded.version,
      accountKeys: decoded.accountKeys,
      loadedAddresses: decoded.loadedAddresses,
      err: failed ? transactionErrorJson(outcome.err()) : null,
      fee: decoded.fee,
      preBalances: preBalances.map(Number),
      postBalances: postBalances.map(Number),
      logMessages: meta.logs(),
      innerInstructions: innerInstructionsJson(meta),
      computeUnitsConsumed: Number(meta.computeUnitsConsumed()),
      returnData: returnDataJson(meta),
    };
    this.ledger.record(record);
    for (const listener of this.listeners) listener.transaction?.(record);
  }

  /** Sends lamports from the local faucet in a real, recorded System Program transfer. */
  airdrop(recipient: string, lamports: bigint): string {
    if (lamports <= 0n || lamports > FAUCET_LAMPORTS / 1000n) {
      throw new RpcError(
        RpcErrorCode.invalidParams,
        `airdrop amount must be between 1 and ${FAUCET_LAMPORTS / 1000n} lamports`,
      );
    }
    const message = new TransactionMessage({
      payerKey: this.faucet.publicKey,
      recentBlockhash: this.ledger.head.blockhash,
      instructions: [
        // A distinct limit per airdrop keeps equal airdrops in one block from sharing a signature.
        ComputeBudgetProgram.setComputeUnitLimit({ units: 10_000 + (this.airdropCount++ % 1_000_000) }),
        SystemProgram.transfer({
          fromPubkey: this.faucet.publicKey,
          toPubkey: new PublicKey(recipient),
          lamports,
        }),
      ],
    }).compileToLegacyMessage();
    const transaction = new VersionedTransaction(message);
    transaction.sign([this.faucet]);
    return this.send(transaction.serialize(), { skipPreflight: false });
  }
}
