// The reservations attributed to a partner in one environment with their ledger entry, newest first with cursor
// paging; and the sync: the partner's open prepares reconciled against the chain now, by the one reconciler
// (services/reservations/reconcile.ts) the worker runs.
import type { Pool } from "pg";
import type { RegistryCatalogue } from "../../chains/registryClient";
import { ApiError } from "../../core/errors/catalogue";
import type { ReservationStatus } from "../../core/reservation";
import { decodeCursor, pageOf } from "../pageCursor";
import type { ReservationOwner } from "../reservations";
import { reconcileReservation } from "../reservations/reconcile";
import { type Reservation, type ReservationRow, reservationOf } from "../reservations/record";
import type { LedgerStatus } from "./revenueLedger";

export interface AttributedQuery {
  status?: ReservationStatus | undefined;
  cursor?: string | undefined;
  limit: number;
}

export interface LedgerSummary {
  status: LedgerStatus;
  feeAmount: string;
  partnerAmount: string;
  partnerBps: number;
  introductory: boolean;
}

export interface AttributedReservation {
  reservation: Reservation;
  /** Null when the reservation has no ledger entry (a discrepancy: GET /v1/partner/revenue/reconcile). */
  ledger: LedgerSummary | null;
}

interface AttributedRow extends ReservationRow {
  ledger_status: LedgerStatus | null;
  ledger_fee_amount: string | null;
  ledger_partner_amount: string | null;
  ledger_partner_bps: number | null;
  ledger_introductory: boolean | null;
}

function attributedOf(row: AttributedRow): AttributedReservation {
  const ledger =
    row.ledger_status === null
      ? null
      : {
          status: row.ledger_status,
          feeAmount: row.ledger_fee_amount as string,
          partnerAmount: row.ledger_partner_amount as string,
          partnerBps: row.ledger_partner_bps as number,
          introductory: row.ledger_introductory as boolean,
        };
  return { reservation: reservationOf(row), ledger };
}

export async function attributedPage(
  pool: Pool,
  owner: ReservationOwner,
  query: AttributedQuery,
): Promise<{ rows: AttributedReservation[]; nextCursor: string | null }> {
  const after = decodeCursor(query.cursor);
  const { rows } = await pool.query<AttributedRow>(
    `SELECT r.*, l.status AS ledger_status, l.fee_amount AS ledger_fee_amount,
            l.partner_amount AS ledger_partner_amount, l.partner_bps AS ledger_partner_bps,
            l.introductory AS ledger_introductory
       FROM reservations r LEFT JOIN partner_ledger_entries l ON l.reservation_id = r.reservation_id
      WHERE r.partner_id = $1 AND r.environment = $2 AND ($3::text IS NULL OR r.status = $3)
        AND ($4::timestamptz IS NULL OR (r.prepared_at, r.reservation_id) < ($4, $5))
      ORDER BY r.prepared_at DESC, r.reservation_id DESC LIMIT $6`,
    [
      owner.partnerId,
      owner.environment,
      query.status ?? null,
      after?.at ?? null,
      after?.id ?? null,
      query.limit + 1,
    ],
  );
  return pageOf(rows.map(attributedOf), query.limit, ({ reservation }) => ({
    at: reservation.preparedAt,
    id: reservation.reservationId,
  }));
}

/** Open prepares reconciled per sync call, newest first: a sync stays bounded. */
export const SYNC_BATCH = 50;

export interface SyncResult {
  /** Open prepares asked about. */
  checked: number;
  /** Of those, how many changed status, by their new status. */
  changed: Partial<Record<ReservationStatus, number>>;
}

/** Reconciles the owner's open prepares against the chain now (one at a time: each may ask the chain). */
export async function syncOpenReservations(
  pool: Pool,
  registries: RegistryCatalogue | undefined,
  owner: ReservationOwner,
  now: () => Date,
): Promise<SyncResult> {
  if (registries === undefined) {
    throw new ApiError("service_unavailable", "No chain registries are configured on this service.", {
      cause: "registries",
    });
  }
  const { rows } = await pool.query<{ reservation_id: string; status: ReservationStatus }>(
    `SELECT reservation_id, status FROM reservations
      WHERE partner_id = $1 AND environment = $2 AND status IN ('pending_payment', 'submitted')
      ORDER BY prepared_at DESC LIMIT $3`,
    [owner.partnerId, owner.environment, SYNC_BATCH],
  );
  const changed: SyncResult["changed"] = {};
  for (const row of rows) {
    const after = await reconcileReservation({ pool, registries, now }, row.reservation_id);
    if (after !== undefined && after.status !== row.status) {
      changed[after.status] = (changed[after.status] ?? 0) + 1;
    }
  }
  return { checked: rows.length, changed };
}
