// Gathers, in ONE query, everything a decision needs about an identity, or about each of a batch of them:
// its holds (the chain mirror in production, sandbox holds in the sandbox), the service's own locks, launch
// reports and guardian actions of the same environment, the chains' checkpoints and the active signing key
// id. Sandbox holds, locks and launch reports are the asking partner's own only: each sandbox partner
// rehearses alone (the seeded scenarios are not stored; evaluation builds them from the clock). One round
// trip keeps the validation hot path short; the statement is one snapshot, so all parts agree with each
// other. Validations read theirs in their key check's statement (admittedSnapshots), with the partner their
// `launchpad` id is bound to (services/partners/launchpads), so that check costs no statement.
// The checkpoints and the active key ids are the same for every request of a batch, so a statement reads
// them once (SHARED_COLUMNS) and each request's snapshot takes its part: read per request, they were about a
// fifth of the statement's database CPU (an aggregate with its own sort per row).
// Mirror rows are found through the normalized_name index; the hashes stay the authority (they are the
// on-chain keys). The same row reads the reservations and locks of other identities that the request's name
// looks like (look-alike key, docs/lookalikes.md) through the look-alike indexes, so the advisory costs no
// statement either.
import type { Pool, PoolClient } from "pg";
import type { Environment } from "../../core/environment";
import { ServiceError } from "../../core/errors/serviceError";
import type { NormalizedIdentity } from "../../core/fold";
import type {
  ChainFamily,
  GuardianRecord,
  HoldRecord,
  IdentityRecords,
  LaunchRecord,
  LockRecord,
} from "../../core/status";
import { batcher } from "../../storage/batcher";
import { batchesInFlight } from "../../storage/batchesInFlight";
import { batchObserver } from "../../telemetry/metrics";
import type { CheckpointedChain } from "../mirror/chainCatalogue";
import { launchpadPartnerSql } from "../partners/launchpads";

export interface DecisionSnapshot {
  identityKey: string;
  records: IdentityRecords;
  /** Checkpoints of the requested chain, or of every chain when none was requested; shared by a batch. */
  checkpoints: readonly CheckpointedChain[];
  activeKid: string | null;
  /** The partner the requested launchpad id is bound to in the environment; null when unbound or none asked. */
  launchpadPartner: string | null;
  /** The request's look-alike key, or null when none was asked. */
  lookalikeKey: string | null;
  /** Holds and locks of other identities with the same look-alike key, none lapsed a minute: each source's latest 16. */
  lookalikes: LookalikeRecord[];
}

/** A hold (`reserved`) or lock (`protected`) of an identity whose look-alike key is the request's. */
export interface LookalikeRecord {
  identityKey: string;
  status: "reserved" | "protected";
  chain: string;
  expiresAt: Date;
}

/** Look-alike records read per request from each source, latest expiry first. */
const LOOKALIKE_LIMIT = 16;
/**
 * Records lapsed before this are not read: only live ones give an advisory (services/identity/lookalikes.ts
 * decides that on the request's clock), and the minute covers a database clock ahead of the API's.
 */
const LAPSED_BEFORE = "now() - interval '1 minute'";

interface LookalikeSource {
  table: string;
  /** The SQL of a record's identity key. */
  identityKey: string;
  status: LookalikeRecord["status"];
  /** The source's own conditions, if any. */
  scope?: string;
}

/**
 * The look-alikes of the request in `sources`: from each, its records of the request's look-alike key and another
 * identity, none lapsed, latest expiry first, at most LOOKALIKE_LIMIT; as one JSON array (null for none).
 */
const lookalikesIn = (...sources: LookalikeSource[]) => `
    (SELECT json_agg(l) FROM (${sources
      .map(
        ({ table, identityKey, status, scope }) => `
       (SELECT ${identityKey} AS "identityKey", '${status}' AS status, chain, expires_at AS "expiresAt"
          FROM ${table}
         WHERE lookalike_key = i.lookalike_key AND expires_at > ${LAPSED_BEFORE}
           AND ${identityKey} <> i.identity_key${scope === undefined ? "" : ` AND ${scope}`}
         ORDER BY expires_at DESC LIMIT ${LOOKALIKE_LIMIT})`,
      )
      .join("\n       UNION ALL")}) AS l)`;

