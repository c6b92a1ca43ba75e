// Guardian actions: block an identity (temporary, until cleared, or a permanent graduated block) and clear a
// mistaken block, by an operator (CLI) or by an upheld dispute (services/disputes) inside its transaction.
// Audited with actor and reason; shown in the status timeline; announced as webhook events to everyone.
import type { Pool, PoolClient } from "pg";
import type { Environment } from "../../core/environment";
import { ServiceError } from "../../core/errors/serviceError";
import { parseIdentityKey } from "../../core/fold";
import { guardianBlockInForce } from "../../core/status";
import { type Actor, appendAudit } from "../../storage/audit";
import { appendDomainEvents } from "../../storage/domainEvents";
import { withTransaction } from "../../storage/transaction";

export class GuardianError extends ServiceError {
  constructor(message: string) {
    super(message);
  }
}

export interface BlockOptions {
  environment: Environment;
  identityKey: string;
  /** Only this chain; every chain when omitted. */
  chain?: string;
  graduated?: boolean;
  /** End of a temporary block; lasts until cleared when omitted. Not allowed with graduated. */
  until?: Date;
  /** The upheld dispute that asked for it, named in the event. */
  disputeId?: string;
}

export interface ClearOptions {
  environment: Environment;
  identityKey: string;
  chain?: string;
  disputeId?: string;
}

function checkedKey(identityKey: string): string {
  if (parseIdentityKey(identityKey) === null) {
    throw new GuardianError(
      `"${identityKey}" is not a folded identity key NAME::TICKER; fold it first (e.g. MOONBADGER::BADGER).`,
    );
  }
  return identityKey;
}

/** Places a guardian block in the caller's transaction. */
export async function placeGuardianBlock(
  client: PoolClient,
  options: BlockOptions,
  by: Actor,
  now: Date,
): Promise<void> {
  const identityKey = checkedKey(options.identityKey);
  const graduated = options.graduated === true;
  if (graduated && options.until !== undefined)
    throw new GuardianError("A graduated block is permanent; drop --until.");
  if (options.until !== undefined && options.until.getTime() <= now.getTime()) {
    throw new GuardianError("--until must lie in the future.");
  }
  const chain = options.chain ?? null;
  await client.query(
    `INSERT INTO guardian_actions (environment, identity_key, chain, kind, graduated, expires_at, actor, reason, at)
     VALUES ($1, $2, $3, 'block', $4, $5, $6, $7, $8)`,
    [options.environment, identityKey, chain, graduated, options.until ?? null, by.actor, by.reason, now],
  );
  await appendAudit(client, {
    ...by,
    action: graduated ? "guardian.graduated_block" : "guardian.block",
    subject: identityKey,
    details: {
      environment: options.environment,
      chain,
      until: options.until?.toISOString() ?? null,
      disputeId: options.disputeId ?? null,
    },
  });
  await appendDomainEvents(client, [
    graduated
      ? {
          type: "token.graduated",
          environment: options.environment,
          partnerId: null,
          payload: { identityKey, chain, at: now.toISOString() },
        }
      : {
          type: "identity.protected",
          environment: options.environment,
          partnerId: null,
          payload: {
            source: "guardian",
            identityKey,
            chain,
            protectedUntil: options.until?.toISOString() ?? null,
            reason: by.reason,
            disputeId: options.disputeId ?? null,
          },
        },
  ]);
}

/** Clears the guardian blocks in force in the caller's transaction; GuardianError when none is. */
export async function clearGuardianBlock(
  client: PoolClient,
  options: ClearOptions,
  by: Actor,
  now: Date,
): Promise<void> {
  const identityKey = checkedKey(options.identityKey);
  const { rows } = await client.query<{
    kind: "block" | "clear";
    chain: string | null;
    at: Date;
    graduated: boolean;
    expires_at: Date | null;
  }>(
    "SELECT kind, chain, at, graduated, expires_at FROM guardian_actions WHERE environment = $1 AND identity_key = $2",
    [options.environment, identityKey],
  );
  const records = rows.map((row) => ({ ...row, expiresAt: row.expires_at, actor: "", reason: "" }));
  const chains =
    options.chain === undefined ? [...new Set(rows.map((row) => row.chain ?? "*"))] : [options.chain];
  const blocked = chains.some((chain) => guardianBlockInForce(records, chain, now) !== undefined);
  if (!blocked)
    throw new GuardianError(
      `${identityKey} has no guardian block in force${options.chain ? ` on ${options.chain}` : ""}; nothing to clear.`,
    );
  await client.query(
    `INSERT INTO guardian_actions (environment, identity_key, chain, kind, actor, reason, at) VALUES ($1, $2, $3, 'clear', $4, $5, $6)`,
    [options.environment, identityKey, options.chain ?? null, by.actor, by.reason, now],
  );
  await appendAudit(client, {
    ...by,
    action: "guardian.clear",
    subject: identityKey,
    details: {
      environment: options.environment,
      chain: options.chain ?? null,
      disputeId: options.disputeId ?? null,
    },
  });
  await appendDomainEvents(client, [
    {
      type: "identity.cleared",
      environment: options.environment,
      partnerId: null,
      payload: {
        identityKey,
        chain: options.chain ?? null,
        clearedAt: now.toISOString(),
        reason: by.reason,
        disputeId: options.disputeId ?? null,
      },
    },
  ]);
}

export async function blockIdentity(
  pool: Pool,
  options: BlockOptions,
  by: Actor,
  now = new Date(),
): Promise<void> {
  await withTransaction(pool, (client) => placeGuardianBlock(client, options, by, now));
}

export async function clearIdentity(
  pool: Pool,
  options: ClearOptions,
  by: Actor,
  now = new Date(),
): Promise<void> {
  await withTransaction(pool, (client) => clearGuardianBlock(client, options, by, now));
}
