// On-chain reservations from the indexers' read model (chain_reservations), production data only.
import type { Pool } from "pg";
import { addressKey } from "../../core/address/equality";

export interface ReservationRow {
  chain: string;
  normalized_name: string;
  normalized_ticker: string;
  name_hash: string;
  ticker_hash: string;
  launcher: string;
  reserved_at: Date;
  expires_at: Date;
  duration_seconds: number;
  tx_hash: string;
  block_number: string;
}

const RESERVATION_COLUMNS = `chain, normalized_name, normalized_ticker, name_hash, ticker_hash, launcher, reserved_at,
  expires_at, duration_seconds, tx_hash, block_number`;

export async function reservationsOfWallet(pool: Pool, wallet: string): Promise<ReservationRow[]> {
  const { rows } = await pool.query<ReservationRow>(
    `SELECT ${RESERVATION_COLUMNS} FROM chain_reservations WHERE launcher = $1
     ORDER BY reserved_at DESC, chain, name_hash, ticker_hash`,
    [addressKey(wallet)],
  );
  return rows;
}