// Holds and locks of other identities with the request's look-alike key: in production the mirror's
// reservations and the locks, in the sandbox the partner's own locks and holds. Each source is read in the order
// of its look-alike index (storage/migrations/0033_lookalike_expiry_order.sql), latest expiry first and none
// lapsed, so the read costs at most LOOKALIKE_LIMIT rows a source however many records share the key: one sort
// per request over all of them made a flood of lapsed look-alikes cut the check's throughput to a quarter
// (docs/performance.md, `api`).
const LOOKALIKES_COLUMN = `
  CASE WHEN i.environment = 'production' THEN${lookalikesIn(
    {
      table: "chain_reservations",
      identityKey: "normalized_name || '::' || normalized_ticker",
      status: "reserved",
    },
    {
      table: "identity_locks",
      identityKey: "identity_key",
      status: "protected",
      scope: "environment = 'production'",
    },
  )}
  ELSE${lookalikesIn(
    {
      table: "identity_locks",
      identityKey: "identity_key",
      status: "protected",
      scope: "environment = i.environment AND partner_id = i.scoped_partner",
    },
    {
      table: "sandbox_holds",
      identityKey: "identity_key",
      status: "reserved",
      scope: "partner_id = i.scoped_partner",
    },
  )}
  END AS lookalikes`;

// One row per requested identity. Outer columns are always qualified (`i.`): the record
// tables have columns of the same names. The requests come as one JSON array rather than arrays for unnest:
// the planner cannot size a JSON parameter, so a named statement's generic plan costs the same as a custom
// one and Postgres keeps the generic plan instead of planning every batch again (measured: planning was
// most of the statement's cost). `i.scoped_partner` is the partner whose sandbox records are read; a null
// partner (a keyless sandbox read) matches no row.

/**
 * The SnapshotRow of each request, reading the requests (snapshotParameter) from `parameter`, e.g. `$1`.
 * `partnerOf(row)` is the SQL of a request row's sandbox partner: by default the request's own `partner_id`.
 * Without `lookalikes` the statement reads no look-alike records (callers that send no look-alike key).
 */
export const snapshotRows = (
  parameter: string,
  partnerOf: (row: string) => string = (row) => `${row}.partner_id`,
  lookalikes = true,
) => `
SELECT
  i.position,
  CASE WHEN i.environment = 'production' THEN
    (SELECT json_agg(json_build_object('chain', chain, 'launcher', launcher, 'startsAt', reserved_at, 'expiresAt', expires_at))
       FROM chain_reservations
      WHERE name_hash = i.name_hash AND ticker_hash = i.ticker_hash AND normalized_name = i.normalized_name
        AND (i.chain IS NULL OR chain = i.chain))
  ELSE
    (SELECT json_agg(json_build_object('chain', chain, 'launcher', launcher, 'startsAt', starts_at, 'expiresAt', expires_at))
       FROM sandbox_holds WHERE identity_key = i.identity_key AND partner_id = i.scoped_partner)
  END AS holds,
  (SELECT json_agg(json_build_object('kind', kind, 'chain', chain, 'authorizedLauncher', authorized_launcher,
      'appliedAt', applied_at, 'expiresAt', expires_at, 'wasReserved', was_reserved))
     FROM identity_locks WHERE environment = i.environment AND identity_key = i.identity_key
      AND (i.environment = 'production' OR partner_id = i.scoped_partner)) AS locks,
  (SELECT json_agg(json_build_object('chain', chain, 'launcher', launcher, 'tokenOrMint', token_or_mint,
      'launchpad', launchpad, 'at', reported_at))
     FROM identity_launches WHERE environment = i.environment AND identity_key = i.identity_key
      AND (i.environment = 'production' OR partner_id = i.scoped_partner)) AS launches,
  (SELECT json_agg(json_build_object('kind', kind, 'chain', chain, 'at', at, 'graduated', graduated,
      'expiresAt', expires_at, 'actor', actor, 'reason', reason))
     FROM guardian_actions WHERE environment = i.environment AND identity_key = i.identity_key) AS guardian,
  ${launchpadPartnerSql("i.environment", "i.launchpad")} AS launchpad_partner,
  ${lookalikes ? LOOKALIKES_COLUMN : "NULL AS lookalikes"}
FROM (SELECT r.*, ${partnerOf("r")} AS scoped_partner
        FROM json_to_recordset(${parameter}::json) AS r(position int, environment text, identity_key text,
          name_hash text, ticker_hash text, chain text, normalized_name text, launchpad text, partner_id text,
          attempt int, lookalike_key text)) AS i`;

