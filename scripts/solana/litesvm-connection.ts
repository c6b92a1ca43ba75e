// The subset of @solana/web3.js `Connection` that the deploy library and the Anchor client use, served by an
// in-process litesvm (the real Agave runtime). Tests and the CU bench drive the program through it; the same
// deploy and client code runs against a JSON-RPC `Connection` elsewhere.
import { utils } from "@coral-xyz/anchor";
import { type Address, getTransactionDecoder, lamports } from "@solana/kit";
import {
  type AccountInfo,
  type Commitment,
  PublicKey,
  type SendOptions,
  type Signer,
  type Transaction,
} from "@solana/web3.js";
import { Clock, FailedTransactionMetadata, LiteSVM, type TransactionMetadata } from "litesvm";
import { ServiceError } from "../../core/errors/serviceError";

/** A failed transaction, with the runtime's logs (Anchor's error translation reads `logs`). */
export class LiteSvmTransactionError extends ServiceError {
  constructor(
    readonly reason: string,
    readonly logs: string[],
    /** What the transaction's programs last set with sol_set_return_data before it failed (empty when nothing). */
    readonly returnData: ReturnData = NO_RETURN_DATA,
  ) {
    // Anchor maps `custom program error: 0x..` in the message to the IDL error; the logs carry the rest.
    super(`Transaction failed: ${reason}\n${logs.join("\n")}`);
  }
}

/** The transaction's return data and the program that set it (null when none was set). */
export interface ReturnData {
  programId: string | null;
  data: Uint8Array;
}

const NO_RETURN_DATA: ReturnData = { programId: null, data: new Uint8Array() };

export interface ExecutedTransaction {
  signature: string;
  logs: string[];
  computeUnits: number;
  returnData: Uint8Array;
  /** The program that set `returnData` (the last one to call sol_set_return_data), null when none did. */
  returnProgramId: string | null;
}

function failureReason(failed: FailedTransactionMetadata): string {
  const err = failed.err() as unknown;
  const text = String(failed.toString());
  const custom = /Custom\((\d+)\)/.exec(text);
  if (custom?.[1]) return `custom program error: 0x${Number(custom[1]).toString(16)}`;
  // Fieldless errors arrive as a number: litesvm's TransactionErrorFieldless enum.
  return typeof err === "object" && err !== null ? text : `transaction error ${String(err)} (${text})`;
}

export class LiteSvmConnection {
  readonly svm: LiteSVM;
  readonly rpcEndpoint = "litesvm://in-process";

  /** The blockhash the in-process chain started with: its genesis, as deployments record it. */
  private readonly genesisHash: string;

  constructor(svm = new LiteSVM().withTransactionHistory(0n)) {
    this.svm = svm;
    this.genesisHash = svm.latestBlockhash();
  }

  async getGenesisHash(): Promise<string> {
    return this.genesisHash;
  }

  async getAccountInfo(address: PublicKey): Promise<AccountInfo<Buffer> | null> {
    const account = this.svm.getAccount(address.toBase58() as Address);
    if (!account.exists) return null;
    return {
      data: Buffer.from(account.data),
      executable: account.executable,
      lamports: Number(account.lamports),
      owner: new PublicKey(account.programAddress),
      rentEpoch: 0,
    };
  }

  async getAccountInfoAndContext(address: PublicKey) {
    return { context: { slot: Number(this.svm.getClock().slot) }, value: await this.getAccountInfo(address) };
  }

  async getMultipleAccountsInfo(addresses: PublicKey[]) {
    return Promise.all(addresses.map((address) => this.getAccountInfo(address)));
  }

  async getBalance(address: PublicKey): Promise<number> {
    return Number(this.svm.getBalance(address.toBase58() as Address) ?? 0n);
  }

  async getMinimumBalanceForRentExemption(size: number): Promise<number> {
    return Number(this.svm.minimumBalanceForRentExemption(BigInt(size)));
  }

