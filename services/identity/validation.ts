// POST /v1/launches/validate: fold, decide, sign with the environment's active key, then record the
// decision and its outbox events (atomically, group-committed with concurrent decisions) before answering.
// Never an unsigned allow: when signing or the data path fails, the route answers 503 service_unavailable.
import type { Pool } from "pg";
import type { GuardTarget } from "../../chains/registryClient";
import { DecisionFieldError, type SignedDecision } from "../../core/decision";
import type { OnchainDecision, OnchainDecisionRequest } from "../../core/decision/onchain";
import type { Environment } from "../../core/environment";
import { ApiError } from "../../core/errors/catalogue";
import type { NormalizedIdentity } from "../../core/fold";
import { lookalikeKey } from "../../core/lookalike";
import type { ChainStatus } from "../../core/status";
import type { DomainEvent } from "../../storage/domainEvents";
import { assertLaunchpadContract } from "../partners/launchpadContracts";
import { assertLaunchpadOf, assertLaunchpadShape } from "../partners/launchpads";
import type { ActiveSigners } from "../signing/activeSigner";
import { type ChainReader, readStaleChains } from "./chainReads";
import type { DecisionRecorder } from "./decisionRecorder";
import { type EvaluationContext, evaluate } from "./evaluation";
import { normalizedOrReject } from "./identityInput";
import { type LookalikeAdvisory, lookalikeAdvisories } from "./lookalikes";
import { checkedOnchainTarget, onchainDecision } from "./onchainDecision";
import type { DecisionSnapshot } from "./recordLoader";
import { newDecisionRequestId } from "./requestIds";

export interface ValidationRequest {
  chain: string;
  name: string;
  ticker: string;
  launcher: string;
  launchpad?: string | undefined;
  logoHash?: string | undefined;
  intendedContract?: string | undefined;
  nonce?: string | undefined;
  /** Asks for the decision signed for an on-chain guard too (docs/onchain-guard.md). */
  onchain?: OnchainDecisionRequest | undefined;
}

export interface Caller {
  partnerId: string;
  keyId: string;
  environment: Environment;
}

/** Reasons that mean an identity is protected for someone (for identity.blocked_attempt). */
const PROTECTION_REASONS = new Set<ChainStatus["reason"]>([
  "active_reservation",
  "bonding_lock",
  "milestone_lock",
  "guardian_block",
  "graduated_block",
]);

/** Events of `types` for one decision, sharing one payload. */
function eventsOf(
  types: readonly DomainEvent["type"][],
  decision: SignedDecision,
  caller: Caller,
): DomainEvent[] {
  const payload = {
    requestId: decision.requestId,
    identityKey: decision.identityKey,
    chain: decision.chain,
    launcher: decision.launcher,
    launchpadId: decision.launchpadId,
    decision: decision.decision,
    reason: decision.reason,
    issuedAt: decision.issuedAt,
  };
  return types.map((type) => ({
    type,
    environment: caller.environment,
    partnerId: caller.partnerId,
    payload,
  }));
}

/** The outbox events a signed decision causes (spec: Validation rule 4); most decisions cause none. */
export function validationEvents(
  decision: SignedDecision,
  status: ChainStatus,
  caller: Caller,
): DomainEvent[] {
  if (decision.decision === "block") {
    return eventsOf(
      PROTECTION_REASONS.has(status.reason)
        ? ["launch.blocked", "identity.blocked_attempt"]
        : ["launch.blocked"],
      decision,
      caller,
    );
  }
  if (decision.decision === "allow" && status.status === "authorized") {
    return eventsOf(["launch.authorized"], decision, caller);
  }
  return [];
}

export interface ValidationDeps {
  pool: Pool;
  signers: ActiveSigners;
  recorder: DecisionRecorder;
  readChains: ChainReader;
  context: (environment: Environment) => EvaluationContext;
  /** The registry the launch guards of `environment` read on `chain` (null: none). */
  guardTarget: (environment: Environment, chain: string) => GuardTarget | null;
}

function checkedNonce(nonce: string | undefined): void {
  if (nonce?.includes("\n")) {
    throw new ApiError(
      "invalid_request",
      "`nonce` must not contain a line feed; it is part of the signed bytes.",
      { field: "nonce" },
    );
  }
}

