// The partner share of an attributed reservation fee, frozen into each prepare as an immutable snapshot.
// Introductory period (the spec: "New integrations have a 30-day introductory period before this share
// applies"): for the first 30 days after a partner's first API key of the environment, attributed fees accrue
// to the service in full (partner 0 bps); the snapshot says so and names the standard split and when it starts.

export const PARTNER_SHARE_BPS = 6000;
export const SERVICE_SHARE_BPS = 4000;
export const INTRODUCTORY_PERIOD_DAYS = 30;
const DAY_MS = 86_400_000;

export interface RevenueShareSnapshot {
  /** Who the fee is attributed to; null when nobody is (no partner share at all). */
  partnerId: string | null;
  /** The split that applies to this reservation. */
  partnerBps: number;
  serviceBps: number;
  /** The standard split, for reference. */
  standardPartnerBps: number;
  standardServiceBps: number;
  introductory: boolean;
  /** End of the partner's introductory period; null when unattributed. */
  introductoryEndsAt: string | null;
  takenAt: string;
}

export function revenueShareSnapshot(
  partnerId: string | null,
  integratedAt: Date | null,
  now: Date,
): RevenueShareSnapshot {
  const base = {
    standardPartnerBps: PARTNER_SHARE_BPS,
    standardServiceBps: SERVICE_SHARE_BPS,
    takenAt: now.toISOString(),
  };
  if (partnerId === null || integratedAt === null) {
    return {
      partnerId,
      partnerBps: 0,
      serviceBps: 10_000,
      introductory: false,
      introductoryEndsAt: null,
      ...base,
    };
  }
  const endsAt = new Date(integratedAt.getTime() + INTRODUCTORY_PERIOD_DAYS * DAY_MS);
  const introductory = now < endsAt;
  return {
    partnerId,
    partnerBps: introductory ? 0 : PARTNER_SHARE_BPS,
    serviceBps: introductory ? 10_000 : SERVICE_SHARE_BPS,
    introductory,
    introductoryEndsAt: endsAt.toISOString(),
    ...base,
  };
}

/** The partner's part of a fee (chain units, rounded down: the remainder stays with the service). */
export function partnerAmountOf(fee: bigint, snapshot: RevenueShareSnapshot): bigint {
  return (fee * BigInt(snapshot.partnerBps)) / 10_000n;
}
