// Rows of GET /v1/protected-identities: every production protection record, newest first. On-chain
// reservations (chain_reservations) read `reserved` while live; bonding/milestone locks `protected`; guardian
// blocks `blocked` until they lapse or a later clear (then `cleared`); launch reports `launched`; lapsed holds
// and locks `expired`. One row per record, so an identity with a reservation and a lock has two rows. A reservation
// prepared through an embed and settled by its launchpad carries that launchpad (the embed's stamp). A text
// filter also finds look-alikes: rows whose look-alike key (`lookalike_fold`, docs/lookalikes.md) contains
// the text's look-alike form, marked `lookalike` when the key itself does not contain the folded text.
import type { Pool } from "pg";

export const PROTECTION_STATUSES = [
  "reserved",
  "protected",
  "blocked",
  "expired",
  "launched",
  "cleared",
] as const;
export type ProtectionStatus = (typeof PROTECTION_STATUSES)[number];
export const PROTECTION_SOURCES = ["reservation", "lock", "guardian", "launch"] as const;
export type ProtectionSource = (typeof PROTECTION_SOURCES)[number];

export interface ProtectionRow {
  source: ProtectionSource;
  source_id: string;
  identity_key: string;
  /** Null for a guardian block on every chain. */
  chain: string | null;
  authorized_launcher: string | null;
  since: Date;
  until: Date | null;
  status: ProtectionStatus;
  /** The launchpad behind the record: an embed reservation's settling launchpad, a lock's or launch's reporter. */
  launchpad: string | null;
  /** `since` to the microsecond (ISO 8601, UTC), for the next page's cursor. */
  since_key: string;
  /** True when the row matched the text filter only as a look-alike. */
  lookalike: boolean;
}

/** Position after the last row of a page (its exact instant, `since_key`). */
export interface PageCursor {
  since: string;
  source: string;
  sourceId: string;
}

