// Reporting: launch reports (a `launched` event, no lock) and bonding / milestone events (copycat locks with
// longest-lock semantics). A lock rests on facts: the reporting partner's recorded launch (its launcher is
// the lock's), the chain's reservations (reserved or not; never over another wallet's), the live prepares
// (never reserved; another wallet's defers it), never the body's word (core/status/lockBasis). Each change and
// its outbox events commit in one transaction; a refused lock report is audited. Launchpad ids must be the
// reporter's (services/partners/launchpads). Not deduplicated.
import type { Pool, PoolClient } from "pg";
import { assertLauncherFormat } from "../../core/address/launcherFormat";
import { ApiError } from "../../core/errors/catalogue";
import type { NormalizedIdentity } from "../../core/fold";
import {
  extendLock,
  isLockRefusal,
  type LockRecord,
  type LockRefusal,
  liveLockExpiry,
  lockBasis,
  type ReportedLaunch,
} from "../../core/status";
import { appendDomainEvents } from "../../storage/domainEvents";
import { withTransaction } from "../../storage/transaction";
import { assertOwnLaunchpad } from "../partners/launchpads";
import { pendingPrepares } from "../reservations/store";
import { chainFreshness, chainsInScope, type EvaluationContext } from "./evaluation";
import { serializeIdentityChanges } from "./identityChanges";
import { auditRefusal, type RefusedLock } from "./lockRefusals";
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
  /** The reporter's statement: it may only confirm what the records say. */
  wasReserved?: boolean | undefined;
  /** Which of the partner's launches bonded; its newest launch of the identity on the chain when absent. */
  tokenOrMint?: string | undefined;
}

export interface LockResult {
  identityKey: string;
  chain: string;
  kind: LockRecord["kind"];
  /** From the records: whether the launch's launcher held the identity (lockBasis). */
  wasReserved: boolean;
  tokenOrMint: string;
  lockSeconds: number;
  /** The launch's launcher. */
  authorizedLauncher: string;
  previousExpiry: string | null;
  newExpiry: string;
  extended: boolean;
}

