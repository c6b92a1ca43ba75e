// Launchpad ids bound to partners: a `launchpad` value a partner sends is signed into decisions as
// `launchpadId` and stored on reports, so it must be that partner's. One binding per environment and id.
// Operators bind ids (both environments, audited); in the sandbox an unbound id is claimed by the first
// partner that uses it, so sandbox keys work self-serve; in production an unbound id is refused. The
// embed allowlist attributes fees through the same binding (services/reservations/embedLaunchpads).
// docs/decisions.md ("Decided here: launchpad ids belong to partners").
import type { Pool, PoolClient } from "pg";
import type { Environment } from "../../core/environment";
import { ApiError } from "../../core/errors/catalogue";
import { type Actor, appendAudit } from "../../storage/audit";
import { withTransaction } from "../../storage/transaction";

export const LAUNCHPAD_PATTERN = /^[a-z0-9][a-z0-9-]{1,62}$/;
const ENVIRONMENTS: readonly Environment[] = ["production", "sandbox"];

/**
 * SQL for the partner an id is bound to in an environment (null when unbound), over two SQL expressions.
 * Qualify outer columns (`embed.launchpad`): a bare `launchpad` would name the binding's own column.
 */
export function launchpadPartnerSql(environment: string, launchpad: string): string {
  return `(SELECT bound.partner_id FROM partner_launchpads AS bound
            WHERE bound.environment = ${environment} AND bound.launchpad = ${launchpad})`;
}

/** The launchpad a caller names: its own partner id when it sends none (validate only). */
export interface LaunchpadUse {
  environment: Environment;
  partnerId: string;
  launchpad: string;
}

/** 400 unless `launchpad` is the caller's partner id or has the shape of a launchpad id. */
export function assertLaunchpadShape(launchpad: string, partnerId: string): void {
  if (launchpad === partnerId || LAUNCHPAD_PATTERN.test(launchpad)) return;
  throw new ApiError(
    "invalid_request",
    "`launchpad` must be 2-63 lowercase letters, digits or dashes, starting with a letter or digit (or your partner id).",
    { field: "launchpad" },
  );
}

/**
 * What a use of `launchpad` may do given the partner it is bound to (`owner`, null when unbound): go on,
 * claim it (sandbox only), or be refused (403).
 */
export function launchpadStanding(use: LaunchpadUse, owner: string | null): "own" | "claim" {
  if (use.launchpad === use.partnerId || owner === use.partnerId) return "own";
  if (owner !== null) {
    throw new ApiError("launchpad_of_another_partner", undefined, { launchpad: use.launchpad });
  }
  if (use.environment === "sandbox") return "claim";
  throw new ApiError("launchpad_not_registered", undefined, { launchpad: use.launchpad });
}

/** Binds an unbound sandbox id to the caller; the partner that holds it afterwards (a racing claim may win). */
async function claimSandboxLaunchpad(db: Pool | PoolClient, use: LaunchpadUse): Promise<string | null> {
  const claimed = await db.query<{ partner_id: string }>(
    `INSERT INTO partner_launchpads (environment, launchpad, partner_id, source, bound_by)
     VALUES ('sandbox', $1, $2, 'sandbox_claim', $2) ON CONFLICT DO NOTHING RETURNING partner_id`,
    [use.launchpad, use.partnerId],
  );
  if (claimed.rows[0] !== undefined) return claimed.rows[0].partner_id;
  return launchpadOwner(db, "sandbox", use.launchpad);
}

/** The partner `launchpad` is bound to in `environment`, or null. */
export async function launchpadOwner(
  db: Pool | PoolClient,
  environment: Environment,
  launchpad: string,
): Promise<string | null> {
  const { rows } = await db.query<{ partner_id: string }>(
    "SELECT partner_id FROM partner_launchpads WHERE environment = $1 AND launchpad = $2",
    [environment, launchpad],
  );
  return rows[0]?.partner_id ?? null;
}

/**
 * Refuses (403) a launchpad id that is not the caller's, given its owner as already read (validation reads it
 * in its admission statement); claims an unbound sandbox id, which costs a statement only on first use.
 */
