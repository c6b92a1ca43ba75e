// Decision signing keys in `signing_keys`: created on first start, rotated, retired and revoked by
// operators (audited), private keys sealed under the master key with core/keyring.
import type { Pool, PoolClient } from "pg";
import { DECISION_LIFETIME_SECONDS, DEFAULT_SKEW_SECONDS } from "../../core/decision";
import { ENVIRONMENTS, type Environment } from "../../core/environment";
import { ServiceError } from "../../core/errors/serviceError";
import {
  generateEvmDecisionKey,
  generateSigningKey,
  type SigningKeyRecord,
  type SigningKeyStatus,
  sealEvmPrivateKey,
  sealPrivateKey,
} from "../../core/keyring";
import type { SecretBox } from "../../core/secrets/secretBox";
import { type Actor, appendAudit } from "../../storage/audit";
import { withTransaction } from "../../storage/transaction";

/** Verifiers cache published keys for about 5 minutes (spec: Limits). */
export const VERIFIER_KEY_CACHE_SECONDS = 300;
/**
 * How long a rotated-out key stays published as `retiring`. The floor is a decision's lifetime plus the
 * verifiers' key cache plus the clock skew (10.5 min); one hour leaves room for slow caches.
 */
export const KEY_OVERLAP_SECONDS = 3600;
export const MIN_KEY_OVERLAP_SECONDS =
  DECISION_LIFETIME_SECONDS + VERIFIER_KEY_CACHE_SECONDS + DEFAULT_SKEW_SECONDS;

export class SigningKeyStoreError extends ServiceError {
  constructor(message: string) {
    super(message);
  }
}

export interface StoredSigningKey extends SigningKeyRecord {
  retiringAt: Date | null;
  revokedAt: Date | null;
}

interface KeyRow {
  kid: string;
  environment: Environment;
  status: SigningKeyStatus;
  public_key: Buffer;
  evm_address: `0x${string}` | null;
  created_at: Date;
  retiring_at: Date | null;
  revoked_at: Date | null;
}

const KEY_COLUMNS = "kid, environment, status, public_key, evm_address, created_at, retiring_at, revoked_at";

function storedKeyOf(row: KeyRow): StoredSigningKey {
  return {
    kid: row.kid,
    environment: row.environment,
    status: row.status,
    publicKeyBase64: row.public_key.toString("base64"),
    ...(row.evm_address === null ? {} : { evmAddress: row.evm_address }),
    createdAt: row.created_at,
    retiringAt: row.retiring_at,
    revokedAt: row.revoked_at,
  };
}

export async function listSigningKeys(pool: Pool | PoolClient): Promise<StoredSigningKey[]> {
  const { rows } = await pool.query<KeyRow>(
    `SELECT ${KEY_COLUMNS} FROM signing_keys ORDER BY environment, created_at`,
  );
  return rows.map(storedKeyOf);
}

async function insertActiveKey(
  client: PoolClient,
  box: SecretBox,
  environment: Environment,
  now: Date,
): Promise<string> {
  const generated = generateSigningKey(environment, now);
  await client.query(
    `INSERT INTO signing_keys
       (kid, environment, status, public_key, private_key_encrypted, evm_address, evm_private_key_encrypted, created_at)
     VALUES ($1, $2, 'active', $3, $4, $5, $6, $7)`,
    [
      generated.record.kid,
      environment,
      Buffer.from(generated.record.publicKeyBase64, "base64"),
      sealPrivateKey(box, generated.record.kid, generated.privateKey),
      generated.record.evmAddress,
      sealEvmPrivateKey(box, generated.record.kid, generated.evmPrivateKey),
      now,
    ],
  );
  return generated.record.kid;
}

/** Serialises key changes of one environment across processes (transaction-scoped advisory lock). */
async function lockEnvironment(client: PoolClient, environment: Environment): Promise<void> {
  await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`signing-keys:${environment}`]);
}

/**
 * Gives every active or retiring key of `environment` without an EVM half one (keys made before EVM decisions
 * existed), so the EVM guards can trust the same kids.
 */
async function completeEvmKeys(client: PoolClient, box: SecretBox, environment: Environment): Promise<void> {
  const { rows } = await client.query<{ kid: string }>(
    `SELECT kid FROM signing_keys
     WHERE environment = $1 AND status IN ('active', 'retiring') AND evm_address IS NULL`,
    [environment],
  );
  for (const { kid } of rows) {
    const evm = generateEvmDecisionKey();
    await client.query(
      "UPDATE signing_keys SET evm_address = $2, evm_private_key_encrypted = $3 WHERE kid = $1",
      [kid, evm.address, sealEvmPrivateKey(box, kid, evm.privateKey)],
    );
    await appendAudit(client, {
      actor: "service",
      action: "signing_key.evm_key_added",
      subject: kid,
      reason: "the key had no EVM half for EIP-712 launch decisions",
      details: { environment, evmAddress: evm.address },
    });
  }
}

/**
 * Creates an active key for every environment that has none, and an EVM half for every live key without one;
 * returns the kids it created.
 */