/** What a report decides on: the caller's own launchpad id (403 otherwise), then the identity's records on its chain. */
async function reportSnapshot(
  client: PoolClient,
  caller: Caller,
  identity: NormalizedIdentity,
  report: { chain: string; launchpad: string },
) {
  await assertOwnLaunchpad(client, { ...callerUse(caller), launchpad: report.launchpad });
  return loadDecisionSnapshot(client, caller.environment, identity, report.chain, caller.partnerId);
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
    const snapshot = await reportSnapshot(client, caller, identity, report);
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
        payload: {
          identityKey: identity.identityKey,
          normalizedName: identity.normalizedName,
          normalizedTicker: identity.normalizedTicker,
          chain: report.chain,
          launchpad: report.launchpad,
          launcher: report.launcher,
          tokenOrMint: report.tokenOrMint,
          reportedAt: now.toISOString(),
        },
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

/**
 * Who hears that a lock protects an identity: in production every partner (any launchpad could launch a copycat;
 * the lock's facts are public on the status lookup and the protected list), in the sandbox the reporter alone (its
 * sandbox records are its own).
 */
function protectionAudience(caller: Caller): string | null {
  return caller.environment === "production" ? null : caller.partnerId;
}

function callerUse(caller: Caller) {
  return { environment: caller.environment, partnerId: caller.partnerId };
}

/** The reporting partner's launch the lock report refers to, or undefined when none was reported. */
async function reportedLaunch(
  client: PoolClient,
  caller: Caller,
  identity: NormalizedIdentity,
  report: LockReport,
  now: Date,
): Promise<ReportedLaunch | undefined> {
  const { rows } = await client.query<{ launcher: string; token_or_mint: string; reported_at: Date }>(
    `SELECT launcher, token_or_mint, reported_at FROM identity_launches
      WHERE environment = $1 AND identity_key = $2 AND chain = $3 AND partner_id = $4 AND reported_at <= $5
        AND ($6::text IS NULL OR token_or_mint = $6)
      ORDER BY reported_at DESC, id DESC LIMIT 1`,
    [
      caller.environment,
      identity.identityKey,
      report.chain,
      caller.partnerId,
      now,
      report.tokenOrMint ?? null,
    ],
  );
  const row = rows[0];
  if (row === undefined) return undefined;
  return { chain: report.chain, launcher: row.launcher, tokenOrMint: row.token_or_mint, at: row.reported_at };
}

/** A chain whose mirror is not current may miss a reservation: no lock on it (fail closed, retry). */
function assertCurrent(freshness: ReturnType<typeof chainFreshness>, chain: string): void {
  if (freshness.state === "fresh") return;
  throw new ApiError(
    "service_unavailable",
    `The reservations of chain ${chain} are not current (${freshness.state}); a lock is applied only on current data, retry shortly.`,
    { chain, freshness: freshness.state },
  );
}

const LOCK_REFUSAL_MESSAGES: Readonly<
  Record<Exclude<LockRefusal["reason"], "reservation_state_mismatch">, string>
> = {
  reserved_by_another_wallet:
    "Another wallet holds a live on-chain reservation of this identity on this chain; a lock never overrides it.",
  launched_over_reservation:
    "The reported launch happened while another wallet held a reservation of this identity on this chain; it earns no lock.",
  reservation_payment_pending:
    "Another wallet has prepared a reservation of this identity on this chain and may be paying for it; the lock waits: retry after details.holdExpiresAt, when that payment has confirmed (then no lock) or lapsed.",
  locked_for_another_launcher:
    "A live lock on this identity and chain protects another launcher; it is not extended for this launch.",
};

function refusalError(refusal: LockRefusal | "launch_not_reported", launch?: ReportedLaunch): ApiError {
  if (refusal === "launch_not_reported") return new ApiError("launch_not_reported");
  const facts = { launcher: launch?.launcher, launchedAt: launch?.at.toISOString() };
  switch (refusal.reason) {
    case "reservation_state_mismatch":
      return new ApiError("reservation_state_mismatch", undefined, { ...refusal, ...facts });
    case "locked_for_another_launcher":
      return new ApiError("identity_held", LOCK_REFUSAL_MESSAGES[refusal.reason], {
        ...refusal,
        lockExpiresAt: refusal.lockExpiresAt.toISOString(),
        ...facts,
      });
    default:
      return new ApiError("identity_held", LOCK_REFUSAL_MESSAGES[refusal.reason], {
        ...refusal,
        holdExpiresAt: refusal.holdExpiresAt.toISOString(),
        ...facts,
      });
  }
}

export async function recordLock(
  pool: Pool,
  context: EvaluationContext,
  caller: Caller,
  identity: NormalizedIdentity,
  kind: LockRecord["kind"],
  report: LockReport,
): Promise<LockResult> {
  const now = context.now;
  const outcome = await withTransaction(pool, async (client): Promise<LockResult | RefusedLock> => {
    await serializeIdentityChanges(client, caller.environment, identity.identityKey, report.chain);
    const snapshot = await reportSnapshot(client, caller, identity, report);
    chainsInScope(snapshot, context, report.chain);
    assertCurrent(chainFreshness(snapshot, context, report.chain), report.chain);
    const prepares = await pendingPrepares(
      client,
      caller.environment,
      caller.partnerId,
      identity.identityKey,
      report.chain,
      now,
    );
    const { records } = snapshot;
    const launch = await reportedLaunch(client, caller, identity, report, now);
    if (launch === undefined) {
      return auditRefusal(client, caller, identity, { kind, ...report }, refusalError("launch_not_reported"));
    }
    const basis = lockBasis(records, {
      kind,
      launch,
      claimedReserved: report.wasReserved,
      pendingPrepares: prepares,
      now,
    });
    if (isLockRefusal(basis)) {
      return auditRefusal(client, caller, identity, { kind, ...report }, refusalError(basis, launch));
    }
    const { lockSeconds, authorizedLauncher } = basis;
    const previousExpiry = liveLockExpiry(records, report.chain, now);
    const { newExpiry } = extendLock(previousExpiry, now, lockSeconds);
    await client.query(
      `INSERT INTO identity_locks (environment, identity_key, chain, kind, was_reserved, authorized_launcher, applied_at,
                                   expires_at, previous_expiry, launchpad, partner_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [
        caller.environment,
        identity.identityKey,
        report.chain,
        kind,
        basis.reserved,
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
      wasReserved: basis.reserved,
      tokenOrMint: launch.tokenOrMint,
      lockSeconds,
      authorizedLauncher,
      previousExpiry: previousExpiry?.toISOString() ?? null,
      newExpiry: newExpiry.toISOString(),
      extended,
    };
    const event = (
      type: Parameters<typeof appendDomainEvents>[1][number]["type"],
      partnerId: string | null,
    ) => ({
      type,
      environment: caller.environment,
      partnerId,
      payload: { source: "lock", ...result, protectedUntil: result.newExpiry, launchpad: report.launchpad },
    });
    const audience = protectionAudience(caller);
    const protection =
      previousExpiry === null
        ? [event("identity.protected", audience)]
        : extended
          ? [event("identity.extended", audience)]
          : [];
    await appendDomainEvents(client, [event(LOCK_EVENT[kind], caller.partnerId), ...protection]);
    return result;
  });
  if ("refused" in outcome) throw outcome.refused;
  return outcome;
}
