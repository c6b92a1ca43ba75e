// Rows of the indexers' read model and signing keys, written straight into a test schema.
import type { Pool } from "pg";
import type { Environment } from "../../../core/environment";
import { foldedHash, foldV1 } from "../../../core/fold";
import { type GeneratedSigningKey, generateSigningKey, type SigningKeyStatus } from "../../../core/keyring";

export interface ReservationFixture {
  chain: string;
  name: string;
  ticker: string;
  launcher: string;
  reservedAt: Date;
  expiresAt: Date;
}

export async function insertReservation(pool: Pool, row: ReservationFixture): Promise<void> {
  const name = foldV1(row.name);
  const ticker = foldV1(row.ticker);
  await pool.query(
    `INSERT INTO chain_reservations (chain, name_hash, ticker_hash, normalized_name, normalized_ticker, launcher,
       reserved_at, expires_at, duration_seconds, fee_paid, tx_hash, block_number)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 1000, $10, 7)`,
    [
      row.chain,
      foldedHash(name),
      foldedHash(ticker),
      name,
      ticker,
      row.launcher,
      row.reservedAt,
      row.expiresAt,
      Math.round((row.expiresAt.getTime() - row.reservedAt.getTime()) / 1000),
      `0x${"ab".repeat(32)}`,
    ],
  );
}

export async function insertSigningKey(
  pool: Pool,
  environment: Environment,
  status: SigningKeyStatus,
  createdAt: Date,
): Promise<GeneratedSigningKey> {
  const generated = generateSigningKey(environment, createdAt);
  await pool.query(
    `INSERT INTO signing_keys (kid, environment, status, public_key, private_key_encrypted, created_at)
     VALUES ($1, $2, $3, $4, 'not-used-by-these-tests', $5)`,
    [
      generated.record.kid,
      environment,
      status,
      Buffer.from(generated.record.publicKeyBase64, "base64"),
      createdAt,
    ],
  );
  return generated;
}

export async function insertCheckpoint(
  pool: Pool,
  row: { chain: string; family: "evm" | "solana"; head: number; indexed: number; indexedAt: Date },
): Promise<void> {
  await pool.query(
    `INSERT INTO chain_checkpoints (chain, family, head_number, head_seen_at, indexed_number, indexed_block_time, indexed_at)
     VALUES ($1, $2, $3, $5, $4, $5, $5)`,
    [row.chain, row.family, row.head, row.indexed, row.indexedAt],
  );
}

/** Rows of the decision engine's own production records (locks, guardian actions, launch reports). */
export async function insertLock(
  pool: Pool,
  row: { identityKey: string; chain: string; launcher: string; appliedAt: Date; expiresAt: Date },
): Promise<void> {
  await pool.query(
    `INSERT INTO identity_locks (environment, identity_key, chain, kind, was_reserved, authorized_launcher, applied_at, expires_at)
     VALUES ('production', $1, $2, 'bonded', true, $3, $4, $5)`,
    [row.identityKey, row.chain, row.launcher, row.appliedAt, row.expiresAt],
  );
}

export async function insertGuardianAction(
  pool: Pool,
  row: { identityKey: string; chain: string | null; kind: "block" | "clear"; at: Date },
): Promise<void> {
  await pool.query(
    `INSERT INTO guardian_actions (environment, identity_key, chain, kind, actor, reason, at)
     VALUES ('production', $1, $2, $3, 'guardian-test', 'test', $4)`,
    [row.identityKey, row.chain, row.kind, row.at],
  );
}

export async function insertLaunch(
  pool: Pool,
  row: { identityKey: string; chain: string; launcher: string; reportedAt: Date },
): Promise<void> {
  await pool.query(
    `INSERT INTO identity_launches (environment, identity_key, chain, launcher, token_or_mint, launchpad, reported_at)
     VALUES ('production', $1, $2, $3, '0xtoken', 'test-pad', $4)`,
    [row.identityKey, row.chain, row.launcher, row.reportedAt],
  );
}
