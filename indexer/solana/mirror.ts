// One batch of program transactions into the mirror: fetch them, read the accounts they wrote at or after their
// slots, and apply those accounts' state. Logs are never read here: a reservation made through another program
// (a multisig, a launchpad) or with truncated logs writes its account all the same.
import type { Pool } from "pg";
import { type RawAccount, reservationHeldBy } from "../../chains/solana/accounts";
import { applyBatch } from "./apply";
import type { RpcCall } from "./rpc";
import { type LandedTransaction, lastWriters, writtenAccounts } from "./writtenAccounts";

export type Commitment = "confirmed" | "finalized";

export interface MirrorContext {
  pool: Pool;
  rpc: RpcCall;
  chain: string;
  programId: string;
  commitment: Commitment;
}

export interface MirroredBatch {
  /** False when a transaction or an account read was not served yet: the batch stopped there. */
  complete: boolean;
  /** Block time of the newest transaction applied (null: none, or the node has none). */
  blockTime: number | null;
}

/** getMultipleAccounts' limit per call. */
const MAX_ACCOUNTS_PER_READ = 100;

interface AccountsAnswer {
  context: { slot: number };
  value: ({ owner: string; data: [string, string] } | null)[];
}

/**
 * Mirrors `signatures` (oldest first) in one database statement. A transaction listed but not yet served at the
 * commitment (a lagging node) ends the batch before it; what precedes it is applied and the next pass resumes
 * from the cursor.
 */
export async function mirrorBatch(
  context: MirrorContext,
  signatures: readonly string[],
): Promise<MirroredBatch> {
  const { rpc, commitment } = context;
  const answers = await Promise.all(
    signatures.map((signature) =>
      rpc<LandedTransaction | null>("getTransaction", [
        signature,
        { commitment, encoding: "json", maxSupportedTransactionVersion: 0 },
      ]),
    ),
  );
  const served = answers.indexOf(null);
  const ready = (served === -1 ? answers : answers.slice(0, served)) as LandedTransaction[];
  const txs = ready.map((tx, index) => ({
    signature: signatures[index] as string,
    slot: tx.slot,
    written: writtenAccounts(tx),
  }));
  const writers = [...lastWriters(txs)];
  const addresses = writers.map(([address]) => address);
  const accounts = await readAccounts(context, addresses, Math.max(0, ...txs.map((tx) => tx.slot)));
  if (accounts === null) return { complete: false, blockTime: null };
  const mirrored = writers.map(([address, writer], index) => ({
    address,
    writer,
    reservation: reservationHeldBy(accounts[index] ?? null, context.programId),
  }));
  await applyBatch(context.pool, context.chain, txs, mirrored);
  return { complete: served === -1, blockTime: ready.at(-1)?.blockTime ?? null };
}

/**
 * The accounts at `addresses` (null: absent) from a node at or past `minContextSlot`, so they show every
 * transaction up to it; null when a node answered from an earlier slot anyway (one that ignores the parameter).
 */
async function readAccounts(
  { rpc, commitment }: MirrorContext,
  addresses: readonly string[],
  minContextSlot: number,
): Promise<(RawAccount | null)[] | null> {
  const chunks: string[][] = [];
  for (let start = 0; start < addresses.length; start += MAX_ACCOUNTS_PER_READ) {
    chunks.push(addresses.slice(start, start + MAX_ACCOUNTS_PER_READ));
  }
  const answers = await Promise.all(
    chunks.map((chunk) =>
      rpc<AccountsAnswer>("getMultipleAccounts", [chunk, { commitment, encoding: "base64", minContextSlot }]),
    ),
  );
  if (answers.some((answer) => answer.context.slot < minContextSlot)) return null;
  return answers.flatMap((answer) =>
    answer.value.map(
      (account) => account && { owner: account.owner, data: Buffer.from(account.data[0], "base64") },
    ),
  );
}
