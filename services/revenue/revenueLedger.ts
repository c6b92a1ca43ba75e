// The partner's revenue ledger as it reads it: entries of its environment (accrued by default), newest first with
// cursor paging, and totals of the accrued entries per chain and asset. Amounts are decimal strings (they exceed
// 2^53). Written by services/reservations/ledger.ts only.
import type { Pool } from "pg";
import { decodeCursor, pageOf } from "../pageCursor";
import type { ReservationOwner } from "../reservations";

export type LedgerStatus = "draft" | "accrued" | "void";

export interface RevenueQuery {
  status: LedgerStatus;
  chain?: string | undefined;
  cursor?: string | undefined;
  limit: number;
}

export interface RevenueEntry {
  reservationId: string;
  status: LedgerStatus;
  chain: string;
  unit: "wei" | "lamports";
  launchpad: string | null;
  feeAmount: string;
  partnerAmount: string;
  serviceAmount: string;
  usdMicros: string;
  partnerUsdMicros: string;
  partnerBps: number;
  serviceBps: number;
  introductory: boolean;
  payoutPlanId: string | null;
  createdAt: Date;
  accruedAt: Date | null;
  voidedAt: Date | null;
}

export interface RevenueTotal {
  chain: string;
  unit: "wei" | "lamports";
  entries: number;
  feeAmount: string;
  partnerAmount: string;
  serviceAmount: string;
  partnerUsdMicros: string;
  /** Of the partner amount: planned into a payout plan, and not yet. */
  plannedPartnerAmount: string;
  unplannedPartnerAmount: string;
}

interface EntryRow {
  reservation_id: string;
  status: LedgerStatus;
  chain: string;
  unit: "wei" | "lamports";
  launchpad: string | null;
  fee_amount: string;
  partner_amount: string;
  usd_micros: string;
  partner_usd_micros: string;
  partner_bps: number;
  service_bps: number;
  introductory: boolean;
  payout_plan_id: string | null;
  created_at: Date;
  accrued_at: Date | null;
  voided_at: Date | null;
}

const entryOf = (row: EntryRow): RevenueEntry => ({
  reservationId: row.reservation_id,
  status: row.status,
  chain: row.chain,
  unit: row.unit,
  launchpad: row.launchpad,
  feeAmount: row.fee_amount,
  partnerAmount: row.partner_amount,
  serviceAmount: (BigInt(row.fee_amount) - BigInt(row.partner_amount)).toString(),
  usdMicros: row.usd_micros,
  partnerUsdMicros: row.partner_usd_micros,
  partnerBps: row.partner_bps,
  serviceBps: row.service_bps,
  introductory: row.introductory,
  payoutPlanId: row.payout_plan_id,
  createdAt: row.created_at,
  accruedAt: row.accrued_at,
  voidedAt: row.voided_at,
});

export async function revenuePage(
  pool: Pool,
  owner: ReservationOwner,
  query: RevenueQuery,
): Promise<{ rows: RevenueEntry[]; nextCursor: string | null }> {
  const after = decodeCursor(query.cursor);
  const { rows } = await pool.query<EntryRow>(
    `SELECT reservation_id, status, chain, unit, launchpad, fee_amount, partner_amount, usd_micros,
            partner_usd_micros, partner_bps, service_bps, introductory, payout_plan_id, created_at, accrued_at,
            voided_at
       FROM partner_ledger_entries
      WHERE partner_id = $1 AND environment = $2 AND status = $3 AND ($4::text IS NULL OR chain = $4)
        AND ($5::timestamptz IS NULL OR (created_at, reservation_id) < ($5, $6))
      ORDER BY created_at DESC, reservation_id DESC LIMIT $7`,
    [
      owner.partnerId,
      owner.environment,
      query.status,
      query.chain ?? null,
      after?.at ?? null,
      after?.id ?? null,
      query.limit + 1,
    ],
  );
  return pageOf(rows.map(entryOf), query.limit, (entry) => ({
    at: entry.createdAt,
    id: entry.reservationId,
  }));
}

interface TotalRow {
  chain: string;
  unit: "wei" | "lamports";
  entries: number;
  fee_amount: string;
  partner_amount: string;
  partner_usd_micros: string;
  planned_partner_amount: string;
}

/** Totals of the owner's accrued entries per chain and asset. */
export async function accruedTotals(pool: Pool, owner: ReservationOwner): Promise<RevenueTotal[]> {
  const { rows } = await pool.query<TotalRow>(
    `SELECT chain, unit, count(*)::int AS entries, sum(fee_amount)::text AS fee_amount,
            sum(partner_amount)::text AS partner_amount, sum(partner_usd_micros)::text AS partner_usd_micros,
            coalesce(sum(partner_amount) FILTER (WHERE payout_plan_id IS NOT NULL), 0)::text AS planned_partner_amount
       FROM partner_ledger_entries
      WHERE partner_id = $1 AND environment = $2 AND status = 'accrued'
      GROUP BY chain, unit ORDER BY chain, unit`,
    [owner.partnerId, owner.environment],
  );
  return rows.map((row) => ({
    chain: row.chain,
    unit: row.unit,
    entries: row.entries,
    feeAmount: row.fee_amount,
    partnerAmount: row.partner_amount,
    serviceAmount: (BigInt(row.fee_amount) - BigInt(row.partner_amount)).toString(),
    partnerUsdMicros: row.partner_usd_micros,
    plannedPartnerAmount: row.planned_partner_amount,
    unplannedPartnerAmount: (BigInt(row.partner_amount) - BigInt(row.planned_partner_amount)).toString(),
  }));
}