  async getLatestBlockhash(_commitment?: Commitment) {
    return {
      blockhash: this.svm.latestBlockhash(),
      lastValidBlockHeight: Number(this.svm.getClock().slot) + 150,
    };
  }

  async getBlockTime(_slot: number): Promise<number | null> {
    return Number(this.svm.getClock().unixTimestamp);
  }

  async getSlot(): Promise<number> {
    return Number(this.svm.getClock().slot);
  }

  async requestAirdrop(address: PublicKey, amount: number): Promise<string> {
    return this.airdrop(address, BigInt(amount)).signature;
  }

  /** Funds `address` from litesvm's faucet; throws when the faucet cannot pay. */
  airdrop(address: PublicKey, amount: bigint): ExecutedTransaction {
    const result = this.svm.airdrop(address.toBase58() as Address, lamports(amount));
    if (!result || result instanceof FailedTransactionMetadata) {
      throw new LiteSvmTransactionError(`airdrop of ${amount} lamports failed (faucet balance?)`, []);
    }
    return summary(result);
  }

  async sendRawTransaction(raw: Buffer | Uint8Array | number[], _options?: SendOptions): Promise<string> {
    return this.execute(Uint8Array.from(raw)).signature;
  }

  async confirmTransaction(_strategy: unknown, _commitment?: Commitment) {
    // litesvm executes synchronously: a returned signature is already final.
    return { context: { slot: await this.getSlot() }, value: { err: null } };
  }

  /** Executes a serialized transaction; throws LiteSvmTransactionError with logs when it fails. */
  execute(raw: Uint8Array): ExecutedTransaction {
    const result = this.svm.sendTransaction(getTransactionDecoder().decode(raw));
    if (result instanceof FailedTransactionMetadata) {
      throw new LiteSvmTransactionError(
        failureReason(result),
        result.meta().logs(),
        returnDataOf(result.meta()),
      );
    }
    // Identical transactions (same blockhash, same signers, same data) would be AlreadyProcessed.
    this.svm.expireBlockhash();
    return summary(result);
  }

  simulate(raw: Uint8Array): ExecutedTransaction {
    const result = this.svm.simulateTransaction(getTransactionDecoder().decode(raw));
    if (result instanceof FailedTransactionMetadata) {
      throw new LiteSvmTransactionError(
        failureReason(result),
        result.meta().logs(),
        returnDataOf(result.meta()),
      );
    }
    return summary(result.meta());
  }

  sign(tx: Transaction, payer: Signer, signers: Signer[] = []): Uint8Array {
    tx.feePayer = payer.publicKey;
    tx.recentBlockhash = this.svm.latestBlockhash();
    tx.sign(payer, ...signers.filter((signer) => !signer.publicKey.equals(payer.publicKey)));
    return tx.serialize();
  }

  /** Moves the cluster clock to `unixTimestamp` (the program reads time through the clock sysvar). */
  setUnixTimestamp(unixTimestamp: bigint): void {
    const clock = this.svm.getClock();
    this.svm.setClock(
      new Clock(
        clock.slot + 1n,
        clock.epochStartTimestamp,
        clock.epoch,
        clock.leaderScheduleEpoch,
        unixTimestamp,
      ),
    );
  }
}

function returnDataOf(meta: TransactionMetadata): ReturnData {
  const returned = meta.returnData();
  const programId = returned.programId();
  const data = returned.data();
  // An all-zero program id with no data: nothing was set.
  if (data.length === 0 && programId.every((byte) => byte === 0)) return NO_RETURN_DATA;
  return { programId: new PublicKey(programId).toBase58(), data };
}

function summary(meta: TransactionMetadata): ExecutedTransaction {
  const returned = returnDataOf(meta);
  return {
    signature: utils.bytes.bs58.encode(meta.signature()),
    logs: meta.logs(),
    computeUnits: Number(meta.computeUnitsConsumed()),
    returnData: returned.data,
    returnProgramId: returned.programId,
  };
}
