// Prepare: fold and precheck the pair (bounds, chain, wallet format, availability, renewal window, three active per
// wallet), price it from the registry's own feed, build the creator-signable transactions (a new reservation: a
// commitment and its reveal, behind a fresh secret), and record the reservation as pending_payment with its ledger
// draft, in one transaction. Nothing is protected by a prepare.
import { randomBytes } from "node:crypto";
import type { Pool } from "pg";
import type { OnChainReservation, RegistryClient } from "../../chains/registryClient";
import { onChainKey } from "../../core/address/equality";
import { assertLauncherFormat } from "../../core/address/launcherFormat";
import { ApiError } from "../../core/errors/catalogue";
import type { NormalizedIdentity } from "../../core/fold";
import {
  isInRenewalWindow,
  MAX_ACTIVE_PER_WALLET,
  newReservationId,
  PREPARE_TTL_SECONDS,
  partnerRefOf,
  RENEWAL_WINDOW_SECONDS,
  type ReservationDuration,
  revenueShareSnapshot,
} from "../../core/reservation";
import { assertNotSandboxScenario } from "../../core/status";
import { withTransaction } from "../../storage/transaction";
import { type EvaluationContext, evaluate } from "../identity/evaluation";
import { lockedForAnother, serializeIdentityChanges } from "../identity/identityChanges";
import { loadDecisionSnapshot } from "../identity/recordLoader";
import { findPartner, shareTermsOf } from "../partners/partnerStore";
import { activeSandboxHolds } from "../sandbox/sandbox";
import { fromChain } from "./chainAccess";
import { draftLedgerEntry } from "./ledger";
import { type Reservation, UNPAID_OUTCOME } from "./record";
import { insertReservation } from "./store";

/** Whom the reservation's fee is attributed to. */
export interface Attribution {
  partnerId: string;
  apiKeyId: string | null;
  launchpad: string | null;
  source: "partner" | "embed";
}

export interface PrepareRequest {
  identity: NormalizedIdentity;
  launcher: string;
  durationSeconds: ReservationDuration;
}

/**
 * The pair's current hold: read from the registry itself in production (the mirror may lag a block), from the
 * partner's own sandbox holds in the sandbox.
 */
async function currentHold(
  pool: Pool,
  registry: RegistryClient,
  context: EvaluationContext,
  identity: NormalizedIdentity,
  chain: string,
  partnerId: string,
): Promise<{ hold: OnChainReservation | null; blockedBy: string | null }> {
  const snapshot = await loadDecisionSnapshot(pool, context.environment, identity, chain, partnerId);
  const { result } = evaluate(snapshot, context, chain, undefined);
  if (result.decision === "recheck_required" || result.decision === "unavailable") {
    throw new ApiError("service_unavailable", "The chain's data is behind; retry shortly.", {
      cause: "data_path",
      chain,
      reason: result.reason,
    });
  }
  let hold: OnChainReservation | null;
  if (context.environment === "production") {
    hold = await fromChain(registry.reservationOf(identity));
  } else {
    const live = snapshot.records.holds
      .filter(
        (record) =>
          record.chain === chain && record.expiresAt > context.now && record.startsAt <= context.now,
      )
      .sort((a, b) => b.expiresAt.getTime() - a.expiresAt.getTime())[0];
    hold = live === undefined ? null : { launcher: live.launcher, expiresAt: live.expiresAt, active: true };
  }
  // Locks and guardian blocks hold the pair whoever asks; a reservation is answered from `hold` above.
  const blockedBy =
    result.decision === "block" && result.reason !== "active_reservation" ? result.reason : null;
  return { hold, blockedBy };
}