export interface ProtectionFilter {
  /** Folded text that the identity key must contain (or, with `lookalikeContains`, its look-alike key). */
  contains?: string;
  /** Look-alike form of the text (core/lookalike) that the identity's look-alike key may contain instead. */
  lookalikeContains?: string;
  chain?: string;
  statuses: readonly ProtectionStatus[];
  after?: PageCursor;
  limit: number;
  now: Date;
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

// Each branch names its instant column as it is indexed (storage/migrations/0019), so a page is a merge of
// index scans read newest first, and a cursor seeks into them; its key columns (the identity key and the
// look-alike key) are the trigram-indexed expressions, so `q` is an index read too. A branch filters on its
// own columns (a hold or lock is live while its expiry lies ahead), not on the computed status: the planner
// can estimate `expires_at > now` from its statistics, and a filter it cannot estimate made it sort whole tables.
const RESERVATION_ROWS = `
  SELECT 'reservation' AS source, name_hash || ':' || ticker_hash AS source_id,
         normalized_name || '::' || normalized_ticker AS identity_key, lookalike_key, chain,
         launcher AS authorized_launcher, reserved_at AS since, expires_at AS until,
         CASE WHEN expires_at > $1 THEN 'reserved' ELSE 'expired' END AS status,
         (SELECT r.launchpad FROM reservations r
           WHERE r.partner_ref = chain_reservations.partner_ref AND r.settled_at IS NOT NULL) AS launchpad
  FROM chain_reservations`;
const LOCK_ROWS = `
  SELECT 'lock' AS source, id::text AS source_id, identity_key, lookalike_key, chain, authorized_launcher,
         applied_at AS since, expires_at AS until,
         CASE WHEN expires_at > $1 THEN 'protected' ELSE 'expired' END AS status, launchpad
  FROM identity_locks WHERE environment = 'production'`;
// Guardian actions are few (operator actions): filtered on the computed status.
const GUARDIAN_ROWS = `
  SELECT * FROM (
    SELECT 'guardian' AS source, b.id::text AS source_id, b.identity_key, lookalike_fold(b.identity_key) AS lookalike_key,
           b.chain, NULL AS authorized_launcher, b.at AS since, b.expires_at AS until,
           CASE
             WHEN EXISTS (SELECT 1 FROM guardian_actions c
                          WHERE c.environment = 'production' AND c.kind = 'clear' AND c.identity_key = b.identity_key
                            AND (c.chain IS NULL OR c.chain IS NOT DISTINCT FROM b.chain) AND c.at > b.at) THEN 'cleared'
             WHEN b.expires_at IS NULL OR b.expires_at > $1 THEN 'blocked'
             ELSE 'expired'
           END AS status, NULL AS launchpad
    FROM guardian_actions b WHERE b.environment = 'production' AND b.kind = 'block') AS guardian
  WHERE status = ANY($2)`;
const LAUNCH_ROWS = `
  SELECT 'launch' AS source, id::text AS source_id, identity_key, lookalike_fold(identity_key) AS lookalike_key,
         chain, launcher AS authorized_launcher, reported_at AS since, NULL::timestamptz AS until,
         'launched' AS status, launchpad
  FROM identity_launches WHERE environment = 'production'`;

/** The condition on a hold's or lock's expiry for the statuses asked; null when none of its rows is asked. */
function expiryCondition(statuses: readonly ProtectionStatus[], live: ProtectionStatus): string | null {
  const liveAsked = statuses.includes(live);
  const expiredAsked = statuses.includes("expired");
  if (liveAsked && expiredAsked) return "TRUE";
  if (liveAsked) return "expires_at > $1";
  if (expiredAsked) return "expires_at <= $1";
  return null;
}

/** The filters every source applies to its own rows: text, chain and the cursor's position. */
const PAGE_FILTERS = `
       (($3::text IS NULL AND $8::text IS NULL) OR identity_key LIKE $3 OR lookalike_key LIKE $8)
       AND ($4::text IS NULL OR chain = $4 OR (source = 'guardian' AND chain IS NULL))
       AND ($5::timestamptz IS NULL OR (since <= $5 AND (since, source, source_id) < ($5, $6, $7)))`;

/**
 * The page's candidates: from each source that can have rows of the statuses asked, its own first rows after the
 * cursor, newest first (an index scan that stops at the page's size), merged by the caller.
 */
function protectionRows(statuses: readonly ProtectionStatus[]): string {
  const reservations = expiryCondition(statuses, "reserved");
  const locks = expiryCondition(statuses, "protected");
  const sources = [
    reservations === null ? null : `${RESERVATION_ROWS} WHERE ${reservations}`,
    locks === null ? null : `${LOCK_ROWS} AND ${locks}`,
    statuses.some((status) => status === "blocked" || status === "cleared" || status === "expired")
      ? GUARDIAN_ROWS
      : null,
    statuses.includes("launched") ? LAUNCH_ROWS : null,
  ].filter((source): source is string => source !== null);
  // No status asked: one source that yields nothing keeps the statement's shape.
  const asked = sources.length === 0 ? [`${GUARDIAN_ROWS} AND FALSE`] : sources;
  return asked
    .map(
      (source) => `(SELECT * FROM (${source}) AS source_rows WHERE ${PAGE_FILTERS}
        ORDER BY since DESC, source_id DESC LIMIT $9)`,
    )
    .join("\n  UNION ALL\n");
}

/** The statement of a page: one page plus one row more than `limit` when there is a next page. */
export function protectionPageQuery(filter: ProtectionFilter): { text: string; values: unknown[] } {
  return {
    // `typed` names every parameter's type, whichever branches use them. The cursor's instant is the row's
    // exact one (microseconds), as text: a JavaScript Date keeps milliseconds.
    text: `WITH typed AS (SELECT $1::timestamptz AS now, $2::text[] AS statuses)
     SELECT source, source_id, identity_key, chain, authorized_launcher, since, until, status, launchpad,
            to_char(since AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS since_key,
            ($8::text IS NOT NULL AND ($3::text IS NULL OR identity_key NOT LIKE $3)) AS lookalike
     FROM (${protectionRows(filter.statuses)}) AS rows
     ORDER BY since DESC, source DESC, source_id DESC
     LIMIT $9`,
    values: [
      filter.now,
      filter.statuses,
      filter.contains === undefined ? null : `%${escapeLike(filter.contains)}%`,
      filter.chain ?? null,
      filter.after?.since ?? null,
      filter.after?.source ?? null,
      filter.after?.sourceId ?? null,
      filter.lookalikeContains === undefined ? null : `%${escapeLike(filter.lookalikeContains)}%`,
      filter.limit + 1,
    ],
  };
}

/** One page plus one row more than `limit` when there is a next page. */
export async function protectionPage(pool: Pool, filter: ProtectionFilter): Promise<ProtectionRow[]> {
  const { rows } = await pool.query<ProtectionRow>(protectionPageQuery(filter));
  return rows;
}
