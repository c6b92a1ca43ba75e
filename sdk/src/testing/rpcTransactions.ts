// Transactions over a real RPC (a local validator) in a launchpad's tests: sent after the RPC's preflight and
// confirmed by polling, so a test leaves no websocket behind to close, and wallets funded by its faucet.
import { type Connection, Keypair, Transaction, type TransactionInstruction } from "@solana/web3.js";
import { SdkError } from "../errors";

const CONFIRM_POLL_MS = 100;
const CONFIRM_TIMEOUT_MS = 30_000;

/** Resolves once `signature` is confirmed; throws with the chain's error when it failed. */
async function confirmed(connection: Connection, signature: string): Promise<void> {
  const deadline = Date.now() + CONFIRM_TIMEOUT_MS;
  for (;;) {
    const status = (await connection.getSignatureStatuses([signature])).value[0];
    if (status?.err) throw new SdkError(`Transaction ${signature} failed: ${JSON.stringify(status.err)}`);
    if (status?.confirmationStatus === "confirmed" || status?.confirmationStatus === "finalized") return;
    if (Date.now() > deadline) {
      throw new SdkError(`Transaction ${signature} was not confirmed in time: is the RPC producing blocks?`);
    }
    await new Promise((resolve) => setTimeout(resolve, CONFIRM_POLL_MS));
  }
}

/**
 * Sends `instructions` in one transaction paid by the first signer, after the RPC's preflight (a failing program
 * throws SendTransactionError with its logs); resolves with the confirmed signature.
 */
export async function sendAndConfirmInstructions(
  connection: Connection,
  instructions: TransactionInstruction[],
  [payer, ...others]: [Keypair, ...Keypair[]],
): Promise<string> {
  const transaction = new Transaction().add(...instructions);
  transaction.feePayer = payer.publicKey;
  transaction.recentBlockhash = (await connection.getLatestBlockhash()).blockhash;
  transaction.sign(payer, ...others);
  const signature = await connection.sendRawTransaction(transaction.serialize());
  await confirmed(connection, signature);
  return signature;
}

/** A new wallet holding `lamports` from the RPC's faucet (a local validator's; public clusters limit it). */
export async function airdroppedWallet(connection: Connection, lamports: number): Promise<Keypair> {
  const wallet = Keypair.generate();
  await confirmed(connection, await connection.requestAirdrop(wallet.publicKey, lamports));
  return wallet;
}
