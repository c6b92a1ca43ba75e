// Changes to one identity on one chain that decide who holds it (a lock report, a prepare, a sandbox hold) run
// one at a time: each takes a transaction-scoped advisory lock on the identity (serializeIdentityChanges), so
// none passes its checks on a state another is about to change; and what such a change reads under it.
import type { PoolClient } from "pg";
import { sameAddress } from "../../core/address/equality";
import type { Environment } from "../../core/environment";

export async function serializeIdentityChanges(
  client: PoolClient,
  environment: Environment,
  identityKey: string,
  chain: string,
): Promise<void> {
  await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [
    `identity:${environment}:${chain}:${identityKey}`,
  ]);
}

/**
 * Whether a live lock on the identity holds it for someone other than `launcher` (in the sandbox, among
 * `partnerId`'s own locks only), read inside the caller's serialised transaction.
 */
export async function lockedForAnother(
  client: PoolClient,
  lock: { environment: Environment; partnerId: string | null; identityKey: string; chain: string },
  launcher: string,
  now: Date,
): Promise<boolean> {
  const { rows } = await client.query<{ authorized_launcher: string | null }>(
    `SELECT authorized_launcher FROM identity_locks
      WHERE environment = $1 AND identity_key = $2 AND chain = $3 AND expires_at > $4
        AND (environment = 'production' OR partner_id = $5)`,
    [lock.environment, lock.identityKey, lock.chain, now, lock.partnerId],
  );
  return rows.some(
    (row) => row.authorized_launcher === null || !sameAddress(row.authorized_launcher, launcher),
  );
}
