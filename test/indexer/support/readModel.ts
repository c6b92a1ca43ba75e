// Reads of the API's read model, and waiting until it shows what a test expects.
import type { Pool } from "pg";

export interface MirrorRow {
  chain: string;
  name_hash: string;
  ticker_hash: string;
  normalized_name: string;
  normalized_ticker: string;
  launcher: string;
  reserved_at: Date;
  expires_at: Date;
  duration_seconds: number;
  fee_paid: string;
  partner_ref: string | null;
  tx_hash: string;
  block_number: string;
}

export async function mirrorRows(pool: Pool, chain: string): Promise<MirrorRow[]> {
  const { rows } = await pool.query<MirrorRow>(
    "SELECT * FROM chain_reservations WHERE chain = $1 ORDER BY normalized_name, normalized_ticker",
    [chain],
  );
  return rows;
}

/** The indexed block (EVM) or slot (Solana) of `chain`'s checkpoint; -1 before its first. */
export async function indexedNumber(pool: Pool, chain: string): Promise<bigint> {
  const { rows } = await pool.query<{ indexed_number: string }>(
    "SELECT indexed_number FROM chain_checkpoints WHERE chain = $1",
    [chain],
  );
  return BigInt(rows[0]?.indexed_number ?? -1);
}

/** Waits until the reservation sent in `hash` is in `chain`'s mirror and the checkpoint has reached its block. */
export async function awaitMirrored(
  pool: Pool,
  chain: string,
  { hash, blockNumber }: { hash: string; blockNumber: bigint },
): Promise<void> {
  await waitFor(
    () => mirrorRows(pool, chain),
    (rows) => rows.some((row) => row.tx_hash === hash),
    90_000,
  );
  await waitFor(
    () => indexedNumber(pool, chain),
    (block) => block >= blockNumber,
    30_000,
  );
}

/** Polls `read` until `done` holds for its result; fails with the last result after `timeoutMs`. */
export async function waitFor<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!done(value)) {
    if (Date.now() > deadline) {
      throw new Error(`condition not met within ${timeoutMs} ms; last value: ${JSON.stringify(value)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    value = await read();
  }
  return value;
}
