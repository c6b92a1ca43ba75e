// The identity check's status and decision vocabularies (spec: "Resources", "States and transitions").

export const IDENTITY_STATUSES = [
  "available",
  "reserved",
  "protected",
  "authorized",
  "blocked",
  "expired",
  "launched",
  "cleared",
  "delayed",
  "unknown",
] as const;
export type IdentityStatus = (typeof IDENTITY_STATUSES)[number];

export const CHECK_DECISIONS = [
  "allow",
  "allow_authorized_only",
  "block",
  "recheck_required",
  "unavailable",
] as const;
export type CheckDecision = (typeof CHECK_DECISIONS)[number];

/**
 * Why a status was reached. Stable machine values; signed into validation decisions as `reason`.
 */
export const STATUS_REASONS = [
  "no_conflict",
  "active_reservation",
  "bonding_lock",
  "milestone_lock",
  "authorized_launcher",
  "guardian_block",
  "graduated_block",
  "guardian_cleared",
  "protection_lapsed",
  "launched_without_lock",
  "index_behind",
  "index_not_started",
  "data_unavailable",
] as const;
export type StatusReason = (typeof STATUS_REASONS)[number];

/** Multi-chain rule: higher is more restrictive, and the most restrictive chain decides. */
export const DECISION_RESTRICTIVENESS: Readonly<Record<CheckDecision, number>> = {
  allow: 0,
  allow_authorized_only: 1,
  recheck_required: 2,
  unavailable: 3,
  block: 4,
};
