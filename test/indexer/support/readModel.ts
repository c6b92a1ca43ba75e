// Reads of the API's read model, and waiting until it shows what a test expects.
import type { Pool } from "pg";
import type { ChainReservationRow } from "../../../storage/chainReservations";

/** A row of chain_reservations as the service reads it (storage/chainReservations.ts). */
export type MirrorRow = ChainReservationRow;

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
      const last = JSON.stringify(value, (_, each) => (typeof each === "bigint" ? each.toString() : each));
      throw new Error(`condition not met within ${timeoutMs} ms; last value: ${last}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    value = await read();
  }
  return value;
}

/** One reading of a chain's mirror: its rows (as JSON, amounts as text) and the progress its checkpoint claims. */
export interface MirrorSample {
  rows: Record<string, string | number | null>[];
  indexedNumber: bigint;
  rewoundFrom: bigint | null;
}

/** `chain`'s rows and checkpoint, read in one statement: one snapshot, as a revert moves both at once. */
export async function mirrorSample(pool: Pool, chain: string): Promise<MirrorSample> {
  const { rows } = await pool.query<{
    rows: MirrorSample["rows"] | null;
    indexed_number: string | null;
    rewound_from: string | null;
  }>(
    `SELECT c.indexed_number, c.rewound_from,
            (SELECT json_agg(r ORDER BY r.name_hash, r.ticker_hash) FROM (
               SELECT name_hash, ticker_hash, normalized_name, normalized_ticker, launcher, reserved_at, expires_at, duration_seconds,
                      fee_paid::text AS fee_paid, partner_ref, tx_hash, block_number::text AS block_number
                 FROM chain_reservations WHERE chain = $1) r) AS rows
       FROM (SELECT $1::text AS chain) k LEFT JOIN chain_checkpoints c ON c.chain = k.chain`,
    [chain],
  );
  const row = rows[0];
  return {
    rows: row?.rows ?? [],
    indexedNumber: BigInt(row?.indexed_number ?? -1),
    rewoundFrom: row?.rewound_from == null ? null : BigInt(row.rewound_from),
  };
}

/** Reads `chain`'s mirror every `everyMs` until stopped; resolves with every sample, in order. */
export function sampleMirror(
  pool: Pool,
  chain: string,
  everyMs: number,
): { stop(): Promise<MirrorSample[]> } {
  const samples: MirrorSample[] = [];
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      samples.push(await mirrorSample(pool, chain));
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return samples;
    },
  };
}