/**
 * The columns a batch's snapshots share, read once per statement: every chain's checkpoint (by chain) and the
 * active key id of each environment (one at most: signing_keys_one_active).
 */
export const SHARED_COLUMNS = `
  (SELECT json_agg(json_build_object('chain', chain, 'family', family, 'headNumber', head_number,
      'indexedNumber', indexed_number, 'indexedBlockTime', indexed_block_time, 'indexedAt', indexed_at,
      'rewoundFrom', rewound_from) ORDER BY chain)
     FROM chain_checkpoints) AS checkpoints,
  (SELECT json_object_agg(environment, kid) FROM signing_keys WHERE status = 'active') AS active_kids`;

const snapshotsSql = (lookalikes: boolean) => `
WITH requested AS (${snapshotRows("$1", undefined, lookalikes)})
SELECT (SELECT json_agg(requested ORDER BY requested.position) FROM requested) AS snapshots, ${SHARED_COLUMNS}`;
const SNAPSHOT_SQL = snapshotsSql(false);
const SNAPSHOT_WITH_LOOKALIKES_SQL = snapshotsSql(true);

type Json<T> = {
  [K in keyof T]: T[K] extends Date ? string : T[K] extends Date | null ? string | null : T[K];
};

export interface SnapshotRow {
  position: number;
  holds: Json<Omit<HoldRecord, "kind">>[] | null;
  locks: Json<LockRecord>[] | null;
  launches: Json<LaunchRecord>[] | null;
  guardian: Json<GuardianRecord>[] | null;
  launchpad_partner: string | null;
  lookalikes: Json<LookalikeRecord>[] | null;
}

/** SHARED_COLUMNS as read. */
export interface SharedRow {
  checkpoints:
    | {
        chain: string;
        family: ChainFamily;
        headNumber: number | null;
        indexedNumber: number | null;
        indexedBlockTime: string | null;
        indexedAt: string | null;
        rewoundFrom: number | null;
      }[]
    | null;
  active_kids: Partial<Record<Environment, string>> | null;
}

/** A snapshot statement's one row: each request's own columns (in request order) and the shared ones. */
export interface SnapshotsRow extends SharedRow {
  snapshots: SnapshotRow[] | null;
}

/** What the snapshots of one statement share: each request's snapshot takes its chain's part. */
interface SharedSnapshot {
  /** The checkpoints of `chain`, or of every chain for null (by chain); the same array for the same chain. */
  checkpointsOf(chain: string | null): readonly CheckpointedChain[];
  activeKid(environment: Environment): string | null;
}

const date = (value: string) => new Date(value);
const dateOrNull = (value: string | null) => (value === null ? null : new Date(value));

function sharedSnapshotOf(row: SharedRow): SharedSnapshot {
  const all: CheckpointedChain[] = (row.checkpoints ?? []).map((entry) => ({
    chain: entry.chain,
    family: entry.family,
    checkpoint: {
      family: entry.family,
      headNumber: entry.headNumber === null ? null : Number(entry.headNumber),
      indexedNumber: entry.indexedNumber === null ? null : Number(entry.indexedNumber),
      indexedBlockTime: dateOrNull(entry.indexedBlockTime),
      indexedAt: dateOrNull(entry.indexedAt),
      rewoundFrom: entry.rewoundFrom === null ? null : Number(entry.rewoundFrom),
    },
  }));
  const byChain = new Map<string, CheckpointedChain[]>();
  const activeKids = row.active_kids ?? {};
  return {
    checkpointsOf(chain) {
      if (chain === null) return all;
      let part = byChain.get(chain);
      if (part === undefined) {
        part = all.filter((entry) => entry.chain === chain);
        byChain.set(chain, part);
      }
      return part;
    },
    activeKid: (environment) => activeKids[environment] ?? null,
  };
}

class SnapshotCountError extends ServiceError {
  constructor(requests: number, snapshots: number) {
    super(`${requests} snapshots were requested and ${snapshots} read.`);
  }
}

