// Operator changes to a partner's share terms, the two the spec makes adjustable: its revenue split and its
// introductory period. Each is one transaction with its audit row (previous and new value), in effect from the
// next read of the row. One row serves both environments. Prepares snapshot the terms, so a change never touches
// an existing snapshot or ledger entry: it applies to reservations prepared after it.
import type { Pool } from "pg";
import { ServiceError } from "../../core/errors/serviceError";
import {
  isIntroductoryPeriodDays,
  isPartnerBps,
  MAX_INTRODUCTORY_PERIOD_DAYS,
  WHOLE_BPS,
} from "../../core/reservation";
import { type Actor, appendAudit } from "../../storage/audit";
import { withTransaction } from "../../storage/transaction";
import { PARTNER_COLUMNS, type Partner, type PartnerRow, partnerOf } from "./partnerStore";

export class PartnerNotFoundError extends ServiceError {
  constructor(partnerId: string) {
    super(`No partner has id ${partnerId}; find it with: npm run operator -- api-keys:list`);
  }
}

/** A term outside its bounds; the message names them. */
export class ShareTermsError extends ServiceError {
  constructor(message: string) {
    super(message);
  }
}

/** The columns an operator may change, each with its audit action and the field its audit details name. */
const TERMS = {
  partnerBps: { column: "partner_bps", action: "partner.revenue_share" },
  introductoryPeriodDays: { column: "introductory_period_days", action: "partner.introductory_period" },
} as const;
type Term = keyof typeof TERMS;

async function changeTerm(
  pool: Pool,
  partnerId: string,
  term: Term,
  value: number,
  audit: Actor,
): Promise<Partner> {
  const { column, action } = TERMS[term];
  return withTransaction(pool, async (client) => {
    // FOR UPDATE: of two concurrent changes, the second audits the first's value as its previous one.
    const found = await client.query<PartnerRow>(
      `SELECT ${PARTNER_COLUMNS} FROM partners WHERE partner_id = $1 FOR UPDATE`,
      [partnerId],
    );
    const before = found.rows[0];
    if (before === undefined) throw new PartnerNotFoundError(partnerId);
    const { rows } = await client.query<PartnerRow>(
      `UPDATE partners SET ${column} = $2 WHERE partner_id = $1 RETURNING ${PARTNER_COLUMNS}`,
      [partnerId, value],
    );
    await appendAudit(client, {
      ...audit,
      action,
      subject: partnerId,
      details: { previous: before[column], [term]: value },
    });
    return partnerOf(rows[0] as PartnerRow);
  });
}

/** Sets the partner's part of an attributed fee once its introductory period is over (0-10000 bps). */
export async function setPartnerBps(
  pool: Pool,
  partnerId: string,
  partnerBps: number,
  audit: Actor,
): Promise<Partner> {
  if (!isPartnerBps(partnerBps))
    throw new ShareTermsError(`The partner share must be a whole number of bps from 0 to ${WHOLE_BPS}.`);
  return changeTerm(pool, partnerId, "partnerBps", partnerBps, audit);
}

/** Sets how many days each environment's introductory period lasts from its integration start (0: none). */
export async function setIntroductoryPeriodDays(
  pool: Pool,
  partnerId: string,
  days: number,
  audit: Actor,
): Promise<Partner> {
  if (!isIntroductoryPeriodDays(days)) {
    throw new ShareTermsError(
      `The introductory period must be a whole number of days from 0 to ${MAX_INTRODUCTORY_PERIOD_DAYS}.`,
    );
  }
  return changeTerm(pool, partnerId, "introductoryPeriodDays", days, audit);
}