export async function prepareReservation(
  pool: Pool,
  registry: RegistryClient,
  context: EvaluationContext,
  attribution: Attribution,
  request: PrepareRequest,
): Promise<{ reservation: Reservation; quote: Awaited<ReturnType<RegistryClient["quote"]>> }> {
  const { identity, durationSeconds } = request;
  const { chain, family } = registry;
  assertLauncherFormat(request.launcher, family, chain);
  const launcher = onChainKey(family, request.launcher);
  const now = context.now;
  assertNotSandboxScenario(context.environment, identity.identityKey);

  const { hold, blockedBy } = await currentHold(
    pool,
    registry,
    context,
    identity,
    chain,
    attribution.partnerId,
  );
  let kind: Reservation["kind"] = "reserve";
  if (hold?.active) {
    if (onChainKey(family, hold.launcher) !== launcher) {
      throw new ApiError("identity_held", undefined, { identityKey: identity.identityKey, chain });
    }
    if (!isInRenewalWindow(hold.expiresAt, now)) {
      throw new ApiError("renewal_not_open", undefined, {
        identityKey: identity.identityKey,
        chain,
        expiresAt: hold.expiresAt.toISOString(),
        renewalOpensAt: new Date(hold.expiresAt.getTime() - RENEWAL_WINDOW_SECONDS * 1000).toISOString(),
      });
    }
    kind = "renew";
  } else if (blockedBy !== null) {
    throw new ApiError("identity_held", undefined, {
      identityKey: identity.identityKey,
      chain,
      reason: blockedBy,
    });
  }

  if (kind === "reserve") {
    const active =
      context.environment === "production"
        ? await fromChain(registry.activeReservationCount(launcher))
        : await activeSandboxHolds(
            pool,
            { partnerId: attribution.partnerId, chain, launcher },
            identity.identityKey,
            now,
          );
    if (active >= MAX_ACTIVE_PER_WALLET) {
      throw new ApiError("reservation_limit_reached", undefined, { launcher, chain, active });
    }
  }

  const quote = await fromChain(registry.quote(durationSeconds));
  const reservationId = newReservationId();
  const partnerRef = partnerRefOf(reservationId);
  // The secret leaves the service only inside the reveal it returns (docs/commit-reveal.md); it is never logged.
  const secret = kind === "reserve" ? (`0x${randomBytes(32).toString("hex")}` as const) : null;
  const steps = await fromChain(
    registry.prepareTransaction({
      identity,
      launcher: request.launcher,
      durationSeconds,
      partnerRef,
      kind,
      quote,
      secret,
    }),
  );
  const revenueShare = revenueShareSnapshot(
    attribution.partnerId,
    shareTermsOf(await findPartner(pool, attribution.partnerId), context.environment),
    now,
  );
  const reservation: Reservation = {
    reservationId,
    environment: context.environment,
    partnerId: attribution.partnerId,
    apiKeyId: attribution.apiKeyId,
    launchpad: attribution.launchpad,
    source: attribution.source,
    chain,
    family,
    kind,
    identityKey: identity.identityKey,
    normalizedName: identity.normalizedName,
    normalizedTicker: identity.normalizedTicker,
    nameHash: identity.nameHash,
    tickerHash: identity.tickerHash,
    launcher,
    durationSeconds,
    partnerRef,
    usdMicros: quote.usdMicros,
    quoteAmount: quote.amount,
    quoteUnit: quote.unit,
    quoteExpiresAt: quote.expiresAt,
    simulated: registry.simulated,
    transaction: steps?.transaction ?? null,
    reveal: steps?.reveal ?? null,
    commitTransactionHash: null,
    commitSubmittedAt: null,
    revenueShare,
    status: "pending_payment",
    statusReason: null,
    preparedAt: now,
    lapsesAt: new Date(now.getTime() + PREPARE_TTL_SECONDS * 1000),
    ...UNPAID_OUTCOME,
  };
  await withTransaction(pool, async (client) => {
    // A lock reported since the check above (while the chain was asked) refuses this prepare; one reported after
    // it for another wallet waits while this prepare lives (core/status/lockBasis.ts).
    await serializeIdentityChanges(client, context.environment, identity.identityKey, chain);
    const lock = {
      environment: context.environment,
      partnerId: attribution.partnerId,
      identityKey: identity.identityKey,
      chain,
    };
    if (kind === "reserve" && (await lockedForAnother(client, lock, launcher, now))) {
      throw new ApiError("identity_held", undefined, {
        identityKey: identity.identityKey,
        chain,
        reason: "lock",
      });
    }
    await insertReservation(client, reservation);
    await draftLedgerEntry(client, reservation, now);
  });
  return { reservation, quote };
}
