// The Solana identity_registry's decision signers: the entries of its config account, read over the service's
// RPC settings, and the admin's set_decision_signer / revoke_decision_signer built from the IDL, sent and
// waited for until confirmed.
import { BN } from "@coral-xyz/anchor";
import {
  Connection,
  type Keypair,
  PublicKey,
  SYSVAR_CLOCK_PUBKEY,
  SystemProgram,
  Transaction,
  TransactionInstruction,
} from "@solana/web3.js";
import type { SolanaManifestEntry } from "../../config/manifest";
import { ServiceError } from "../../core/errors/serviceError";
import { DEFAULT_RPC_TIMEOUT_MS, fetchWithTimeout } from "../rpcTimeout";
import { clockUnixTimestamp } from "./accounts";
import { instructionAccounts, programError, registryCoder } from "./idl";
import { outcomeOfStatus } from "./outcome";

/** Pause between two status reads of a sent transaction (a slot is about 400 ms). */
const CONFIRM_POLL_MS = 400;

export class SolanaDecisionSignerError extends ServiceError {
  constructor(message: string) {
    super(message);
  }
}

export interface SolanaSignerWindow {
  /** base58 Ed25519 public key. */
  signer: string;
  validFrom: bigint;
  validUntil: bigint;
}

export interface SolanaSignerChangeResult {
  transaction: string;
  /** The window the config holds after the change. */
  window: SolanaSignerWindow;
}

/** The admin's writes; every call waits until its transaction is confirmed. */
export interface SolanaSignerAdmin {
  set(signer: string, validFrom: bigint, validUntil: bigint): Promise<SolanaSignerChangeResult>;
  revoke(signer: string): Promise<SolanaSignerChangeResult>;
}

/** The deployment's program and config: the entry's production ones or its sandbox ones. */
export interface SolanaDeployment {
  programId: string;
  configAccount: string;
}

/** Integers as Anchor's BorshCoder decodes them (BN). */
interface Decimal {
  toString(): string;
}
interface RawConfig {
  admin: PublicKey;
  decision_signers: { signer: PublicKey; valid_from: Decimal; valid_until: Decimal }[];
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** A refused preflight names the program's error from the IDL when it has one. */
function reasonOf(error: unknown): string {
  const message = (error as Error).message;
  const code = /custom program error: 0x([0-9a-f]+)/i.exec(message)?.[1];
  const known = code === undefined ? null : programError(Number.parseInt(code, 16));
  return known ? `${known.name}: ${known.message}` : message;
}

export class SolanaDecisionSigners {
  readonly programId: PublicKey;
  readonly configAccount: PublicKey;
  private readonly connection: Connection;

  constructor(
    private readonly entry: SolanaManifestEntry,
    deployment: SolanaDeployment,
    options: { timeoutMs?: number } = {},
  ) {
    this.programId = new PublicKey(deployment.programId);
    this.configAccount = new PublicKey(deployment.configAccount);
    this.connection = new Connection(entry.rpcUrl, {
      commitment: "confirmed",
      disableRetryOnRateLimit: true,
      fetch: fetchWithTimeout(options.timeoutMs ?? DEFAULT_RPC_TIMEOUT_MS),
    });
  }

  /** The chain's clock, the config's admin and its entries in use (an empty entry holds the zero key). */
  async read(): Promise<{ now: bigint; admin: PublicKey; signers: SolanaSignerWindow[] }> {
    const [config, clock] = await this.connection
      .getMultipleAccountsInfo([this.configAccount, SYSVAR_CLOCK_PUBKEY])
      .catch((error: Error) => {
        throw new SolanaDecisionSignerError(
          `Reading the config ${this.configAccount.toBase58()} on ${this.entry.chain} failed: ${error.message}. Check the manifest's rpcUrl.`,
        );
      });
    if (!config?.owner.equals(this.programId)) {
      throw new SolanaDecisionSignerError(
        `The config account ${this.configAccount.toBase58()} on ${this.entry.chain} is missing or not program ${this.programId.toBase58()}'s: check the deployment manifest.`,
      );
    }
    if (!clock)
      throw new SolanaDecisionSignerError(`The RPC of ${this.entry.chain} returned no Clock sysvar.`);
    const raw = registryCoder().accounts.decode<RawConfig>("Config", config.data);
    const signers = raw.decision_signers
      .filter((entry) => !entry.signer.equals(SystemProgram.programId))
      .map((entry) => ({
        signer: entry.signer.toBase58(),
        validFrom: BigInt(entry.valid_from.toString()),
        validUntil: BigInt(entry.valid_until.toString()),
      }));
    return { now: clockUnixTimestamp(clock.data), admin: raw.admin, signers };
  }