export async function ensureSigningKeys(pool: Pool, box: SecretBox, now = new Date()): Promise<string[]> {
  const created: string[] = [];
  for (const environment of ENVIRONMENTS) {
    await withTransaction(pool, async (client) => {
      await lockEnvironment(client, environment);
      await completeEvmKeys(client, box, environment);
      const { rowCount } = await client.query(
        "SELECT 1 FROM signing_keys WHERE environment = $1 AND status = 'active'",
        [environment],
      );
      if (rowCount) return;
      const kid = await insertActiveKey(client, box, environment, now);
      await appendAudit(client, {
        actor: "service",
        action: "signing_key.created",
        subject: kid,
        reason: `first start: the ${environment} environment had no active signing key`,
        details: { environment },
      });
      created.push(kid);
    });
  }
  return created;
}

/** Rotation: a new active key; the previous active key is published as `retiring` for the overlap. */
export async function rotateSigningKey(
  pool: Pool,
  box: SecretBox,
  environment: Environment,
  by: Actor,
  now = new Date(),
): Promise<{ kid: string; retiringKid: string | null }> {
  return withTransaction(pool, async (client) => {
    await lockEnvironment(client, environment);
    const previous = await client.query<{ kid: string }>(
      `UPDATE signing_keys SET status = 'retiring', retiring_at = $2
       WHERE environment = $1 AND status = 'active' RETURNING kid`,
      [environment, now],
    );
    const retiringKid = previous.rows[0]?.kid ?? null;
    const kid = await insertActiveKey(client, box, environment, now);
    await appendAudit(client, {
      ...by,
      action: "signing_key.rotated",
      subject: kid,
      details: { environment, retiringKid, overlapSeconds: KEY_OVERLAP_SECONDS },
    });
    return { kid, retiringKid };
  });
}

/**
 * Emergency revocation: the key is published as `revoked` from now on, so its decisions verify as
 * revoked_key. Revoking the active key rotates a replacement in within the same transaction.
 */
export async function revokeSigningKey(
  pool: Pool,
  box: SecretBox,
  kid: string,
  by: Actor,
  now = new Date(),
): Promise<{ replacementKid: string | null }> {
  return withTransaction(pool, async (client) => {
    const found = await client.query<{ environment: Environment; status: SigningKeyStatus }>(
      "SELECT environment, status FROM signing_keys WHERE kid = $1",
      [kid],
    );
    const key = found.rows[0];
    if (key === undefined)
      throw new SigningKeyStoreError(`No signing key has id ${kid}; list them with signing-keys:list.`);
    if (key.status === "revoked") throw new SigningKeyStoreError(`Signing key ${kid} is already revoked.`);
    await lockEnvironment(client, key.environment);
    await client.query("UPDATE signing_keys SET status = 'revoked', revoked_at = $2 WHERE kid = $1", [
      kid,
      now,
    ]);
    const replacementKid =
      key.status === "active" ? await insertActiveKey(client, box, key.environment, now) : null;
    await appendAudit(client, {
      ...by,
      action: "signing_key.revoked",
      subject: kid,
      details: { environment: key.environment, previousStatus: key.status, replacementKid },
    });
    return { replacementKid };
  });
}

/**
 * Retirement ends a retiring key's overlap: the row, private key included, is deleted, so the key is no
 * longer published and its decisions verify as unknown_key. Without `kid`, every retiring key whose
 * overlap has passed is retired. A key still inside its overlap is refused unless `force` is set.
 */
export async function retireSigningKeys(
  pool: Pool,
  by: Actor,
  options: { kid?: string; force?: boolean; now?: Date } = {},
): Promise<string[]> {
  const now = options.now ?? new Date();
  return withTransaction(pool, async (client) => {
    const { rows } = await client.query<KeyRow>(
      `SELECT ${KEY_COLUMNS} FROM signing_keys WHERE status = 'retiring' AND ($1::text IS NULL OR kid = $1)`,
      [options.kid ?? null],
    );
    if (options.kid !== undefined && rows.length === 0) {
      throw new SigningKeyStoreError(
        `Signing key ${options.kid} is not retiring; only retiring keys can be retired.`,
      );
    }
    const overlapEnds = (row: KeyRow) => (row.retiring_at?.getTime() ?? 0) + KEY_OVERLAP_SECONDS * 1000;
    const due = rows.filter((row) => options.force === true || overlapEnds(row) <= now.getTime());
    if (options.kid !== undefined && due.length === 0) {
      throw new SigningKeyStoreError(
        `Signing key ${options.kid} is inside its overlap until ${new Date(overlapEnds(rows[0] as KeyRow)).toISOString()}; decisions it signed may still be verified. Pass --force to retire it anyway.`,
      );
    }
    for (const row of due) {
      await client.query("DELETE FROM signing_keys WHERE kid = $1", [row.kid]);
      await appendAudit(client, {
        ...by,
        action: "signing_key.retired",
        subject: row.kid,
        details: {
          environment: row.environment,
          publicKeyBase64: row.public_key.toString("base64"),
          evmAddress: row.evm_address,
          retiringAt: row.retiring_at?.toISOString() ?? null,
          forced: options.force === true && overlapEnds(row) > now.getTime(),
        },
      });
    }
    return due.map((row) => row.kid);
  });
}
