// The sandbox's partner-made dataset: the holds of POST /v1/reservations and of sandbox-confirm, each the
// partner's own (partner_id), never seen by another partner and never a production row. The seven seeded
// scenarios are not stored: evaluation builds them from the clock (core/status/sandboxScenarios), and no
// partner may write to them.
import type { Pool, PoolClient } from "pg";
import { onChainKey } from "../../core/address/equality";
import { ApiError } from "../../core/errors/catalogue";
import type { NormalizedIdentity } from "../../core/fold";
import { MAX_ACTIVE_PER_WALLET } from "../../core/reservation";
import { assertNotSandboxScenario } from "../../core/status";
import { withTransaction } from "../../storage/transaction";
import type { EvaluationContext } from "../identity/evaluation";
import { evaluate } from "../identity/evaluation";
import { serializeIdentityChanges } from "../identity/identityChanges";
import { loadDecisionSnapshot } from "../identity/recordLoader";

export interface SandboxHoldRequest {
  chain: string;
  launcher: string;
  durationSeconds: number;
  /** Default now; a renewal's hold starts where the current one ends. */
  startsAt?: Date;
}

export interface SandboxHold {
  reservationId: string;
  status: "confirmed";
  simulated: true;
  identityKey: string;
  normalizedName: string;
  normalizedTicker: string;
  chain: string;
  launcher: string;
  durationSeconds: number;
  startsAt: string;
  expiresAt: string;
}

export interface SandboxWallet {
  partnerId: string;
  chain: string;
  /** In its on-chain form (core/address/equality onChainKey). */
  launcher: string;
}

/**
 * The pairs other than `identityKey` that the partner's wallet holds live at `now` in the sandbox: what the
 * three-active-per-wallet rule (MAX_ACTIVE_PER_WALLET) counts, for sandbox prepares and sandbox holds alike.
 */
export async function activeSandboxHolds(
  db: Pool | PoolClient,
  wallet: SandboxWallet,
  identityKey: string,
  now: Date,
): Promise<number> {
  const { rows } = await db.query<{ count: string }>(
    `SELECT count(DISTINCT identity_key) AS count FROM sandbox_holds
      WHERE partner_id = $1 AND chain = $2 AND launcher = $3 AND identity_key <> $4
        AND starts_at <= $5 AND expires_at > $5`,
    [wallet.partnerId, wallet.chain, wallet.launcher, identityKey, now],
  );
  return Number(rows[0]?.count ?? 0);
}

/** Seeds a sandbox hold; 409 identity_held when the pair is held or protected for another wallet. */
export async function createSandboxHold(
  pool: Pool,
  context: EvaluationContext,
  partnerId: string,
  identity: NormalizedIdentity,
  request: SandboxHoldRequest,
): Promise<SandboxHold> {
  return withTransaction(pool, (client) => insertSandboxHold(client, context, partnerId, identity, request));
}

/**
 * createSandboxHold inside the caller's transaction (sandbox-confirm seeds the hold with its other writes).
 * Refuses a seeded scenario (403), a pair the partner's records hold for another wallet (409 identity_held)
 * and a wallet that already holds three other pairs (409 reservation_limit_reached).
 */
export async function insertSandboxHold(
  client: PoolClient,
  context: EvaluationContext,
  partnerId: string,
  identity: NormalizedIdentity,
  request: SandboxHoldRequest,
): Promise<SandboxHold> {
  assertNotSandboxScenario("sandbox", identity.identityKey);
  // The same serialisation as lock reports and prepares on the identity (services/identity/identityChanges.ts).
  await serializeIdentityChanges(client, "sandbox", identity.identityKey, request.chain);
  const snapshot = await loadDecisionSnapshot(client, "sandbox", identity, request.chain, partnerId);
  // evaluate() refuses a launcher that is not an address of the chain's family (400 naming field and chain).
  const { result, family } = evaluate(snapshot, context, request.chain, request.launcher);
  if (result.decision !== "allow") {
    throw new ApiError("identity_held", undefined, {
      identityKey: identity.identityKey,
      chain: request.chain,
      status: result.status,
      reason: result.reason,
    });
  }
  const wallet = { partnerId, chain: request.chain, launcher: onChainKey(family, request.launcher) };
  // One wallet's holds are counted and added one at a time, so concurrent holds cannot both take the last slot.
  await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [
    `sandbox-wallet:${partnerId}:${wallet.chain}:${wallet.launcher}`,
  ]);
  const active = await activeSandboxHolds(client, wallet, identity.identityKey, context.now);
  if (active >= MAX_ACTIVE_PER_WALLET) {
    throw new ApiError("reservation_limit_reached", undefined, {
      launcher: request.launcher,
      chain: request.chain,
      active,
    });
  }
  const startsAt = request.startsAt ?? context.now;
  const expiresAt = new Date(startsAt.getTime() + request.durationSeconds * 1000);
  const { rows } = await client.query<{ id: string }>(
    `INSERT INTO sandbox_holds (identity_key, chain, launcher, starts_at, expires_at, duration_seconds, partner_id, source)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 'partner') RETURNING id`,
    [
      identity.identityKey,
      request.chain,
      wallet.launcher,
      startsAt,
      expiresAt,
      request.durationSeconds,
      partnerId,
    ],
  );
  return {
    reservationId: `sbx_hold_${rows[0]?.id}`,
    status: "confirmed",
    simulated: true,
    identityKey: identity.identityKey,
    normalizedName: identity.normalizedName,
    normalizedTicker: identity.normalizedTicker,
    chain: request.chain,
    launcher: request.launcher,
    durationSeconds: request.durationSeconds,
    startsAt: startsAt.toISOString(),
    expiresAt: expiresAt.toISOString(),
  };
}