  /** Checks `admin` is the config's admin; `keySource` names where it came from, for the operator. */
  async asAdmin(admin: Keypair, keySource: string): Promise<SolanaSignerAdmin> {
    const { admin: expected } = await this.read();
    if (!expected.equals(admin.publicKey)) {
      throw new SolanaDecisionSignerError(
        `The admin of program ${this.programId.toBase58()} on ${this.entry.chain} is ${expected.toBase58()}, not ${admin.publicKey.toBase58()} (${keySource}); use the admin's keypair.`,
      );
    }
    return {
      set: (signer, validFrom, validUntil) =>
        this.send(admin, signer, "set_decision_signer", {
          signer: new PublicKey(signer),
          valid_from: new BN(validFrom.toString()),
          valid_until: new BN(validUntil.toString()),
        }),
      revoke: (signer) =>
        this.send(admin, signer, "revoke_decision_signer", { signer: new PublicKey(signer) }),
    };
  }

  private async send(
    admin: Keypair,
    signer: string,
    instruction: "set_decision_signer" | "revoke_decision_signer",
    args: Record<string, unknown>,
  ): Promise<SolanaSignerChangeResult> {
    const named: Record<string, PublicKey> = { admin: admin.publicKey, config: this.configAccount };
    const keys = instructionAccounts(instruction).map((account) => ({
      pubkey: named[account.name] as PublicKey,
      isSigner: account.signer === true,
      isWritable: account.writable === true,
    }));
    const data = registryCoder().instruction.encode(instruction, args);
    const recent = await this.connection.getLatestBlockhash("confirmed");
    const transaction = new Transaction({ feePayer: admin.publicKey, ...recent }).add(
      new TransactionInstruction({ programId: this.programId, keys, data }),
    );
    transaction.sign(admin);
    let signature: string;
    try {
      signature = await this.connection.sendRawTransaction(transaction.serialize(), {
        preflightCommitment: "confirmed",
      });
    } catch (error) {
      throw new SolanaDecisionSignerError(
        `${instruction}(${signer}) on ${this.entry.chain} was refused: ${reasonOf(error)}`,
      );
    }
    await this.confirmed(signature, recent.lastValidBlockHeight);
    const after = (await this.read()).signers.find((entry) => entry.signer === signer);
    if (after === undefined) {
      throw new SolanaDecisionSignerError(
        `Transaction ${signature} on ${this.entry.chain} was confirmed but the config holds no entry for ${signer}.`,
      );
    }
    return { transaction: signature, window: after };
  }

  /** Until the transaction is confirmed; throws when it failed or its blockhash expired unconfirmed. */
  private async confirmed(signature: string, lastValidBlockHeight: number): Promise<void> {
    for (;;) {
      const [status] = (await this.connection.getSignatureStatuses([signature])).value;
      const outcome = outcomeOfStatus(status ?? null);
      if (outcome.state === "succeeded") return;
      if (outcome.state === "failed") {
        throw new SolanaDecisionSignerError(
          `Transaction ${signature} on ${this.entry.chain} failed: ${outcome.error}`,
        );
      }
      if (outcome.state === "not_found" && (await this.connection.getBlockHeight()) > lastValidBlockHeight) {
        throw new SolanaDecisionSignerError(
          `Transaction ${signature} on ${this.entry.chain} expired before it was confirmed.`,
        );
      }
      await sleep(CONFIRM_POLL_MS);
    }
  }
}
