// Applies a batch of program transactions to the read model: the reservation accounts they wrote, as read after
// them, with the transactions and the cursor. Rows hold account state (what is, not a history of changes), so
// applying a batch again after a crash writes the same rows again. One statement, so one round trip and its own
// transaction: a reservation's row waits on every round trip of the pass before it (the copycat window).
import type { Pool, PoolClient } from "pg";
import type { ReservationAccount } from "../../chains/solana/accounts";
import {
  CHAIN_RESERVATION_PARAMETER_COUNT,
  chainReservationParameters,
  type MirroredReservation,
  upsertChainReservationsSql,
} from "../../storage/chainReservations";
import type { AppliedTransaction } from "./writtenAccounts";

/** An account a batch wrote: its state read after the batch (null: it holds no reservation) and its writer. */
export interface MirroredAccount {
  address: string;
  reservation: ReservationAccount | null;
  /** The newest transaction of the batch that wrote it: the row's tx_hash and block_number. */
  writer: AppliedTransaction;
}

const NO_PARTNER_REF = `0x${"0".repeat(64)}`;

/** The emptied accounts' parameter: after the chain, the transactions' two and the mirrored rows' columns. */
const EMPTIED = 4 + CHAIN_RESERVATION_PARAMETER_COUNT;

// Its parts see one snapshot and never touch the same row: each account is the program's address of one identity,
// so an account the batch emptied and one it wrote hold different rows, as do any two it wrote.
const APPLY_BATCH = `
WITH applied AS (
  INSERT INTO solana_applied_transactions (chain, signature, slot)
  SELECT $1, signature, slot FROM unnest($2::text[], $3::bigint[]) AS batch(signature, slot)
  ON CONFLICT DO NOTHING
), mirrored AS (
  ${upsertChainReservationsSql("$1", 4)}
), emptied AS (
  DELETE FROM chain_reservations WHERE chain = $1 AND reservation_account = ANY($${EMPTIED}::text[])
)
INSERT INTO solana_cursors (chain, signature, slot) VALUES ($1, $${EMPTIED + 1}, $${EMPTIED + 2})
ON CONFLICT (chain) DO UPDATE SET signature = EXCLUDED.signature, slot = EXCLUDED.slot, updated_at = now()`;

/**
 * Mirrors `accounts` and records `txs` (oldest first) as applied, moving the cursor to the last one: a reservation
 * account's row is written from its state; an account that holds no reservation (closed, or never one) removes the
 * row it had.
 */
export async function applyBatch(
  db: Pool | PoolClient,
  chain: string,
  txs: readonly AppliedTransaction[],
  accounts: readonly MirroredAccount[],
): Promise<void> {
  const last = txs.at(-1);
  if (!last) return;
  const rows = accounts.flatMap((account) =>
    account.reservation ? [mirroredRow(chain, account, account.reservation)] : [],
  );
  await db.query(APPLY_BATCH, [
    chain,
    txs.map((tx) => tx.signature),
    txs.map((tx) => tx.slot),
    ...chainReservationParameters(rows),
    accounts.filter((account) => account.reservation === null).map((account) => account.address),
    last.signature,
    last.slot,
  ]);
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