export async function assertLaunchpadOf(
  db: Pool | PoolClient,
  use: LaunchpadUse,
  owner: string | null,
): Promise<void> {
  if (launchpadStanding(use, owner) === "own") return;
  if (launchpadStanding(use, await claimSandboxLaunchpad(db, use)) !== "own") {
    throw new ApiError("service_unavailable", "The launchpad id could not be claimed; retry.");
  }
}

/** `assertLaunchpadOf` reading the owner first: for the reports, which are not on the hot path. */
export async function assertOwnLaunchpad(db: Pool | PoolClient, use: LaunchpadUse): Promise<void> {
  assertLaunchpadShape(use.launchpad, use.partnerId);
  const owner =
    use.launchpad === use.partnerId ? null : await launchpadOwner(db, use.environment, use.launchpad);
  await assertLaunchpadOf(db, use, owner);
}

function checkedLaunchpad(launchpad: string): void {
  if (!LAUNCHPAD_PATTERN.test(launchpad)) {
    throw new TypeError(
      "launchpad must be 2-63 lowercase letters, digits or dashes, starting with a letter or digit",
    );
  }
}

/**
 * Binds `launchpad` to `partnerId` in both environments (an operator's binding replaces a sandbox claim or
 * an earlier binding; the previous partners go to the audit log). Inside the caller's transaction.
 */
export async function bindLaunchpadIn(
  client: PoolClient,
  launchpad: string,
  partnerId: string,
  by: Actor,
): Promise<void> {
  checkedLaunchpad(launchpad);
  const { rows } = await client.query<{ environment: Environment; partner_id: string }>(
    "SELECT environment, partner_id FROM partner_launchpads WHERE launchpad = $1 FOR UPDATE",
    [launchpad],
  );
  for (const environment of ENVIRONMENTS) {
    await client.query(
      `INSERT INTO partner_launchpads (environment, launchpad, partner_id, source, bound_by)
       VALUES ($1, $2, $3, 'operator', $4)
       ON CONFLICT (environment, launchpad) DO UPDATE
         SET partner_id = $3, source = 'operator', bound_by = $4, bound_at = now()`,
      [environment, launchpad, partnerId, by.actor],
    );
  }
  const previous = Object.fromEntries(rows.map((row) => [row.environment, row.partner_id]));
  await appendAudit(client, {
    ...by,
    action: "launchpad.bind",
    subject: `launchpad:${launchpad}`,
    details: { partnerId, previous },
  });
}

export async function bindLaunchpad(pool: Pool, launchpad: string, partnerId: string, by: Actor) {
  await withTransaction(pool, (client) => bindLaunchpadIn(client, launchpad, partnerId, by));
}

/** Removes the id's bindings in both environments; false when it had none. */
export async function unbindLaunchpad(pool: Pool, launchpad: string, by: Actor): Promise<boolean> {
  return withTransaction(pool, async (client) => {
    const { rows } = await client.query<{ environment: Environment; partner_id: string }>(
      "DELETE FROM partner_launchpads WHERE launchpad = $1 RETURNING environment, partner_id",
      [launchpad],
    );
    if (rows.length === 0) return false;
    await appendAudit(client, {
      ...by,
      action: "launchpad.unbind",
      subject: `launchpad:${launchpad}`,
      details: { previous: Object.fromEntries(rows.map((row) => [row.environment, row.partner_id])) },
    });
    return true;
  });
}

export interface LaunchpadBinding {
  environment: Environment;
  launchpad: string;
  partnerId: string;
  source: "operator" | "sandbox_claim";
  boundAt: Date;
}

export async function listLaunchpads(pool: Pool): Promise<LaunchpadBinding[]> {
  const { rows } = await pool.query<{
    environment: Environment;
    launchpad: string;
    partner_id: string;
    source: LaunchpadBinding["source"];
    bound_at: Date;
  }>(
    "SELECT environment, launchpad, partner_id, source, bound_at FROM partner_launchpads ORDER BY launchpad, environment",
  );
  return rows.map((row) => ({
    environment: row.environment,
    launchpad: row.launchpad,
    partnerId: row.partner_id,
    source: row.source,
    boundAt: row.bound_at,
  }));
}
