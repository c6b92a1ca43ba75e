// The partner share of an attributed reservation fee, frozen into each prepare as an immutable snapshot.
// Introductory period (the spec: "New integrations have a 30-day introductory period before this share
// applies"): for the first days after the partner's integration of the environment started (its row in
// `partners`: 30 unless an operator changed the partner's period), attributed fees accrue to the service in
// full (partner 0 bps); the snapshot says so and names the partner's own split and when it starts.

/** The split a new partner starts with (60 percent partner); each partner's row holds its own. */
export const STANDARD_PARTNER_BPS = 6000;
/** The introductory period a new partner starts with (the spec's 30 days); each partner's row holds its own. */
export const STANDARD_INTRODUCTORY_PERIOD_DAYS = 30;
/** Bounds an operator may set (migration 0030's CHECK constraints hold the same). */
export const MAX_INTRODUCTORY_PERIOD_DAYS = 365;
export const WHOLE_BPS = 10_000;
const DAY_MS = 86_400_000;

/** What a partner's row says about its share in one environment. */
export interface PartnerShareTerms {
  partnerBps: number;
  /** When the partner's integration of the environment started; null when it has none there. */
  integrationStartedAt: Date | null;
  /** How long the introductory period lasts from that start; 0: the partner's split applies at once. */
  introductoryPeriodDays: number;
}

export function isPartnerBps(value: number): boolean {
  return Number.isInteger(value) && value >= 0 && value <= WHOLE_BPS;
}

export function isIntroductoryPeriodDays(value: number): boolean {
  return Number.isInteger(value) && value >= 0 && value <= MAX_INTRODUCTORY_PERIOD_DAYS;
}

/** When an introductory period of `days` that started at `integrationStartedAt` ends. */
export function introductoryPeriodEnd(integrationStartedAt: Date, days: number): Date {
  return new Date(integrationStartedAt.getTime() + days * DAY_MS);
}

export interface RevenueShareSnapshot {
  /** Who the fee is attributed to; null when nobody is (no partner share at all). */
  partnerId: string | null;
  /** The split that applies to this reservation. */
  partnerBps: number;
  serviceBps: number;
  /** The partner's split once its introductory period is over, for reference. */
  standardPartnerBps: number;
  standardServiceBps: number;
  introductory: boolean;
  /** End of the partner's introductory period; null when unattributed. */
  introductoryEndsAt: string | null;
  takenAt: string;
}

export function revenueShareSnapshot(
  partnerId: string | null,
  terms: PartnerShareTerms | null,
  now: Date,
): RevenueShareSnapshot {
  const standardPartnerBps = terms?.partnerBps ?? STANDARD_PARTNER_BPS;
  const base = {
    standardPartnerBps,
    standardServiceBps: WHOLE_BPS - standardPartnerBps,
    takenAt: now.toISOString(),
  };
  if (partnerId === null || terms === null || terms.integrationStartedAt === null) {
    return {
      partnerId,
      partnerBps: 0,
      serviceBps: WHOLE_BPS,
      introductory: false,
      introductoryEndsAt: null,
      ...base,
    };
  }
  const endsAt = introductoryPeriodEnd(terms.integrationStartedAt, terms.introductoryPeriodDays);
  const introductory = now < endsAt;
  return {
    partnerId,
    partnerBps: introductory ? 0 : terms.partnerBps,
    serviceBps: introductory ? WHOLE_BPS : WHOLE_BPS - terms.partnerBps,
    introductory,
    introductoryEndsAt: endsAt.toISOString(),
    ...base,
  };
}

/** The partner's part of a fee (chain units, rounded down: the remainder stays with the service). */
export function partnerAmountOf(fee: bigint, snapshot: RevenueShareSnapshot): bigint {
  return (fee * BigInt(snapshot.partnerBps)) / BigInt(WHOLE_BPS);
}
