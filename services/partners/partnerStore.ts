// Partners in Postgres: the row a partner's keys belong to (contact, environment access, split, integration
// starts, payout routing). Keys are issued against it in apiKeyStore.ts.
import type { Pool, PoolClient } from "pg";
import type { Environment } from "../../core/environment";
import { introductoryPeriodEnd, type PartnerShareTerms, WHOLE_BPS } from "../../core/reservation";

export const PAYOUT_ROUTINGS = ["held", "verified_wallets"] as const;
/** `held`: accrued revenue stays on the ledger; `verified_wallets`: paid to the family's verified wallet. */
export type PayoutRouting = (typeof PAYOUT_ROUTINGS)[number];

/** One environment's integration: the introductory period runs from its start. */
export interface PartnerIntegration {
  startedAt: Date;
  introductoryEndsAt: Date;
}

export interface Partner {
  partnerId: string;
  organization: string | null;
  contactEmail: string | null;
  emailVerified: boolean;
  emailVerifiedAt: Date | null;
  /** The environments it may hold keys in (sandbox at sign-up, production once an operator grants it). */
  environments: Environment[];
  /** Its part of an attributed fee in basis points, once the introductory period is over. */
  partnerBps: number;
  serviceBps: number;
  /** How long each environment's introductory period lasts from its integration start (0: none). */
  introductoryPeriodDays: number;
  /** Per environment; null where it has no access. */
  integration: Record<Environment, PartnerIntegration | null>;
  payoutRouting: PayoutRouting;
  createdAt: Date;
}

export const PARTNER_COLUMNS = `partner_id, organization, contact_email, email_verified_at, environments, partner_bps,
  introductory_period_days, sandbox_integration_started_at, production_integration_started_at, payout_routing,
  created_at`;

export interface PartnerRow {
  partner_id: string;
  organization: string | null;
  contact_email: string | null;
  email_verified_at: Date | null;
  environments: Environment[];
  partner_bps: number;
  introductory_period_days: number;
  sandbox_integration_started_at: Date | null;
  production_integration_started_at: Date | null;
  payout_routing: PayoutRouting;
  created_at: Date;
}

function integrationOf(startedAt: Date | null, days: number): PartnerIntegration | null {
  return startedAt === null
    ? null
    : { startedAt, introductoryEndsAt: introductoryPeriodEnd(startedAt, days) };
}

export function partnerOf(row: PartnerRow): Partner {
  return {
    partnerId: row.partner_id,
    organization: row.organization,
    contactEmail: row.contact_email,
    emailVerified: row.email_verified_at !== null,
    emailVerifiedAt: row.email_verified_at,
    environments: row.environments,
    partnerBps: row.partner_bps,
    serviceBps: WHOLE_BPS - row.partner_bps,
    introductoryPeriodDays: row.introductory_period_days,
    integration: {
      sandbox: integrationOf(row.sandbox_integration_started_at, row.introductory_period_days),
      production: integrationOf(row.production_integration_started_at, row.introductory_period_days),
    },
    payoutRouting: row.payout_routing,
    createdAt: row.created_at,
  };
}

export async function findPartner(db: Pool | PoolClient, partnerId: string): Promise<Partner | undefined> {
  const { rows } = await db.query<PartnerRow>(
    `SELECT ${PARTNER_COLUMNS} FROM partners WHERE partner_id = $1`,
    [partnerId],
  );
  return rows[0] === undefined ? undefined : partnerOf(rows[0]);
}

/** What the ledger's snapshot reads of a partner in one environment; null for an unknown partner. */
export function shareTermsOf(
  partner: Partner | undefined,
  environment: Environment,
): PartnerShareTerms | null {
  if (partner === undefined) return null;
  return {
    partnerBps: partner.partnerBps,
    integrationStartedAt: partner.integration[environment]?.startedAt ?? null,
    introductoryPeriodDays: partner.introductoryPeriodDays,
  };
}
