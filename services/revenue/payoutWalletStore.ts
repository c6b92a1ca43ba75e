// Payout wallets (payout_wallets): at most one verified wallet per partner, environment and chain family;
// rotation archives it. Every read is scoped to one owner.
import type { Pool, PoolClient } from "pg";
import type { ChainFamily } from "../../core/status";
import type { PartnerProofOwner, ProofKind } from "../ownership";

type Db = Pool | PoolClient;

export interface PayoutWallet {
  walletId: string;
  chain: string;
  family: ChainFamily;
  address: string;
  proof: ProofKind;
  status: "verified" | "archived";
  verifiedAt: Date;
  archivedAt: Date | null;
}

interface WalletRow {
  wallet_id: string;
  chain: string;
  family: ChainFamily;
  address: string;
  proof: ProofKind;
  status: "verified" | "archived";
  verified_at: Date;
  archived_at: Date | null;
}

const walletOf = (row: WalletRow): PayoutWallet => ({
  walletId: row.wallet_id,
  chain: row.chain,
  family: row.family,
  address: row.address,
  proof: row.proof,
  status: row.status,
  verifiedAt: row.verified_at,
  archivedAt: row.archived_at,
});

/** The owner's wallets, verified first, then archived ones newest first (bounded). */
export async function walletsOf(db: Db, owner: PartnerProofOwner): Promise<PayoutWallet[]> {
  const { rows } = await db.query<WalletRow>(
    `SELECT * FROM payout_wallets WHERE partner_id = $1 AND environment = $2
      ORDER BY status = 'verified' DESC, verified_at DESC LIMIT 50`,
    [owner.partnerId, owner.environment],
  );
  return rows.map(walletOf);
}

export async function verifiedWallet(
  db: Db,
  owner: PartnerProofOwner,
  family: ChainFamily,
): Promise<PayoutWallet | undefined> {
  const { rows } = await db.query<WalletRow>(
    `SELECT * FROM payout_wallets WHERE partner_id = $1 AND environment = $2 AND family = $3 AND status = 'verified'`,
    [owner.partnerId, owner.environment, family],
  );
  return rows[0] === undefined ? undefined : walletOf(rows[0]);
}

/** Records a verified wallet; undefined when the family already has one (the partial unique index). */
export async function insertVerifiedWallet(
  client: PoolClient,
  owner: PartnerProofOwner,
  wallet: Omit<PayoutWallet, "status" | "archivedAt">,
  challengeId: string,
): Promise<PayoutWallet | undefined> {
  const { rows } = await client.query<WalletRow>(
    `INSERT INTO payout_wallets (wallet_id, environment, partner_id, chain, family, address, proof, challenge_id,
       status, verified_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'verified', $9)
     ON CONFLICT (environment, partner_id, family) WHERE status = 'verified' DO NOTHING
     RETURNING *`,
    [
      wallet.walletId,
      owner.environment,
      owner.partnerId,
      wallet.chain,
      wallet.family,
      wallet.address,
      wallet.proof,
      challengeId,
      wallet.verifiedAt,
    ],
  );
  return rows[0] === undefined ? undefined : walletOf(rows[0]);
}

/** Archives the family's verified wallet; the archived wallet, or undefined when there was none. */
export async function archiveWallet(
  client: PoolClient,
  owner: PartnerProofOwner,
  family: ChainFamily,
  now: Date,
): Promise<PayoutWallet | undefined> {
  const { rows } = await client.query<WalletRow>(
    `UPDATE payout_wallets SET status = 'archived', archived_at = $4
      WHERE partner_id = $1 AND environment = $2 AND family = $3 AND status = 'verified' RETURNING *`,
    [owner.partnerId, owner.environment, family, now],
  );
  return rows[0] === undefined ? undefined : walletOf(rows[0]);
}
