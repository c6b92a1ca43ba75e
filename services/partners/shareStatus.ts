// A partner's share terms in one environment as they are in effect at an instant: its split, its introductory
// period (length, start, end, whether it is running) and the split a prepare would snapshot then. The partner
// profile and key introspection both show it, so they can never disagree.
import type { Environment } from "../../core/environment";
import { revenueShareSnapshot } from "../../core/reservation";
import { type Partner, shareTermsOf } from "./partnerStore";

export interface Split {
  partnerBps: number;
  serviceBps: number;
}

export interface ShareStatus {
  /** The partner's split once its introductory period is over. */
  split: Split;
  introductoryPeriod: { days: number; startedAt: Date | null; endsAt: Date | null; active: boolean };
  /** The split a reservation prepared at that instant snapshots. */
  currentShare: Split;
}

export function shareStatusOf(partner: Partner, environment: Environment, now: Date): ShareStatus {
  const integration = partner.integration[environment];
  const share = revenueShareSnapshot(partner.partnerId, shareTermsOf(partner, environment), now);
  return {
    split: { partnerBps: partner.partnerBps, serviceBps: partner.serviceBps },
    introductoryPeriod: {
      days: partner.introductoryPeriodDays,
      startedAt: integration?.startedAt ?? null,
      endsAt: integration?.introductoryEndsAt ?? null,
      active: share.introductory,
    },
    currentShare: { partnerBps: share.partnerBps, serviceBps: share.serviceBps },
  };
}
