// Gathers, in ONE query, everything a decision needs about one identity: its holds (the chain mirror in
// production, sandbox holds in the sandbox), the service's own locks, launch reports and guardian actions of
// the same environment, the chains' checkpoints and the active signing key id. One round trip keeps the
// validation hot path short; the statement is one snapshot, so all parts agree with each other.
// Mirror rows are found through an index: the primary key (chain, hashes) when a chain is given, else the
// normalized_name index; the hashes stay the authority (they are the on-chain keys).
import type { Pool, PoolClient } from "pg";
import type { Environment } from "../../core/environment";
import type { NormalizedIdentity } from "../../core/fold";
import type {
  ChainFamily,
  GuardianRecord,
  HoldRecord,
  IdentityRecords,
  LaunchRecord,
  LockRecord,
} from "../../core/status";
import type { CheckpointedChain } from "./chainCatalogue";

export interface DecisionSnapshot {
  records: IdentityRecords;
  /** Checkpoints of the requested chain, or of every chain when none was requested. */
  checkpoints: CheckpointedChain[];
  activeKid: string | null;
}

const SNAPSHOT_SQL = `
SELECT
  CASE WHEN $1 = 'production' THEN
    (SELECT json_agg(json_build_object('chain', chain, 'launcher', launcher, 'startsAt', reserved_at, 'expiresAt', expires_at))
       FROM chain_reservations
      WHERE name_hash = $3 AND ticker_hash = $4 AND normalized_name = $6 AND ($5::text IS NULL OR chain = $5))
  ELSE
    (SELECT json_agg(json_build_object('chain', chain, 'launcher', launcher, 'startsAt', starts_at, 'expiresAt', expires_at))
       FROM sandbox_holds WHERE identity_key = $2)
  END AS holds,
  (SELECT json_agg(json_build_object('kind', kind, 'chain', chain, 'authorizedLauncher', authorized_launcher,
      'appliedAt', applied_at, 'expiresAt', expires_at, 'wasReserved', was_reserved))
     FROM identity_locks WHERE environment = $1 AND identity_key = $2) AS locks,
  (SELECT json_agg(json_build_object('chain', chain, 'launcher', launcher, 'tokenOrMint', token_or_mint,
      'launchpad', launchpad, 'at', reported_at))
     FROM identity_launches WHERE environment = $1 AND identity_key = $2) AS launches,
  (SELECT json_agg(json_build_object('kind', kind, 'chain', chain, 'at', at, 'graduated', graduated,
      'expiresAt', expires_at, 'actor', actor, 'reason', reason))
     FROM guardian_actions WHERE environment = $1 AND identity_key = $2) AS guardian,
  (SELECT json_agg(json_build_object('chain', chain, 'family', family, 'headNumber', head_number,
      'indexedNumber', indexed_number, 'indexedBlockTime', indexed_block_time, 'indexedAt', indexed_at) ORDER BY chain)
     FROM chain_checkpoints WHERE $5::text IS NULL OR chain = $5) AS checkpoints,
  (SELECT kid FROM signing_keys WHERE environment = $1 AND status = 'active') AS active_kid`;

type Json<T> = {
  [K in keyof T]: T[K] extends Date ? string : T[K] extends Date | null ? string | null : T[K];
};

interface SnapshotRow {
  holds: Json<Omit<HoldRecord, "kind">>[] | null;
  locks: Json<LockRecord>[] | null;
  launches: Json<LaunchRecord>[] | null;
  guardian: Json<GuardianRecord>[] | null;
  checkpoints:
    | {
        chain: string;
        family: ChainFamily;
        headNumber: number | null;
        indexedNumber: number | null;
        indexedBlockTime: string | null;
        indexedAt: string | null;
      }[]
    | null;
  active_kid: string | null;
}

const date = (value: string) => new Date(value);
const dateOrNull = (value: string | null) => (value === null ? null : new Date(value));

function snapshotOf(row: SnapshotRow, environment: Environment): DecisionSnapshot {
  const holdKind = environment === "production" ? "reservation" : "sandbox_hold";
  return {
    records: {
      holds: (row.holds ?? []).map((hold) => ({
        kind: holdKind,
        chain: hold.chain,
        launcher: hold.launcher,
        startsAt: date(hold.startsAt),
        expiresAt: date(hold.expiresAt),
      })),
      locks: (row.locks ?? []).map((lock) => ({
        ...lock,
        appliedAt: date(lock.appliedAt),
        expiresAt: date(lock.expiresAt),
      })),
      launches: (row.launches ?? []).map((launch) => ({ ...launch, at: date(launch.at) })),
      guardian: (row.guardian ?? []).map((action) => ({
        ...action,
        at: date(action.at),
        expiresAt: dateOrNull(action.expiresAt),
      })),
    },
    checkpoints: (row.checkpoints ?? []).map((entry) => ({
      chain: entry.chain,
      family: entry.family,
      checkpoint: {
        headNumber: entry.headNumber === null ? null : Number(entry.headNumber),
        indexedNumber: entry.indexedNumber === null ? null : Number(entry.indexedNumber),
        indexedBlockTime: dateOrNull(entry.indexedBlockTime),
        indexedAt: dateOrNull(entry.indexedAt),
      },
    })),
    activeKid: row.active_kid,
  };
}

/**
 * Records, checkpoints (of `chain`, or all when null) and the active kid of `environment`, in one query.
 * `prepared` names the statement so a Postgres server plans it once per connection (about 40% of its cost);
 * never on the embedded database, whose connections share one session.
 */
export async function loadDecisionSnapshot(
  db: Pool | PoolClient,
  environment: Environment,
  identity: NormalizedIdentity,
  chain: string | null,
  prepared = false,
): Promise<DecisionSnapshot> {
  const { rows } = await db.query<SnapshotRow>({
    ...(prepared ? { name: "decisions.snapshot" } : {}),
    text: SNAPSHOT_SQL,
    values: [
      environment,
      identity.identityKey,
      identity.nameHash,
      identity.tickerHash,
      chain,
      identity.normalizedName,
    ],
  });
  return snapshotOf(rows[0] as SnapshotRow, environment);
}
