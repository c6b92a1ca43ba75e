// Applies a batch of program transactions to the read model: the reservation accounts they wrote, as read after
// them, with the transactions and the cursor, in the caller's database transaction. Rows hold account state (what
// is, not a history of changes), so applying a batch again after a crash writes the same rows again.
import type { PoolClient } from "pg";
import type { ReservationAccount } from "../../chains/solana/accounts";
import { type MirroredReservation, upsertChainReservation } from "../../storage/chainReservations";
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
    if (account.reservation) {
      await upsertChainReservation(client, mirroredRow(chain, account, account.reservation));
    }
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

/** The row of a reservation account as read after the batch, written by its newest writer of the batch. */
function mirroredRow(
  chain: string,
  { address, writer }: MirroredAccount,
  reservation: ReservationAccount,
): MirroredReservation {
  return {
    chain,
    nameHash: reservation.nameHash,
    tickerHash: reservation.tickerHash,
    normalizedName: reservation.name,
    normalizedTicker: reservation.ticker,
    launcher: reservation.launcher.toBase58(),
    reservedAt: new Date(Number(reservation.reservedAt) * 1000),
    expiresAt: new Date(Number(reservation.expiresAt) * 1000),
    // The whole window: the reserved duration plus every renewal, which move only the expiry.
    durationSeconds: Number(reservation.expiresAt - reservation.reservedAt),
    feePaid: reservation.feeLamports,
    partnerRef: reservation.partnerRef === NO_PARTNER_REF ? null : reservation.partnerRef,
    txHash: writer.signature,
    blockNumber: writer.slot,
    reservationAccount: address,
  };
}
