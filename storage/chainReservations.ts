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

/** How many parameters chainReservationParameters gives (a column array each). */
export const CHAIN_RESERVATION_PARAMETER_COUNT = 13;

/**
 * Inserts rows of chain `chain` (a parameter, `$1`) or overwrites their pair's row: idempotent, rows hold state,
 * not a history. The rows come as column arrays (chainReservationParameters) from parameter `$first` on. A
 * statement, or a CTE of a larger one (the Solana indexer writes a batch in one statement).
 */
export function upsertChainReservationsSql(chain: string, first: number): string {
  const p = (offset: number) => `$${first + offset}`;
  return `INSERT INTO chain_reservations (chain, name_hash, ticker_hash, normalized_name, normalized_ticker, launcher,
    reserved_at, expires_at, duration_seconds, fee_paid, partner_ref, tx_hash, block_number, reservation_account,
    updated_at)
  SELECT ${chain}, name_hash, ticker_hash, normalized_name, normalized_ticker, launcher, to_timestamp(reserved_at),
    to_timestamp(expires_at), duration_seconds, fee_paid, partner_ref, tx_hash, block_number, reservation_account,
    now()
  FROM unnest(${p(0)}::text[], ${p(1)}::text[], ${p(2)}::text[], ${p(3)}::text[], ${p(4)}::text[],
    ${p(5)}::double precision[], ${p(6)}::double precision[], ${p(7)}::integer[], ${p(8)}::numeric[], ${p(9)}::text[],
    ${p(10)}::text[], ${p(11)}::bigint[], ${p(12)}::text[])
    AS mirrored_row(name_hash, ticker_hash, normalized_name, normalized_ticker, launcher, reserved_at, expires_at,
      duration_seconds, fee_paid, partner_ref, tx_hash, block_number, reservation_account)
  ON CONFLICT (chain, name_hash, ticker_hash) DO UPDATE SET
    normalized_name = EXCLUDED.normalized_name, normalized_ticker = EXCLUDED.normalized_ticker,
    launcher = EXCLUDED.launcher, reserved_at = EXCLUDED.reserved_at, expires_at = EXCLUDED.expires_at,
    duration_seconds = EXCLUDED.duration_seconds, fee_paid = EXCLUDED.fee_paid,
    partner_ref = EXCLUDED.partner_ref, tx_hash = EXCLUDED.tx_hash, block_number = EXCLUDED.block_number,
    reservation_account = EXCLUDED.reservation_account, updated_at = now()`;
}

/** The column arrays of `rows` for upsertChainReservationsSql, in its order. */
export function chainReservationParameters(rows: readonly MirroredReservation[]): unknown[] {
  const column = <T>(value: (row: MirroredReservation) => T) => rows.map(value);
  return [
    column((row) => row.nameHash),
    column((row) => row.tickerHash),
    column((row) => row.normalizedName),
    column((row) => row.normalizedTicker),
    column((row) => row.launcher),
    column((row) => seconds(row.reservedAt)),
    column((row) => seconds(row.expiresAt)),
    column((row) => row.durationSeconds),
    column((row) => row.feePaid.toString()),
    column((row) => row.partnerRef),
    column((row) => row.txHash),
    column((row) => row.blockNumber),
    column((row) => row.reservationAccount),
  ];
}

/** Inserts the pair's row or overwrites it with `row`. */
export async function upsertChainReservation(db: Pool | PoolClient, row: MirroredReservation): Promise<void> {
  await db.query(upsertChainReservationsSql("$1", 2), [row.chain, ...chainReservationParameters([row])]);
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
