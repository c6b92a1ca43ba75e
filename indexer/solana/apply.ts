// Applies program transactions to the read model exactly once: each signature is recorded in the same
// database transaction as its effects and the cursor, so a crash or a repeated pass cannot apply it twice.
import type { PoolClient } from "pg";
import type { RegistryEvent } from "../../chains/solana/events";

export interface ProgramTransaction {
  signature: string;
  slot: number;
  events: RegistryEvent[];
}

/**
 * Applies `txs` (oldest first) in the caller's database transaction and moves the cursor to the last one.
 * Signatures already recorded are skipped, so a batch replayed after a crash changes nothing twice.
 * Returns how many transactions were newly applied.
 */
export async function applyTransactions(
  client: PoolClient,
  chain: string,
  txs: readonly ProgramTransaction[],
): Promise<number> {
  const last = txs.at(-1);
  if (!last) return 0;
  const inserted = await client.query<{ signature: string }>(
    `INSERT INTO solana_applied_transactions (chain, signature, slot)
     SELECT $1, signature, slot FROM unnest($2::text[], $3::bigint[]) AS batch(signature, slot)
     ON CONFLICT DO NOTHING
     RETURNING signature`,
    [chain, txs.map((tx) => tx.signature), txs.map((tx) => tx.slot)],
  );
  const fresh = new Set(inserted.rows.map((row) => row.signature));
  for (const tx of txs) {
    if (!fresh.has(tx.signature)) continue;
    for (const event of tx.events) await applyEvent(client, chain, tx, event);
  }
  await client.query(
    `INSERT INTO solana_cursors (chain, signature, slot) VALUES ($1, $2, $3)
     ON CONFLICT (chain) DO UPDATE SET signature = EXCLUDED.signature, slot = EXCLUDED.slot, updated_at = now()`,
    [chain, last.signature, last.slot],
  );
  return fresh.size;
}

async function applyEvent(client: PoolClient, chain: string, tx: ProgramTransaction, event: RegistryEvent) {
  if (event.kind === "created") {
    await client.query(
      `INSERT INTO chain_reservations (chain, name_hash, ticker_hash, normalized_name, normalized_ticker, launcher,
         reserved_at, expires_at, duration_seconds, fee_paid, partner_ref, tx_hash, block_number, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, to_timestamp($7), to_timestamp($8), $9, $10, $11, $12, $13, now())
       ON CONFLICT (chain, name_hash, ticker_hash) DO UPDATE SET
         normalized_name = EXCLUDED.normalized_name, normalized_ticker = EXCLUDED.normalized_ticker,
         launcher = EXCLUDED.launcher, reserved_at = EXCLUDED.reserved_at, expires_at = EXCLUDED.expires_at,
         duration_seconds = EXCLUDED.duration_seconds, fee_paid = EXCLUDED.fee_paid,
         partner_ref = EXCLUDED.partner_ref, tx_hash = EXCLUDED.tx_hash, block_number = EXCLUDED.block_number,
         updated_at = now()`,
      [
        chain,
        event.nameHash,
        event.tickerHash,
        event.normalizedName,
        event.normalizedTicker,
        event.launcher,
        event.reservedAt.toString(),
        event.expiresAt.toString(),
        Number(event.expiresAt - event.reservedAt),
        event.feeLamports.toString(),
        event.partnerRef,
        tx.signature,
        tx.slot,
      ],
    );
    return;
  }
  await client.query(
    `UPDATE chain_reservations SET expires_at = to_timestamp($4), duration_seconds = duration_seconds + $5,
       fee_paid = fee_paid + $6, tx_hash = $7, block_number = $8, updated_at = now()
     WHERE chain = $1 AND name_hash = $2 AND ticker_hash = $3`,
    [
      chain,
      event.nameHash,
      event.tickerHash,
      event.expiresAt.toString(),
      Number(event.durationSeconds),
      event.feeLamports.toString(),
      tx.signature,
      tx.slot,
    ],
  );
}
