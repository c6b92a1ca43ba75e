// Partner scopes: each partner endpoint names the one scope it needs.
export const PARTNER_SCOPES = [
  "launch:validate",
  "launch:report",
  "event:report",
  "reservation:prepare",
  "partner:revenue",
  "partner:payout",
] as const;
export type PartnerScope = (typeof PARTNER_SCOPES)[number];

export function isPartnerScope(value: string): value is PartnerScope {
  return (PARTNER_SCOPES as readonly string[]).includes(value);
}
