// The signing key ring as a pure model: records in, records out. Storage belongs to the caller.
// Lifecycle per environment: one `active` key signs; rotation makes the previous one `retiring` (still
// published and accepted during the overlap); revocation marks a kid `revoked` (published, rejected).
import type { Environment } from "../environment";
import { ServiceError } from "../errors/serviceError";
import type { PublicKeyEntry, SigningKeyStatus } from "./publicKeyEntry";

export interface SigningKeyRecord {
  kid: string;
  environment: Environment;
  status: SigningKeyStatus;
  /** base64 of the raw 32-byte Ed25519 public key. */
  publicKeyBase64: string;
  /** The address of the key's EVM half (core/keyring/evmDecisionKey.ts); absent until the key has one. */
  evmAddress?: `0x${string}`;
  createdAt: Date;
}

export class KeyRingError extends ServiceError {
  constructor(message: string) {
    super(message);
  }
}

/** Throws KeyRingError unless kids are unique and every environment present has exactly one active key. */
export function assertValidKeyRing(records: readonly SigningKeyRecord[]): void {
  const kids = new Set<string>();
  const activeCount = new Map<Environment, number>();
  for (const record of records) {
    if (kids.has(record.kid))
      throw new KeyRingError(`Key id ${record.kid} appears twice; key ids must be unique.`);
    kids.add(record.kid);
    activeCount.set(
      record.environment,
      (activeCount.get(record.environment) ?? 0) + (record.status === "active" ? 1 : 0),
    );
  }
  for (const [environment, count] of activeCount) {
    if (count !== 1) {
      throw new KeyRingError(
        `The ${environment} key ring has ${count} active keys; it needs exactly one. Rotate in a new key or revoke the extra ones.`,
      );
    }
  }
}

/** The one active key of an environment; throws KeyRingError when there is none. */
export function activeKeyOf(
  records: readonly SigningKeyRecord[],
  environment: Environment,
): SigningKeyRecord {
  const active = records.filter((record) => record.environment === environment && record.status === "active");
  if (active.length !== 1) {
    throw new KeyRingError(
      `The ${environment} environment has ${active.length} active signing keys; it needs exactly one. Rotate in a new key.`,
    );
  }
  return active[0] as SigningKeyRecord;
}

/** Adds `incoming` as the active key of its environment; the previous active key becomes retiring. */
export function rotateKeyRing(
  records: readonly SigningKeyRecord[],
  incoming: SigningKeyRecord,
): SigningKeyRecord[] {
  if (records.some((record) => record.kid === incoming.kid)) {
    throw new KeyRingError(`Key id ${incoming.kid} is already in the key ring; generate a new key.`);
  }
  const next = records.map((record) =>
    record.environment === incoming.environment && record.status === "active"
      ? { ...record, status: "retiring" as const }
      : record,
  );
  next.push({ ...incoming, status: "active" });
  assertValidKeyRing(next);
  return next;
}

/**
 * Marks `kid` revoked. Revoking the active key needs a `replacement`, which becomes active in the same
 * step, so an environment is never left without a signing key.
 */
export function revokeKey(
  records: readonly SigningKeyRecord[],
  kid: string,
  replacement?: SigningKeyRecord,
): SigningKeyRecord[] {
  const target = records.find((record) => record.kid === kid);
  if (target === undefined)
    throw new KeyRingError(`No signing key has id ${kid}; list the keys and check the id.`);
  if (target.status === "active" && replacement === undefined) {
    throw new KeyRingError(
      `Key ${kid} is the active ${target.environment} key; revoking it needs a replacement key that becomes active.`,
    );
  }
  if (replacement !== undefined && replacement.environment !== target.environment) {
    throw new KeyRingError(
      `The replacement key must belong to ${target.environment}, like the revoked key ${kid}.`,
    );
  }
  const revoked = records.map((record) =>
    record.kid === kid ? { ...record, status: "revoked" as const } : record,
  );
  return replacement === undefined ? revoked : rotateKeyRing(revoked, replacement);
}

const STATUS_ORDER: Readonly<Record<SigningKeyStatus, number>> = { active: 0, retiring: 1, revoked: 2 };

/** The public entries of GET /v1/keys: active first, then retiring, then revoked (newest first within each). */
export function publicKeyEntries(
  records: readonly SigningKeyRecord[],
  environment?: Environment,
): PublicKeyEntry[] {
  return records
    .filter((record) => environment === undefined || record.environment === environment)
    .slice()
    .sort(
      (left, right) =>
        STATUS_ORDER[left.status] - STATUS_ORDER[right.status] ||
        right.createdAt.getTime() - left.createdAt.getTime(),
    )
    .map((record) => ({
      kid: record.kid,
      environment: record.environment,
      status: record.status,
      active: record.status === "active",
      publicKeyBase64: record.publicKeyBase64,
      ...(record.evmAddress === undefined ? {} : { evmAddress: record.evmAddress }),
    }));
}
