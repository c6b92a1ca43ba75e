// Reading and writing `reservations` rows. Status changes go through `transition`, which names the states a row
// may leave (core/reservation canTransition) so two writers (API, worker replicas) never both move one row.
import type { Pool, PoolClient } from "pg";
import { sameOnChainSql } from "../../core/address/equality";
import type { Environment } from "../../core/environment";
import { canTransition, type ReservationStatus } from "../../core/reservation";
import type { PendingPrepare } from "../../core/status";
import { type Reservation, type ReservationRow, reservationOf } from "./record";

type Db = Pool | PoolClient;

/** The first row a statement returned, as a reservation; undefined when it matched none. */
function firstReservation(rows: ReservationRow[]): Reservation | undefined {
  const row = rows[0];
  return row === undefined ? undefined : reservationOf(row);
}

export async function insertReservation(client: Db, reservation: Reservation): Promise<void> {
  await client.query(
    `INSERT INTO reservations (reservation_id, environment, partner_id, api_key_id, launchpad, source, chain, family,
       kind, identity_key, normalized_name, normalized_ticker, name_hash, ticker_hash, launcher, duration_seconds,
       partner_ref, usd_micros, quote_amount, quote_unit, quote_expires_at, simulated, transaction, revenue_share,
       status, prepared_at, lapses_at, reveal)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22,
       $23, $24, $25, $26, $27, $28)`,
    [
      reservation.reservationId,
      reservation.environment,
      reservation.partnerId,
      reservation.apiKeyId,
      reservation.launchpad,
      reservation.source,
      reservation.chain,
      reservation.family,
      reservation.kind,
      reservation.identityKey,
      reservation.normalizedName,
      reservation.normalizedTicker,
      reservation.nameHash,
      reservation.tickerHash,
      reservation.launcher,
      reservation.durationSeconds,
      reservation.partnerRef,
      reservation.usdMicros.toString(),
      reservation.quoteAmount.toString(),
      reservation.quoteUnit,
      reservation.quoteExpiresAt,
      reservation.simulated,
      JSON.stringify(reservation.transaction),
      JSON.stringify(reservation.revenueShare),
      reservation.status,
      reservation.preparedAt,
      reservation.lapsesAt,
      reservation.reveal === null ? null : JSON.stringify(reservation.reveal),
    ],
  );
}

/** Records the commitment transaction a wallet reported; the first report stands (later ones change nothing). */
export async function recordCommitSubmission(
  db: Db,
  reservationId: string,
  transactionHash: string,
  now: Date,
): Promise<Reservation | undefined> {
  const { rows } = await db.query<ReservationRow>(
    `UPDATE reservations SET commit_transaction_hash = $2, commit_submitted_at = $3, updated_at = now()
      WHERE reservation_id = $1 AND status = 'pending_payment' AND commit_transaction_hash IS NULL
      RETURNING *`,
    [reservationId, transactionHash, now],
  );
  return firstReservation(rows);
}

/**
 * Records the hash a wallet reported for a reservation the mirror confirmed before the report came, when it is the
 * transaction of the mirror's hold of the pair by the reservation's launcher: a reorg that takes that block out then
 * waits for it (submitted) instead of for any payment. Any other hash changes nothing.
 */
export async function recordConfirmedSettlement(
  db: Db,
  reservationId: string,
  transactionHash: string,
  now: Date,
): Promise<Reservation | undefined> {
  const { rows } = await db.query<ReservationRow>(
    `UPDATE reservations r SET transaction_hash = $2, submitted_at = COALESCE(r.submitted_at, $3), updated_at = now()
      WHERE r.reservation_id = $1 AND r.status = 'confirmed' AND r.transaction_hash IS NULL
        AND EXISTS (SELECT 1 FROM chain_reservations hold
                     WHERE hold.chain = r.chain AND hold.name_hash = r.name_hash AND hold.ticker_hash = r.ticker_hash
                       AND ${sameOnChainSql("r.family", "hold.launcher", "r.launcher")}
                       AND ${sameOnChainSql("r.family", "hold.tx_hash", "$2")})
      RETURNING *`,
    [reservationId, transactionHash, now],
  );
  return firstReservation(rows);
}

/** The reservation, or undefined; `forUpdate` locks the row for the rest of the transaction. */
export async function reservationById(
  db: Db,
  reservationId: string,
  options: { environment?: Environment; forUpdate?: boolean } = {},
): Promise<Reservation | undefined> {
  const { rows } = await db.query<ReservationRow>(
    `SELECT * FROM reservations WHERE reservation_id = $1 AND ($2::text IS NULL OR environment = $2)
     ${options.forUpdate ? "FOR UPDATE" : ""}`,
    [reservationId, options.environment ?? null],
  );
  return firstReservation(rows);
}

/** Column values a transition sets besides status (snake_case column -> value; null clears a reopened window). */
export type TransitionFields = Partial<{
  status_reason: string | null;
  transaction_hash: string;
  submitted_at: Date;
  lapses_at: Date;
  confirmed_at: Date | null;
  starts_at: Date | null;
  expires_at: Date | null;
  fee_paid: string | null;
  finished_at: Date;
  settled_at: Date;
  expiring_notified_at: Date | null;
}>;

/**
 * Moves the reservation from `from` to `to` and sets `fields`; undefined when the row is no longer in `from`
 * (another writer got there first). Refuses transitions the reservation status table does not allow.
 */
export async function transition(
  client: Db,
  reservationId: string,
  from: ReservationStatus,
  to: ReservationStatus,
  fields: TransitionFields = {},
): Promise<Reservation | undefined> {
  if (from !== to && !canTransition(from, to))
    throw new Error(`reservation status ${from} cannot become ${to}`);
  const entries = Object.entries(fields);
  const assignments = entries.map(([column], index) => `${column} = $${index + 4}`);
  const { rows } = await client.query<ReservationRow>(
    `UPDATE reservations SET status = $3, updated_at = now()${assignments.map((a) => `, ${a}`).join("")}
     WHERE reservation_id = $1 AND status = $2 RETURNING *`,
    [reservationId, from, to, ...entries.map(([, value]) => value)],
  );
  return firstReservation(rows);
}

/**
 * The live prepares of an identity on a chain (awaiting payment or submitted, not lapsed): wallets told to pay.
 * They protect nothing; a lock report lets another wallet's defer it (core/status/lockBasis). In the sandbox only
 * `partnerId`'s own prepares count (each sandbox partner rehearses alone).
 */
export async function pendingPrepares(
  client: Db,
  environment: Environment,
  partnerId: string,
  identityKey: string,
  chain: string,
  now: Date,
): Promise<PendingPrepare[]> {
  const { rows } = await client.query<{ launcher: string; lapses_at: Date }>(
    `SELECT launcher, lapses_at FROM reservations
      WHERE environment = $1 AND identity_key = $2 AND chain = $3 AND status IN ('pending_payment', 'submitted')
        AND lapses_at > $4 AND (environment = 'production' OR partner_id = $5)`,
    [environment, identityKey, chain, now, partnerId],
  );
  return rows.map((row) => ({ launcher: row.launcher, lapsesAt: row.lapses_at }));
}
