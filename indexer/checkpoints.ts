// Writes `chain_checkpoints`, the row per chain from which the API tells how current the mirror is: the
// head the indexer last saw, the block or slot it has indexed up to (and that block's time), and when. The EVM
// indexed block is written inside Ponder's own transactions instead (evm/src/mirrorTrigger.ts).
import type { Pool, PoolClient } from "pg";

export type ChainFamily = "evm" | "solana";

type Queryable = Pool | PoolClient;

/** The head a chain's checkpoint keeps when a new one is read: SQL over the recorded row and EXCLUDED. */
const NEXT_HEAD: Readonly<Record<ChainFamily, string>> = {
  // Slots never go back: a lower one was read from a node behind the others (a load balancer's replica), and
  // recorded it would make a mirror that has not reached the newest slot look caught up.
  solana: "GREATEST(chain_checkpoints.head_number, EXCLUDED.head_number)",
  // A reorg onto a shorter branch moves the head back, and the mirror's indexed block with it (the Ponder trigger):
  // a head kept at the abandoned height would keep the chain behind until the new branch outgrew it.
  evm: "EXCLUDED.head_number",
};

/** Records the chain head just seen (block number or slot). */
export async function recordHead(
  db: Queryable,
  chain: string,
  family: ChainFamily,
  head: bigint,
): Promise<void> {
  await db.query(
    `INSERT INTO chain_checkpoints (chain, family, head_number, head_seen_at)
     VALUES ($1, $2, $3, now())
     ON CONFLICT (chain) DO UPDATE SET family = EXCLUDED.family, head_number = ${NEXT_HEAD[family]},
       head_seen_at = EXCLUDED.head_seen_at`,
    [chain, family, head.toString()],
  );
}

/**
 * Records that everything up to `indexedNumber` (whose block time is `blockTime`, null when the chain
 * does not know it) is in the mirror. Never moves backwards.
 */
export async function recordIndexed(
  db: Queryable,
  chain: string,
  family: ChainFamily,
  indexedNumber: bigint,
  blockTime: Date | null,
): Promise<void> {
  await db.query(
    `INSERT INTO chain_checkpoints (chain, family, indexed_number, indexed_block_time, indexed_at)
     VALUES ($1, $2, $3, $4, now())
     ON CONFLICT (chain) DO UPDATE SET family = EXCLUDED.family,
       indexed_number = GREATEST(chain_checkpoints.indexed_number, EXCLUDED.indexed_number),
       indexed_block_time = COALESCE(EXCLUDED.indexed_block_time, chain_checkpoints.indexed_block_time),
       indexed_at = EXCLUDED.indexed_at`,
    [chain, family, indexedNumber.toString(), blockTime],
  );
}

/**
 * Confirms, now, a mirror that has everything up to `head` (just read as the chain's head): a caught-up mirror
 * is as current as its last confirmation (core/status). Moves no block number; a mirror short of `head` is left as
 * it is.
 */
export async function confirmCaughtUp(db: Queryable, chain: string, head: bigint): Promise<void> {
  await db.query(
    "UPDATE chain_checkpoints SET indexed_at = now() WHERE chain = $1 AND indexed_number >= $2",
    [chain, head.toString()],
  );
}
