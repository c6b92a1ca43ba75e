// Reporting: launch reports (a `launched` event, no lock) and bonding / milestone events (copycat locks with
// longest-lock semantics). Each change and its outbox events commit in one transaction. Not deduplicated.
import type { Pool, PoolClient } from "pg";
import { assertLauncherFormat } from "../../core/address/launcherFormat";
import type { Environment } from "../../core/environment";
import type { NormalizedIdentity } from "../../core/fold";
import {
  extendLock,
  type LockRecord,
  liveLockExpiry,
  lockAuthorizedLauncher,
  lockDurationSeconds,
} from "../../core/status";
import { appendDomainEvents } from "../../storage/outbox";
import { withTransaction } from "../../storage/transaction";
import { chainsInScope, type EvaluationContext } from "./evaluation";
import { loadDecisionSnapshot } from "./recordLoader";
import type { Caller } from "./validation";

export interface LaunchReport {
  chain: string;
  launchpad: string;
  launcher: string;
  tokenOrMint: string;
}

export interface LockReport {
  chain: string;
  launchpad: string;
  wasReserved: boolean;
}

export interface LockResult {
  identityKey: string;
  chain: string;
  kind: LockRecord["kind"];
  wasReserved: boolean;
  lockSeconds: number;
  authorizedLauncher: string | null;
  previousExpiry: string | null;
  newExpiry: string;
  extended: boolean;
}

/** Serialises changes to one identity on one chain, so concurrent reports compute longest-lock correctly. */
async function lockIdentity(
  client: PoolClient,
  environment: Environment,
  identityKey: string,
  chain: string,
): Promise<void> {
  await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [
    `identity:${environment}:${chain}:${identityKey}`,
  ]);
}

export async function recordLaunch(
  pool: Pool,
  context: EvaluationContext,
  caller: Caller,
  identity: NormalizedIdentity,
  report: LaunchReport,
): Promise<{ identityKey: string; chain: string; launchedAt: string; eventId: string }> {
  const now = context.now;
  return withTransaction(pool, async (client) => {
    const snapshot = await loadDecisionSnapshot(client, caller.environment, identity, report.chain);
    const [chain] = chainsInScope(snapshot, context, report.chain);
    if (chain !== undefined) assertLauncherFormat(report.launcher, chain.family, report.chain);
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO identity_launches (environment, identity_key, chain, launcher, token_or_mint, launchpad, partner_id, reported_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
      [
        caller.environment,
        identity.identityKey,
        report.chain,
        report.launcher,
        report.tokenOrMint,
        report.launchpad,
        caller.partnerId,
        now,
      ],
    );
    await appendDomainEvents(client, [
      {
        type: "launch.reported",
        environment: caller.environment,
        partnerId: caller.partnerId,
        payload: { identityKey: identity.identityKey, ...report, reportedAt: now.toISOString() },
      },
    ]);
    return {
      identityKey: identity.identityKey,
      chain: report.chain,
      launchedAt: now.toISOString(),
      eventId: `launch_${rows[0]?.id}`,
    };
  });
}

const LOCK_EVENT: Readonly<Record<LockRecord["kind"], "token.bonded" | "milestone.verified">> = {
  bonded: "token.bonded",
  milestone: "milestone.verified",
};

export async function recordLock(
  pool: Pool,
  context: EvaluationContext,
  caller: Caller,
  identity: NormalizedIdentity,
  kind: LockRecord["kind"],
  report: LockReport,
): Promise<LockResult> {
  const now = context.now;
  return withTransaction(pool, async (client) => {
    await lockIdentity(client, caller.environment, identity.identityKey, report.chain);
    const snapshot = await loadDecisionSnapshot(client, caller.environment, identity, report.chain);
    chainsInScope(snapshot, context, report.chain);
    const { records } = snapshot;
    const lockSeconds = lockDurationSeconds(kind, report.wasReserved);
    const previousExpiry = liveLockExpiry(records, report.chain, now);
    const { newExpiry } = extendLock(previousExpiry, now, lockSeconds);
    const authorizedLauncher = lockAuthorizedLauncher(records, report.chain, now);
    await client.query(
      `INSERT INTO identity_locks (environment, identity_key, chain, kind, was_reserved, authorized_launcher, applied_at,
                                   expires_at, previous_expiry, launchpad, partner_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [
        caller.environment,
        identity.identityKey,
        report.chain,
        kind,
        report.wasReserved,
        authorizedLauncher,
        now,
        new Date(now.getTime() + lockSeconds * 1000),
        previousExpiry,
        report.launchpad,
        caller.partnerId,
      ],
    );
    const extended = previousExpiry === null || newExpiry.getTime() > previousExpiry.getTime();
    const result: LockResult = {
      identityKey: identity.identityKey,
      chain: report.chain,
      kind,
      wasReserved: report.wasReserved,
      lockSeconds,
      authorizedLauncher,
      previousExpiry: previousExpiry?.toISOString() ?? null,
      newExpiry: newExpiry.toISOString(),
      extended,
    };
    const event = (type: Parameters<typeof appendDomainEvents>[1][number]["type"]) => ({
      type,
      environment: caller.environment,
      partnerId: caller.partnerId,
      payload: { ...result, launchpad: report.launchpad },
    });
    const protection =
      previousExpiry === null ? [event("identity.protected")] : extended ? [event("identity.extended")] : [];
    await appendDomainEvents(client, [event(LOCK_EVENT[kind]), ...protection]);
    return result;
  });
}
