// The disputes context's public face: the keyless claimant calls (challenge, file, list, show, withdraw) as one
// service for the API, and the operator's review for the CLI. States: states.ts; docs/disputes.md.
import type { Pool } from "pg";
import type { RegistryCatalogue } from "../../chains/registryClient";
import type { Environment } from "../../core/environment";
import type { Challenge, SignedAnswer, WalletChallengeRequest } from "../ownership";
import { walletProofs } from "../ownership";
import type { Dispute } from "./disputeStore";
import {
  challengeClaimant,
  disputePage,
  type FilingRequest,
  fileDispute,
  type ListQuery,
  publicDispute,
  withdrawDispute,
} from "./filing";

export type { Dispute } from "./disputeStore";
export { listDisputes } from "./disputeStore";
export { DISPUTE_PAGE_MAX, type FilingRequest, type ListQuery } from "./filing";
export { type Decision, DisputeError, decideDispute, operatorDispute, reviewDispute } from "./review";
export {
  DISPUTE_REASONS,
  DISPUTE_STATUSES,
  type DisputeOutcome,
  type DisputeReason,
  type DisputeStatus,
} from "./states";

export interface DisputesService {
  /** A single-use sign-in challenge for the claimant's wallet (10 minutes). */
  challenge(environment: Environment, request: WalletChallengeRequest): Promise<Challenge>;
  /** Files a dispute proven by the signed challenge; 409 dispute_already_open for a second undecided one. */
  file(environment: Environment, request: FilingRequest): Promise<Dispute>;
  list(environment: Environment, query: ListQuery): Promise<{ rows: Dispute[]; nextCursor: string | null }>;
  show(environment: Environment, disputeId: string): Promise<Dispute>;
  /** Withdraws an undecided dispute; the proof must come from the wallet that filed it. */
  withdraw(environment: Environment, disputeId: string, proof: SignedAnswer): Promise<Dispute>;
}

export function disputesService(
  pool: Pool,
  registries: RegistryCatalogue | undefined,
  now: () => number,
): DisputesService {
  const deps = { pool, proofs: walletProofs(registries?.production), now };
  return {
    challenge: (environment, request) => challengeClaimant(deps, environment, request),
    file: (environment, request) => fileDispute(deps, environment, request),
    list: (environment, query) => disputePage(pool, environment, query),
    show: (environment, disputeId) => publicDispute(pool, environment, disputeId),
    withdraw: (environment, disputeId, proof) => withdrawDispute(deps, environment, disputeId, proof),
  };
}
