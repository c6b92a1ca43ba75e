// A dispute's states and the moves between them: filed `open`; an operator takes it `under_review`; it ends
// `upheld` or `rejected` (operator) or `withdrawn` (the claimant, with a fresh wallet proof). An ended dispute
// never moves again.
export const DISPUTE_STATUSES = ["open", "under_review", "upheld", "rejected", "withdrawn"] as const;
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number];

export const DISPUTE_REASONS = ["copycat", "mistaken_block", "other"] as const;
export type DisputeReason = (typeof DISPUTE_REASONS)[number];

/** What upholding did to the identity. */
export type DisputeOutcome = "cleared" | "blocked" | "none";

const UNDECIDED: readonly DisputeStatus[] = ["open", "under_review"];

export function isUndecided(status: DisputeStatus): boolean {
  return UNDECIDED.includes(status);
}

/** The states a dispute may move to `to` from. */
export function movesInto(to: DisputeStatus): readonly DisputeStatus[] {
  if (to === "under_review") return ["open"];
  if (to === "open") return [];
  return UNDECIDED;
}
