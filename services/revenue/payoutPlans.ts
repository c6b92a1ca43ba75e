// Daily payout plans from the accrued ledger. The plan of UTC day D gathers, per partner and environment, every
// accrued entry not yet planned that accrued before D ended (so an entry missed by an earlier day's plan lands
// in the next one, and each entry in exactly one plan), with one line per chain and asset routed to the
// partner's verified wallet of the chain's family when its routing says so (partners.payout_routing).
// Building is idempotent: a plan's (environment, partner, day) is unique and a second build of the day inserts
// nothing. Payouts are gated off: plans stay `planned`; queueing and paying them is not part of this service.
import type { Pool } from "pg";
import { withTransaction } from "../../storage/transaction";
import { decodeCursor, pageOf } from "../pageCursor";
import type { ReservationOwner } from "../reservations";

const DAY_MS = 86_400_000;

/** The UTC day (YYYY-MM-DD) that ended last before `now`: the day the worker plans. */
export function lastCompleteDay(now: Date): string {
  return new Date(now.getTime() - DAY_MS).toISOString().slice(0, 10);
}

const dayEnd = (planDate: string) => new Date(Date.parse(`${planDate}T00:00:00Z`) + DAY_MS);

/** Builds the plans of `planDate` that do not exist yet; how many it built. */
export async function buildPayoutPlans(pool: Pool, planDate: string, now: Date): Promise<number> {
  return withTransaction(pool, async (client) => {
    const end = dayEnd(planDate);
    const { rows } = await client.query<{ plan_id: string }>(
      `INSERT INTO payout_plans (plan_id, environment, partner_id, plan_date, status, created_at)
       SELECT 'pp_' || replace(gen_random_uuid()::text, '-', ''), environment, partner_id, $1::date, 'planned', $3
         FROM (SELECT DISTINCT environment, partner_id FROM partner_ledger_entries
                WHERE status = 'accrued' AND payout_plan_id IS NULL AND accrued_at < $2) AS owners
       ON CONFLICT (environment, partner_id, plan_date) DO NOTHING
       RETURNING plan_id`,
      [planDate, end, now],
    );
    const planIds = rows.map((row) => row.plan_id);
    if (planIds.length === 0) return 0;
    await client.query(
      `UPDATE partner_ledger_entries l SET payout_plan_id = p.plan_id FROM payout_plans p
        WHERE p.plan_id = ANY($1) AND l.environment = p.environment AND l.partner_id = p.partner_id
          AND l.status = 'accrued' AND l.payout_plan_id IS NULL AND l.accrued_at < $2`,
      [planIds, end],
    );
    await client.query(
      `INSERT INTO payout_plan_lines (plan_id, chain, unit, entry_count, partner_amount, partner_usd_micros,
         wallet_address)
       SELECT l.payout_plan_id, l.chain, l.unit, count(*), sum(l.partner_amount), sum(l.partner_usd_micros),
              (SELECT w.address FROM payout_wallets w JOIN partners pa ON pa.partner_id = w.partner_id
                WHERE pa.payout_routing = 'verified_wallets' AND w.environment = l.environment
                  AND w.partner_id = l.partner_id AND w.family = r.family AND w.status = 'verified')
         FROM partner_ledger_entries l JOIN reservations r ON r.reservation_id = l.reservation_id
        WHERE l.payout_plan_id = ANY($1)
        GROUP BY l.payout_plan_id, l.environment, l.partner_id, l.chain, l.unit, r.family`,
      [planIds],
    );
    // A concurrent build of another day may have taken the entries first: a plan without lines is no plan.
    const { rowCount } = await client.query(
      `DELETE FROM payout_plans p WHERE p.plan_id = ANY($1)
          AND NOT EXISTS (SELECT 1 FROM payout_plan_lines x WHERE x.plan_id = p.plan_id)`,
      [planIds],
    );
    return planIds.length - (rowCount ?? 0);
  });
}

export type PlanStatus = "planned" | "queued" | "paid";

export interface PlanLine {
  chain: string;
  unit: "wei" | "lamports";
  entries: number;
  partnerAmount: string;
  partnerUsdMicros: string;
  /** The verified wallet the line is routed to; null: held on the ledger (routing `held` or no verified wallet). */
  walletAddress: string | null;
}

export interface PayoutPlan {
  planId: string;
  planDate: string;
  status: PlanStatus;
  createdAt: Date;
  queuedAt: Date | null;
  paidAt: Date | null;
  lines: PlanLine[];
}

interface PlanRow {
  plan_id: string;
  plan_date: string;
  status: PlanStatus;
  created_at: Date;
  queued_at: Date | null;
  paid_at: Date | null;
  lines: {
    chain: string;
    unit: "wei" | "lamports";
    entry_count: number;
    partner_amount: string;
    partner_usd_micros: string;
    wallet_address: string | null;
  }[];
}

export interface PlanQuery {
  status?: PlanStatus | undefined;
  cursor?: string | undefined;
  limit: number;
}

/** The owner's plans, newest day first, with their lines. */
export async function payoutPlanPage(
  pool: Pool,
  owner: ReservationOwner,
  query: PlanQuery,
): Promise<{ rows: PayoutPlan[]; nextCursor: string | null }> {
  const after = decodeCursor(query.cursor);
  const { rows } = await pool.query<PlanRow>(
    `SELECT p.plan_id, p.plan_date::text AS plan_date, p.status, p.created_at, p.queued_at, p.paid_at,
            (SELECT coalesce(json_agg(json_build_object('chain', x.chain, 'unit', x.unit,
                      'entry_count', x.entry_count, 'partner_amount', x.partner_amount::text,
                      'partner_usd_micros', x.partner_usd_micros::text, 'wallet_address', x.wallet_address)
                      ORDER BY x.chain, x.unit), '[]'::json)
               FROM payout_plan_lines x WHERE x.plan_id = p.plan_id) AS lines
       FROM payout_plans p
      WHERE p.partner_id = $1 AND p.environment = $2 AND ($3::text IS NULL OR p.status = $3)
        AND ($4::date IS NULL OR (p.plan_date, p.plan_id) < ($4::date, $5))
      ORDER BY p.plan_date DESC, p.plan_id DESC LIMIT $6`,
    [
      owner.partnerId,
      owner.environment,
      query.status ?? null,
      after === null ? null : after.at.toISOString().slice(0, 10),
      after?.id ?? null,
      query.limit + 1,
    ],
  );
  const plans = rows.map((row) => ({
    planId: row.plan_id,
    planDate: row.plan_date,
    status: row.status,
    createdAt: row.created_at,
    queuedAt: row.queued_at,
    paidAt: row.paid_at,
    lines: row.lines.map((line) => ({
      chain: line.chain,
      unit: line.unit,
      entries: line.entry_count,
      partnerAmount: line.partner_amount,
      partnerUsdMicros: line.partner_usd_micros,
      walletAddress: line.wallet_address,
    })),
  }));
  return pageOf(plans, query.limit, (plan) => ({
    at: new Date(`${plan.planDate}T00:00:00Z`),
    id: plan.planId,
  }));
}
