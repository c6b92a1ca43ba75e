// A pair's row in the read model (`chain_reservations`) as TypeScript reads and writes it: the one write (the
// Solana indexer mirrors its accounts through it, and the identity check a reservation transaction a caller
// passed: services/mirror/reservationTransaction.ts) and the one reading of a row (the hold announcements, the
// transaction check). It lives in storage/ because indexers may not import services/.
// The EVM indexer's trigger (indexer/evm/src/mirrorTrigger.ts) writes the same columns with the same conflict
// rule in SQL, inside Ponder's transactions.
import type { Pool, PoolClient } from "pg";

/** A pair's row as the registry holds it now: the reservation or its newest renewal. */
export interface MirroredReservation {
  chain: string;
  /** bytes32 hex, lowercase. */
  nameHash: string;
  tickerHash: string;
  normalizedName: string;
  normalizedTicker: string;
  /** EVM: lowercase 0x address; Solana: base58. */
  launcher: string;
  reservedAt: Date;
  expiresAt: Date;
  /** The whole window: the reserved duration plus every renewal. */
  durationSeconds: number;
  /** Running total in the chain's smallest unit. */
  feePaid: bigint;
  partnerRef: string | null;
  /** The transaction and block (slot) that produced this state. */
  txHash: string;
  blockNumber: number;
  /** Solana only: the Reservation account the row mirrors; null on EVM. */
  reservationAccount: string | null;
}

const seconds = (instant: Date) => instant.getTime() / 1000;

/** Inserts the pair's row or overwrites it with `row`: idempotent, rows hold state, not a history. */
export async function upsertChainReservation(db: Pool | PoolClient, row: MirroredReservation): Promise<void> {
  await db.query(
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
      row.chain,
      row.nameHash,
      row.tickerHash,
      row.normalizedName,
      row.normalizedTicker,
      row.launcher,
      seconds(row.reservedAt),
      seconds(row.expiresAt),
      row.durationSeconds,
      row.feePaid.toString(),
      row.partnerRef,
      row.txHash,
      row.blockNumber,
      row.reservationAccount,
    ],
  );
}

/** The row's columns as `chainReservationOf` reads them (numeric columns as text: bigint range). */
export const CHAIN_RESERVATION_COLUMNS = `chain, name_hash, ticker_hash, normalized_name, normalized_ticker, launcher,
  reserved_at, expires_at, duration_seconds, fee_paid::text AS fee_paid, partner_ref, tx_hash,
  block_number::text AS block_number, reservation_account`;

export interface ChainReservationRow {
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
  reservation_account: string | null;
}

export function chainReservationOf(row: ChainReservationRow): MirroredReservation {
  return {
    chain: row.chain,
    nameHash: row.name_hash,
    tickerHash: row.ticker_hash,
    normalizedName: row.normalized_name,
    normalizedTicker: row.normalized_ticker,
    launcher: row.launcher,
    reservedAt: row.reserved_at,
    expiresAt: row.expires_at,
    durationSeconds: Number(row.duration_seconds),
    feePaid: BigInt(row.fee_paid),
    partnerRef: row.partner_ref,
    txHash: row.tx_hash,
    blockNumber: Number(row.block_number),
    reservationAccount: row.reservation_account,
  };
}
