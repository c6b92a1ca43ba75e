// Wallet-proof challenges (wallet_proof_challenges): written when issued, read by nonce for their owner only,
// and consumed once with a guarded UPDATE, so two answers racing for one nonce cannot both succeed.
import type { Pool, PoolClient } from "pg";
import type { Environment } from "../../core/environment";
import type { ChainFamily } from "../../core/status";

type Db = Pool | PoolClient;

/** Who a challenge belongs to: one partner in one environment, or no partner (a dispute's claimant). */
export interface ProofOwner {
  partnerId: string | null;
  environment: Environment;
}

/** A partner's own challenges (payout wallets). */
export interface PartnerProofOwner extends ProofOwner {
  partnerId: string;
}

/** What a proof is for; each purpose reads only its own challenges. */
export type ProofPurpose = "payout_wallet" | "dispute";

export interface Challenge {
  challengeId: string;
  owner: ProofOwner;
  purpose: ProofPurpose;
  chain: string;
  family: ChainFamily;
  /** As stored: EVM lowercase, Solana exact. */
  address: string;
  nonce: string;
  domain: string;
  message: string;
  issuedAt: Date;
  expiresAt: Date;
  consumedAt: Date | null;
}

interface ChallengeRow {
  challenge_id: string;
  environment: Environment;
  partner_id: string | null;
  purpose: ProofPurpose;
  chain: string;
  family: ChainFamily;
  address: string;
  nonce: string;
  domain: string;
  message: string;
  issued_at: Date;
  expires_at: Date;
  consumed_at: Date | null;
}

function challengeOf(row: ChallengeRow): Challenge {
  return {
    challengeId: row.challenge_id,
    owner: { partnerId: row.partner_id, environment: row.environment },
    purpose: row.purpose,
    chain: row.chain,
    family: row.family,
    address: row.address,
    nonce: row.nonce,
    domain: row.domain,
    message: row.message,
    issuedAt: row.issued_at,
    expiresAt: row.expires_at,
    consumedAt: row.consumed_at,
  };
}

export async function insertChallenge(db: Db, challenge: Challenge): Promise<void> {
  await db.query(
    `INSERT INTO wallet_proof_challenges (challenge_id, environment, partner_id, purpose, chain, family, address,
       nonce, domain, message, issued_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
    [
      challenge.challengeId,
      challenge.owner.environment,
      challenge.owner.partnerId,
      challenge.purpose,
      challenge.chain,
      challenge.family,
      challenge.address,
      challenge.nonce,
      challenge.domain,
      challenge.message,
      challenge.issuedAt,
      challenge.expiresAt,
    ],
  );
}

/** The owner's challenge of `purpose` with this nonce; another partner's or environment's reads as none. */
export async function ownChallengeByNonce(
  db: Db,
  owner: ProofOwner,
  purpose: ProofPurpose,
  nonce: string,
): Promise<Challenge | undefined> {
  const { rows } = await db.query<ChallengeRow>(
    `SELECT * FROM wallet_proof_challenges
      WHERE nonce = $1 AND partner_id IS NOT DISTINCT FROM $2 AND environment = $3 AND purpose = $4`,
    [nonce, owner.partnerId, owner.environment, purpose],
  );
  const row = rows[0];
  return row === undefined ? undefined : challengeOf(row);
}

/** Marks the challenge used if it is still unused and unexpired at `now`; whether this call consumed it. */
export async function consumeChallenge(client: PoolClient, challengeId: string, now: Date): Promise<boolean> {
  const { rowCount } = await client.query(
    `UPDATE wallet_proof_challenges SET consumed_at = $2
      WHERE challenge_id = $1 AND consumed_at IS NULL AND expires_at > $2`,
    [challengeId, now],
  );
  return rowCount === 1;
}

/** The owner's open challenges of `purpose`: unused and unexpired at `now`, newest first. */
export async function openChallenges(
  db: Db,
  owner: ProofOwner,
  purpose: ProofPurpose,
  now: Date,
): Promise<Challenge[]> {
  const { rows } = await db.query<ChallengeRow>(
    `SELECT * FROM wallet_proof_challenges
      WHERE partner_id IS NOT DISTINCT FROM $1 AND environment = $2 AND purpose = $3 AND consumed_at IS NULL AND expires_at > $4
      ORDER BY issued_at DESC LIMIT 20`,
    [owner.partnerId, owner.environment, purpose, now],
  );
  return rows.map(challengeOf);
}
