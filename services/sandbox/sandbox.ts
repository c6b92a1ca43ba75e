// The sandbox dataset: the seven seeded scenarios (seeded at start, restorable by an operator) and the
// partner-seeded holds of POST /v1/reservations. Sandbox rows never touch production.
import type { Pool, PoolClient } from "pg";
import { assertLauncherFormat } from "../../core/address/launcherFormat";
import { ApiError } from "../../core/errors/catalogue";
import type { NormalizedIdentity } from "../../core/fold";
import { type IdentityRecords, type SandboxChain, sandboxScenarios } from "../../core/status";
import { type Actor, appendAudit } from "../../storage/audit";
import { withTransaction } from "../../storage/transaction";
import type { EvaluationContext } from "../identity/evaluation";
import { evaluate } from "../identity/evaluation";
import { loadDecisionSnapshot } from "../identity/recordLoader";

async function insertScenario(
  client: PoolClient,
  identityKey: string,
  records: IdentityRecords,
): Promise<void> {
  for (const hold of records.holds) {
    await client.query(
      `INSERT INTO sandbox_holds (identity_key, chain, launcher, starts_at, expires_at, duration_seconds, source)
       VALUES ($1, $2, $3, $4, $5, $6, 'scenario')`,
      [
        identityKey,
        hold.chain,
        hold.launcher,
        hold.startsAt,
        hold.expiresAt,
        Math.round((hold.expiresAt.getTime() - hold.startsAt.getTime()) / 1000),
      ],
    );
  }
  for (const lock of records.locks) {
    await client.query(
      `INSERT INTO identity_locks (environment, identity_key, chain, kind, was_reserved, authorized_launcher, applied_at, expires_at, source)
       VALUES ('sandbox', $1, $2, $3, $4, $5, $6, $7, 'scenario')`,
      [
        identityKey,
        lock.chain,
        lock.kind,
        lock.wasReserved,
        lock.authorizedLauncher,
        lock.appliedAt,
        lock.expiresAt,
      ],
    );
  }
  for (const launch of records.launches) {
    await client.query(
      `INSERT INTO identity_launches (environment, identity_key, chain, launcher, token_or_mint, launchpad, reported_at, source)
       VALUES ('sandbox', $1, $2, $3, $4, $5, $6, 'scenario')`,
      [identityKey, launch.chain, launch.launcher, launch.tokenOrMint, launch.launchpad, launch.at],
    );
  }
  for (const action of records.guardian) {
    await client.query(
      `INSERT INTO guardian_actions (environment, identity_key, chain, kind, graduated, expires_at, actor, reason, at, source)
       VALUES ('sandbox', $1, $2, $3, $4, $5, $6, $7, $8, 'scenario')`,
      [
        identityKey,
        action.chain,
        action.kind,
        action.graduated,
        action.expiresAt,
        action.actor,
        action.reason,
        action.at,
      ],
    );
  }
}

/**
 * Seeds (or restores) the seven scenarios on `chains`: every sandbox row of those seven identities, partner
 * rows included, is replaced by the scenario's records as of `now`. Other sandbox identities are untouched.
 */
/** Replaces the scenarios' rows with the seven scenarios as of `now`, inside the caller's transaction. */
async function seedScenariosIn(
  client: PoolClient,
  chains: readonly SandboxChain[],
  now: Date,
): Promise<string[]> {
  const scenarios = sandboxScenarios(chains, now);
  const keys = scenarios.map((scenario) => scenario.identityKey);
  await client.query("SELECT pg_advisory_xact_lock(hashtext('sandbox-scenarios'))");
  await client.query("DELETE FROM sandbox_holds WHERE identity_key = ANY($1)", [keys]);
  for (const table of ["identity_locks", "identity_launches", "guardian_actions"]) {
    await client.query(`DELETE FROM ${table} WHERE environment = 'sandbox' AND identity_key = ANY($1)`, [
      keys,
    ]);
  }
  for (const scenario of scenarios) await insertScenario(client, scenario.identityKey, scenario.records);
  return keys;
}

export async function seedSandboxScenarios(
  pool: Pool,
  chains: readonly SandboxChain[],
  now = new Date(),
): Promise<string[]> {
  return withTransaction(pool, (client) => seedScenariosIn(client, chains, now));
}

/** An operator's restore: the scenarios as of now and who restored them and why, in one transaction. */
export async function restoreSandboxScenarios(
  pool: Pool,
  chains: readonly SandboxChain[],
  by: Actor,
): Promise<string[]> {
  return withTransaction(pool, async (client) => {
    const keys = await seedScenariosIn(client, chains, new Date());
    await appendAudit(client, {
      ...by,
      action: "sandbox.restore",
      subject: "sandbox",
      details: { chains: chains.map((entry) => entry.chain), identities: keys },
    });
    return keys;
  });
}

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

/** createSandboxHold inside the caller's transaction (sandbox-confirm seeds the hold with its other writes). */
export async function insertSandboxHold(
  client: PoolClient,
  context: EvaluationContext,
  partnerId: string,
  identity: NormalizedIdentity,
  request: SandboxHoldRequest,
): Promise<SandboxHold> {
  await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [
    `identity:sandbox:${request.chain}:${identity.identityKey}`,
  ]);
  const snapshot = await loadDecisionSnapshot(client, "sandbox", identity, request.chain);
  const { result, family } = evaluate(snapshot, context, request.chain, request.launcher);
  assertLauncherFormat(request.launcher, family, request.chain);
  if (result.decision !== "allow") {
    throw new ApiError("identity_held", undefined, {
      identityKey: identity.identityKey,
      chain: request.chain,
      status: result.status,
      reason: result.reason,
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
      request.launcher,
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
