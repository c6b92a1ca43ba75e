// Applies a batch of program transactions to the read model: the reservation accounts they wrote, as read after
// them, with the transactions and the cursor, in the caller's database transaction. Rows hold account state (what
// is, not a history of changes), so applying a batch again after a crash writes the same rows again.
import type { PoolClient } from "pg";
import type { ReservationAccount } from "../../chains/solana/accounts";
import type { AppliedTransaction } from "./writtenAccounts";

/** An account a batch wrote: its state read after the batch (null: it holds no reservation) and its writer. */
export interface MirroredAccount {
  address: string;
  reservation: ReservationAccount | null;
  /** The newest transaction of the batch that wrote it: the row's tx_hash and block_number. */
  writer: AppliedTransaction;
}

const NO_PARTNER_REF = `0x${"0".repeat(64)}`;

/**
 * Mirrors `accounts` and records `txs` (oldest first) as applied, moving the cursor to the last one: a reservation
 * account's row is written from its state; an account that holds no reservation (closed, or never one) removes the
 * row it had.
 */
export async function applyBatch(
  client: PoolClient,
  chain: string,
  txs: readonly AppliedTransaction[],
  accounts: readonly MirroredAccount[],
): Promise<void> {
  const last = txs.at(-1);
  if (!last) return;
  await client.query(
    `INSERT INTO solana_applied_transactions (chain, signature, slot)
     SELECT $1, signature, slot FROM unnest($2::text[], $3::bigint[]) AS batch(signature, slot)
     ON CONFLICT DO NOTHING`,
    [chain, txs.map((tx) => tx.signature), txs.map((tx) => tx.slot)],
  );
  for (const account of accounts) {
    if (account.reservation) await upsertReservation(client, chain, account, account.reservation);
  }
  const emptied = accounts
    .filter((account) => account.reservation === null)
    .map((account) => account.address);
  if (emptied.length > 0) {
    await client.query("DELETE FROM chain_reservations WHERE chain = $1 AND reservation_account = ANY($2)", [
      chain,
      emptied,
    ]);
  }
  await client.query(
    `INSERT INTO solana_cursors (chain, signature, slot) VALUES ($1, $2, $3)
     ON CONFLICT (chain) DO UPDATE SET signature = EXCLUDED.signature, slot = EXCLUDED.slot, updated_at = now()`,
    [chain, last.signature, last.slot],
  );
}

async function upsertReservation(
  client: PoolClient,
  chain: string,
  { address, writer }: MirroredAccount,
  reservation: ReservationAccount,
): Promise<void> {
  await client.query(
    `INSERT INTO chain_reservations (chain, name_hash, ticker_hash, normalized_name, normalized_ticker, launcher,
       reserved_at, expires_at, duration_seconds, fee_paid, partner_ref, tx_hash, block_number, reservation_account,
       updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, to_timestamp($7), to_timestamp($8), $9, $10, $11, $12, $13, $14, now())
     ON CONFLICT (chain, name_hash, ticker_hash) DO UPDATE SET
       normalized_name = EXCLUDED.normalized_name, normalized_ticker = EXCLUDED.normalized_ticker,
       launcher = EXCLUDED.launcher, reserved_at = EXCLUDED.reserved_at, expires_at = EXCLUDED.expires_at,
       duration_seconds = EXCLUDED.duration_seconds, fee_paid = EXCLUDED.fee_paid,
       partner_ref = EXCLUDED.partner_ref, tx_hash = EXCLUDED.tx_hash, block_number = EXCLUDED.block_number,
       reservation_account = EXCLUDED.reservation_account, updated_at = now()`,
    [
      chain,
      reservation.nameHash,
      reservation.tickerHash,
      reservation.name,
      reservation.ticker,
      reservation.launcher.toBase58(),
      reservation.reservedAt.toString(),
      reservation.expiresAt.toString(),
      // The whole window: the reserved duration plus every renewal, which move only the expiry.
      Number(reservation.expiresAt - reservation.reservedAt),
      reservation.feeLamports.toString(),
      reservation.partnerRef === NO_PARTNER_REF ? null : reservation.partnerRef,
      writer.signature,
      writer.slot,
      address,
    ],
  );
}
