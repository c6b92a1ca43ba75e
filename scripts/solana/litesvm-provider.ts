// An Anchor `Provider` over litesvm, so `new Program(idl, provider)` drives the program in-process exactly as
// it would over JSON-RPC (`anchor-litesvm` pins a litesvm build that does not load on Debian bookworm).
import type { Provider } from "@coral-xyz/anchor";
import type {
  Connection,
  Keypair,
  PublicKey,
  Signer,
  Transaction,
  VersionedTransaction,
} from "@solana/web3.js";
import { type ExecutedTransaction, LiteSvmConnection } from "./litesvm-connection";

export class LiteSvmProvider implements Provider {
  readonly connection: Connection;
  readonly publicKey: PublicKey;
  /** The last executed or simulated transaction (compute units, logs): read by the CU bench. */
  last: ExecutedTransaction | null = null;

  constructor(
    readonly svm: LiteSvmConnection,
    readonly payer: Keypair,
  ) {
    // LiteSvmConnection implements the parts of Connection that Anchor and the deploy library call.
    this.connection = svm as unknown as Connection;
    this.publicKey = payer.publicKey;
  }

  static create(payer: Keypair, lamports = 1_000_000_000_000n): LiteSvmProvider {
    const svm = new LiteSvmConnection();
    svm.airdrop(payer.publicKey, lamports);
    return new LiteSvmProvider(svm, payer);
  }

  async sendAndConfirm(tx: Transaction | VersionedTransaction, signers: Signer[] = []): Promise<string> {
    this.last = this.svm.execute(this.signed(tx, signers));
    return this.last.signature;
  }

  async simulate(tx: Transaction | VersionedTransaction, signers: Signer[] = []) {
    this.last = this.svm.simulate(this.signed(tx, signers));
    return {
      logs: this.last.logs,
      unitsConsumed: this.last.computeUnits,
      err: null,
      accounts: null,
      returnData: null,
    };
  }

  private signed(tx: Transaction | VersionedTransaction, signers: Signer[]): Uint8Array {
    if (!("instructions" in tx)) throw new TypeError("LiteSvmProvider signs legacy transactions only");
    return this.svm.sign(tx, this.payer, signers);
  }
}
