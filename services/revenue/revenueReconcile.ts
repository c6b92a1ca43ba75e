// The soft prepare-to-ledger check: every confirmed reservation attributed to the partner has exactly one accrued
// ledger entry (the primary key allows at most one) at the fee the chain charged and the split of its snapshot,
// and every accrued entry belongs to a confirmed reservation of the same partner. Read-only: it lists what does
// not hold, it changes nothing (the reconciler and an operator fix the cause).
import type { Pool } from "pg";
import type { ReservationOwner } from "../reservations";

export const DISCREPANCY_KINDS = [
  "missing_entry",
  "attribution_mismatch",
  "accrued_unconfirmed",
  "not_accrued",
  "fee_mismatch",
  "split_mismatch",
] as const;
export type DiscrepancyKind = (typeof DISCREPANCY_KINDS)[number];

export interface Discrepancy {
  kind: DiscrepancyKind;
  reservationId: string;
  chain: string;
  reservationStatus: string;
  /** What the chain charged (the reservation's settled fee); null before confirmation. */
  feePaid: string | null;
  ledgerStatus: string | null;
  ledgerFeeAmount: string | null;
  ledgerPartnerAmount: string | null;
  ledgerPartnerBps: number | null;
  /** The split the reservation's immutable snapshot names. */
  snapshotPartnerBps: number;
}

export interface ReconcileReport {
  confirmedReservations: number;
  accruedEntries: number;
  consistent: boolean;
  discrepancies: Discrepancy[];
  /** More discrepancies than listed. */
  truncated: boolean;
}

/** Listed per answer; the rest are counted by `truncated`. */
const MAX_LISTED = 100;

interface CheckRow {
  kind: DiscrepancyKind | null;
  reservation_id: string;
  chain: string;
  status: string;
  fee_paid: string | null;
  ledger_status: string | null;
  fee_amount: string | null;
  partner_amount: string | null;
  partner_bps: number | null;
  snapshot_bps: number;
}

export async function reconcileRevenue(pool: Pool, owner: ReservationOwner): Promise<ReconcileReport> {
  const { rows } = await pool.query<CheckRow>(
    `WITH ids AS (
       SELECT reservation_id FROM reservations
        WHERE partner_id = $1 AND environment = $2 AND confirmed_at IS NOT NULL
       UNION
       SELECT reservation_id FROM partner_ledger_entries
        WHERE partner_id = $1 AND environment = $2 AND status = 'accrued')
     SELECT * FROM (
     SELECT r.reservation_id, r.prepared_at, r.chain, r.status, r.fee_paid::text AS fee_paid,
            l.status AS ledger_status,
            l.fee_amount::text AS fee_amount, l.partner_amount::text AS partner_amount, l.partner_bps,
            (r.revenue_share->>'partnerBps')::int AS snapshot_bps,
            CASE
              WHEN l.reservation_id IS NULL THEN 'missing_entry'
              WHEN r.partner_id IS DISTINCT FROM l.partner_id OR r.environment <> l.environment
                THEN 'attribution_mismatch'
              WHEN r.confirmed_at IS NULL THEN 'accrued_unconfirmed'
              WHEN l.status <> 'accrued' THEN 'not_accrued'
              WHEN l.fee_amount IS DISTINCT FROM r.fee_paid THEN 'fee_mismatch'
              WHEN l.partner_bps <> (r.revenue_share->>'partnerBps')::int
                OR l.partner_amount <> div(l.fee_amount * l.partner_bps, 10000) THEN 'split_mismatch'
            END AS kind
       FROM ids JOIN reservations r ON r.reservation_id = ids.reservation_id
       LEFT JOIN partner_ledger_entries l ON l.reservation_id = ids.reservation_id
     ) AS checked WHERE kind IS NOT NULL
      ORDER BY prepared_at, reservation_id LIMIT $3`,
    [owner.partnerId, owner.environment, MAX_LISTED + 1],
  );
  const counts = await pool.query<{ confirmed: number; accrued: number }>(
    `SELECT (SELECT count(*) FROM reservations
              WHERE partner_id = $1 AND environment = $2 AND confirmed_at IS NOT NULL)::int AS confirmed,
            (SELECT count(*) FROM partner_ledger_entries
              WHERE partner_id = $1 AND environment = $2 AND status = 'accrued')::int AS accrued`,
    [owner.partnerId, owner.environment],
  );
  const found = rows as (CheckRow & { kind: DiscrepancyKind })[];
  return {
    confirmedReservations: counts.rows[0]?.confirmed ?? 0,
    accruedEntries: counts.rows[0]?.accrued ?? 0,
    consistent: found.length === 0,
    discrepancies: found.slice(0, MAX_LISTED).map((row) => ({
      kind: row.kind,
      reservationId: row.reservation_id,
      chain: row.chain,
      reservationStatus: row.status,
      feePaid: row.fee_paid,
      ledgerStatus: row.ledger_status,
      ledgerFeeAmount: row.fee_amount,
      ledgerPartnerAmount: row.partner_amount,
      ledgerPartnerBps: row.partner_bps,
      snapshotPartnerBps: row.snapshot_bps,
    })),
    truncated: found.length > MAX_LISTED,
  };
}