function snapshotOf(row: SnapshotRow, request: SnapshotRequest, shared: SharedSnapshot): DecisionSnapshot {
  const holdKind = request.environment === "production" ? "reservation" : "sandbox_hold";
  return {
    identityKey: request.identity.identityKey,
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
    checkpoints: shared.checkpointsOf(request.chain),
    activeKid: shared.activeKid(request.environment),
    launchpadPartner: row.launchpad_partner,
    lookalikeKey: request.lookalikeKey ?? null,
    lookalikes: (row.lookalikes ?? []).map((record) => ({ ...record, expiresAt: date(record.expiresAt) })),
  };
}

/** The snapshot of each of `requests` from its statement's row; throws unless there is one per request. */
export function snapshotsOf(row: SnapshotsRow, requests: readonly SnapshotRequest[]): DecisionSnapshot[] {
  const snapshots = row.snapshots ?? [];
  if (snapshots.length !== requests.length) throw new SnapshotCountError(requests.length, snapshots.length);
  const shared = sharedSnapshotOf(row);
  return snapshots.map((snapshot, index) => snapshotOf(snapshot, requests[index] as SnapshotRequest, shared));
}

export interface SnapshotRequest {
  environment: Environment;
  identity: NormalizedIdentity;
  /** The requested chain, or null for every chain. */
  chain: string | null;
  /** A launchpad id whose partner to read (validation), else none. */
  launchpad?: string | undefined;
  /** Sandbox: the partner whose own records are read; null reads none (the seeded scenarios only). */
  partnerId: string | null;
  /** The look-alike key of the raw pair (core/lookalike) whose look-alikes to read; none when absent. */
  lookalikeKey?: string | undefined;
}

/**
 * The requests as the JSON parameter of snapshotRows. `attempts[i]`, when given, is the position of request
 * i's key among the statement's authentication attempts (admittedSnapshots reads the partner from there).
 */
export function snapshotParameter(
  requests: readonly SnapshotRequest[],
  attempts: readonly number[] = [],
): string {
  return JSON.stringify(
    requests.map(({ environment, identity, chain, launchpad, partnerId, lookalikeKey }, position) => ({
      position,
      environment,
      identity_key: identity.identityKey,
      name_hash: identity.nameHash,
      ticker_hash: identity.tickerHash,
      chain,
      normalized_name: identity.normalizedName,
      launchpad: launchpad ?? null,
      partner_id: partnerId,
      attempt: attempts[position] ?? null,
      lookalike_key: lookalikeKey ?? null,
    })),
  );
}

/**
 * The snapshot of each request, in order, in one query (one statement snapshot for the whole batch), a named
 * statement: planned once per connection.
 */
export async function loadDecisionSnapshots(
  db: Pool | PoolClient,
  requests: readonly SnapshotRequest[],
): Promise<DecisionSnapshot[]> {
  const lookalikes = requests.some((request) => request.lookalikeKey !== undefined);
  const { rows } = await db.query<SnapshotsRow>({
    name: lookalikes ? "identity.snapshot_lookalikes" : "identity.snapshot",
    text: lookalikes ? SNAPSHOT_WITH_LOOKALIKES_SQL : SNAPSHOT_SQL,
    values: [snapshotParameter(requests)],
  });
  return snapshotsOf(rows[0] as SnapshotsRow, requests);
}

/**
 * Concurrent checks' snapshot reads, batched into one statement as validations' are (admittedSnapshots): the
 * keyless check is the call everyone makes, and a statement costs far more than a row. `postgresServer`
 * (storage/batchesInFlight) is read per batch: it is known once the data path has started.
 */
export function snapshotLoader(
  pool: Pool,
  postgresServer: () => boolean,
): (request: SnapshotRequest) => Promise<DecisionSnapshot> {
  return batcher((requests) => loadDecisionSnapshots(pool, requests), {
    maxBatch: 256,
    maxInFlight: () => batchesInFlight(postgresServer()),
    observe: batchObserver("identity.snapshot"),
  });
}

/**
 * Records, checkpoints (of `chain`, or all when null) and the active kid of `environment`, in one query; in
 * the sandbox, `partnerId`'s own records (null: none); with `lookalikeKey`, the look-alike records too.
 */
export async function loadDecisionSnapshot(
  db: Pool | PoolClient,
  environment: Environment,
  identity: NormalizedIdentity,
  chain: string | null,
  partnerId: string | null,
  lookalikeKey?: string,
): Promise<DecisionSnapshot> {
  const [snapshot] = await loadDecisionSnapshots(db, [
    { environment, identity, chain, partnerId, lookalikeKey },
  ]);
  return snapshot as DecisionSnapshot;
}