/** A validation's folded identity with the look-alike key of its raw pair. */
export interface ValidationIdentity extends NormalizedIdentity {
  lookalikeKey: string;
}

/**
 * The answer of a validation: the signed decision and, beside it, unsigned advisories and, when asked for, the
 * decision signed for an on-chain guard.
 */
export type ValidationAnswer = SignedDecision & {
  advisories: LookalikeAdvisory[];
  onchain?: OnchainDecision;
};

/** The folded identity of a validation whose fields pass the checks that need no data; else a 400. */
export function validationIdentity(request: ValidationRequest): ValidationIdentity {
  const identity = normalizedOrReject(request.name, request.ticker);
  checkedNonce(request.nonce);
  return { ...identity, lookalikeKey: lookalikeKey(request.name, request.ticker) };
}

/**
 * Decides on the snapshot of `identity` (validationIdentity), signs and records one validation; returns the
 * signed decision with the snapshot's look-alike advisory beside it (never in the signed or recorded bytes).
 * The signed launchpadId is the caller's own: the snapshot carries the partner the requested id is bound to
 * (403 for another partner's; an unbound sandbox id is claimed).
 */
export async function decideLaunch(
  deps: ValidationDeps,
  caller: Caller,
  request: ValidationRequest,
  identity: NormalizedIdentity,
  snapshot: DecisionSnapshot,
): Promise<ValidationAnswer> {
  const context = deps.context(caller.environment);
  const launchpadId = request.launchpad ?? caller.partnerId;
  assertLaunchpadShape(launchpadId, caller.partnerId);
  await assertLaunchpadOf(
    deps.pool,
    { environment: caller.environment, partnerId: caller.partnerId, launchpad: launchpadId },
    snapshot.launchpadPartner,
  );
  const onchain = request.onchain;
  const target =
    onchain === undefined
      ? null
      : checkedOnchainTarget(deps.guardTarget(caller.environment, request.chain), onchain, {
          chain: request.chain,
          environment: caller.environment,
        });
  if (onchain !== undefined && target !== null) {
    await assertLaunchpadContract(deps.pool, {
      environment: caller.environment,
      chain: request.chain,
      family: target.family,
      address: onchain.launchpad,
      launchpad: launchpadId,
    });
  }
  // Only a chain whose mirror cannot decide is read over RPC; the fresh path stays one statement per batch.
  const reads = await readStaleChains(
    deps.readChains,
    snapshot,
    context,
    identity,
    request.chain,
    request.launcher,
  );
  const { result } = evaluate(snapshot, context, request.chain, request.launcher, reads);
  if (result.decision === "unavailable") {
    throw new ApiError(
      "service_unavailable",
      `The data path of chain ${request.chain} is unavailable; do not launch, retry later.`,
    );
  }
  const signer = await deps.signers.signerFor(deps.pool, caller.environment, snapshot.activeKid);
  let decision: SignedDecision;
  try {
    decision = signer.sign({
      requestId: newDecisionRequestId(),
      identityKey: identity.identityKey,
      normalizedName: identity.normalizedName,
      normalizedTicker: identity.normalizedTicker,
      chain: request.chain,
      launchpadId,
      launcher: request.launcher,
      decision: result.decision,
      reason: result.reason,
      issuedAt: context.now,
      nonce: request.nonce,
    });
  } catch (error) {
    if (error instanceof DecisionFieldError) {
      throw new ApiError("invalid_request", error.message, { field: error.field });
    }
    throw error;
  }
  // Signed before the record, so a request the chain cannot take records nothing.
  const onchainAnswer =
    onchain === undefined || target === null
      ? undefined
      : await onchainDecision(target, onchain, decision, identity, signer);
  await deps.recorder.record({
    decision,
    partnerId: caller.partnerId,
    apiKeyId: caller.keyId,
    status: result.status,
    events: validationEvents(decision, result, caller),
  });
  const advisories = lookalikeAdvisories(snapshot, context, request.chain);
  return onchainAnswer === undefined
    ? { ...decision, advisories }
    : { ...decision, advisories, onchain: onchainAnswer };
}
