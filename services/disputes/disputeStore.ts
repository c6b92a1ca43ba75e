// The disputes table: a filing inserts its row (one undecided dispute per wallet and identity, held by a unique
// index), a transition moves it with a guarded UPDATE, and the public list pages it newest first.
import type { Pool, PoolClient } from "pg";
import type { Environment } from "../../core/environment";
import type { ChainFamily } from "../../core/status";
import type { ProofKind } from "../ownership";
import type { PageKey } from "../pageCursor";
import { type DisputeOutcome, type DisputeReason, type DisputeStatus, movesInto } from "./states";

type Db = Pool | PoolClient;

export interface Dispute {
  disputeId: string;
  environment: Environment;
  identityKey: string;
  chain: string | null;
  reason: DisputeReason;
  statement: string;
  evidence: string[];
  contact: string | null;
  claimant: { chain: string; family: ChainFamily; address: string; proof: ProofKind };
  challengeId: string;
  status: DisputeStatus;
  outcome: DisputeOutcome | null;
  createdAt: Date;
  updatedAt: Date;
}

interface DisputeRow {
  dispute_id: string;
  environment: Environment;
  identity_key: string;
  chain: string | null;
  reason: DisputeReason;
  statement: string;
  evidence: string[];
  contact: string | null;
  claimant_chain: string;
  claimant_family: ChainFamily;
  claimant_address: string;
  proof: ProofKind;
  challenge_id: string;
  status: DisputeStatus;
  outcome: DisputeOutcome | null;
  created_at: Date;
  updated_at: Date;
}

function disputeOf(row: DisputeRow): Dispute {
  return {
    disputeId: row.dispute_id,
    environment: row.environment,
    identityKey: row.identity_key,
    chain: row.chain,
    reason: row.reason,
    statement: row.statement,
    evidence: row.evidence,
    contact: row.contact,
    claimant: {
      chain: row.claimant_chain,
      family: row.claimant_family,
      address: row.claimant_address,
      proof: row.proof,
    },
    challengeId: row.challenge_id,
    status: row.status,
    outcome: row.outcome,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Inserts the dispute; false when the wallet already has an undecided dispute about the identity. */
export async function insertDispute(client: PoolClient, dispute: Dispute): Promise<boolean> {
  const { rowCount } = await client.query(
    `INSERT INTO disputes (dispute_id, environment, identity_key, chain, reason, statement, evidence, contact,
       claimant_chain, claimant_family, claimant_address, proof, challenge_id, status, outcome, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)
     ON CONFLICT (environment, identity_key, claimant_family, claimant_address)
       WHERE status IN ('open', 'under_review') DO NOTHING`,
    [
      dispute.disputeId,
      dispute.environment,
      dispute.identityKey,
      dispute.chain,
      dispute.reason,
      dispute.statement,
      JSON.stringify(dispute.evidence),
      dispute.contact,
      dispute.claimant.chain,
      dispute.claimant.family,
      dispute.claimant.address,
      dispute.claimant.proof,
      dispute.challengeId,
      dispute.status,
      dispute.outcome,
      dispute.createdAt,
      dispute.updatedAt,
    ],
  );
  return rowCount === 1;
}

/** The wallet's undecided dispute about the identity, if any. */
export async function undecidedDisputeOf(
  db: Db,
  environment: Environment,
  identityKey: string,
  family: ChainFamily,
  address: string,
): Promise<Dispute | undefined> {
  const { rows } = await db.query<DisputeRow>(
    `SELECT * FROM disputes WHERE environment = $1 AND identity_key = $2 AND claimant_family = $3
        AND claimant_address = $4 AND status IN ('open', 'under_review')`,
    [environment, identityKey, family, address],
  );
  return rows[0] === undefined ? undefined : disputeOf(rows[0]);
}

/** The dispute with this id in the environment; `forUpdate` locks its row for the caller's transaction. */
export async function disputeById(
  db: Db,
  environment: Environment | null,
  disputeId: string,
  forUpdate = false,
): Promise<Dispute | undefined> {
  const { rows } = await db.query<DisputeRow>(
    `SELECT * FROM disputes WHERE dispute_id = $1 AND ($2::text IS NULL OR environment = $2)${forUpdate ? " FOR UPDATE" : ""}`,
    [disputeId, environment],
  );
  return rows[0] === undefined ? undefined : disputeOf(rows[0]);
}

/** Moves the dispute to `to` if it is in a state that may; the moved dispute, or undefined when it may not. */
export async function moveDispute(
  client: PoolClient,
  disputeId: string,
  to: DisputeStatus,
  outcome: DisputeOutcome | null,
  now: Date,
): Promise<Dispute | undefined> {
  const { rows } = await client.query<DisputeRow>(
    `UPDATE disputes SET status = $2, outcome = $3, updated_at = $4
      WHERE dispute_id = $1 AND status = ANY($5::text[]) RETURNING *`,
    [disputeId, to, outcome, now, movesInto(to)],
  );
  return rows[0] === undefined ? undefined : disputeOf(rows[0]);
}

export interface DisputeFilter {
  identityKey?: string | undefined;
  status?: DisputeStatus | undefined;
  chain?: string | undefined;
}

/** Up to `limit + 1` disputes after `after`, newest first. */
export async function listDisputes(
  db: Db,
  environment: Environment | null,
  filter: DisputeFilter,
  after: PageKey | null,
  limit: number,
): Promise<Dispute[]> {
  const { rows } = await db.query<DisputeRow>(
    `SELECT * FROM disputes
      WHERE ($1::text IS NULL OR environment = $1)
        AND ($2::text IS NULL OR identity_key = $2)
        AND ($3::text IS NULL OR status = $3)
        AND ($4::text IS NULL OR chain = $4)
        AND ($5::timestamptz IS NULL OR (created_at, dispute_id) < ($5, $6))
      ORDER BY created_at DESC, dispute_id DESC
      LIMIT $7`,
    [
      environment,
      filter.identityKey ?? null,
      filter.status ?? null,
      filter.chain ?? null,
      after?.at ?? null,
      after?.id ?? null,
      limit + 1,
    ],
  );
  return rows.map(disputeOf);
}
