// Identities are per chain. A check without `chain` evaluates every chain; the most restrictive answer
// wins and names the deciding chain.

import { ServiceError } from "../errors/serviceError";
import { type ChainStatus, decideChainStatus } from "./decide";
import type { ChainFreshness } from "./freshness";
import type { IdentityRecords } from "./records";
import { DECISION_RESTRICTIVENESS } from "./values";

/** Thrown when there is no chain to decide on: a configuration problem, not a user error. */
export class NoChainsError extends ServiceError {
  constructor() {
    super("No chains are configured, so no identity can be decided; add chains to the deployment manifest.");
  }
}

export interface ChainInput {
  chain: string;
  freshness: ChainFreshness;
}

/**
 * The most restrictive of the chains' answers (block > unavailable > recheck_required >
 * allow_authorized_only > allow). Among equally restrictive answers the longest protection wins, then the
 * first chain in the given order, so the result is deterministic.
 */
export function mostRestrictive(statuses: readonly ChainStatus[]): ChainStatus {
  let best: ChainStatus | undefined;
  for (const status of statuses) {
    if (best === undefined) {
      best = status;
      continue;
    }
    const rank = DECISION_RESTRICTIVENESS[status.decision] - DECISION_RESTRICTIVENESS[best.decision];
    const longer = (status.protectedUntil?.getTime() ?? 0) > (best.protectedUntil?.getTime() ?? 0);
    if (rank > 0 || (rank === 0 && longer)) best = status;
  }
  if (best === undefined) throw new NoChainsError();
  return best;
}

/** Decides every chain and returns the most restrictive answer. */
export function decideAcrossChains(
  records: IdentityRecords,
  chains: readonly ChainInput[],
  launcher: string | undefined,
  now: Date,
): ChainStatus {
  return mostRestrictive(
    chains.map(({ chain, freshness }) =>
      decideChainStatus(records, { chain, freshness, now, ...(launcher === undefined ? {} : { launcher }) }),
    ),
  );
}
