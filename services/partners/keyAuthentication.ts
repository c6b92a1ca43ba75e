// Batched authentication of API keys: one statement finds the key of every attempt in a batch and counts
// each attempt in its key's rate window. The statement's parts are exported so a hot route can carry its
// own read in the same statement (decisions/admittedSnapshots).
import type { Pool } from "pg";
import type { Environment } from "../../core/environment";
import { batcher } from "../../storage/batcher";
import { batchObserver } from "../../telemetry/metrics";
import { apiKeyHash } from "./apiKeyFormat";
import type { ApiKeyRecord } from "./apiKeyStore";
import { type RateState, rateWindowAt } from "./rateWindow";
import type { PartnerScope } from "./scopes";

/** What a request needs of its key: identity, scopes and limit (the hot path reads nothing else). */
export type AuthenticatedKey = Pick<
  ApiKeyRecord,
  "keyId" | "partnerId" | "environment" | "scopes" | "rateLimitPerMinute"
>;

export interface Authentication {
  key: AuthenticatedKey;
  /** Absent for a revoked key: revoked keys are not counted. */
  rate?: RateState;
}

export interface AuthenticationAttempt {
  /** The raw key as sent. */
  raw: string;
  /** The request's time; its clock minute is the rate window it counts in. */
  nowMs: number;
}

/** The attempts of one key in one window, in arrival order: they take consecutive counts. */
interface AttemptGroup {
  hash: Buffer;
  windowStart: Date;
  /** Indexes into the attempts, in arrival order. */
  members: number[];
}

function groupAttempts(attempts: readonly AuthenticationAttempt[]): AttemptGroup[] {
  const groups = new Map<string, AttemptGroup>();
  attempts.forEach((attempt, index) => {
    const hash = apiKeyHash(attempt.raw);
    const windowStart = rateWindowAt(attempt.nowMs).start;
    const id = `${hash.toString("hex")}@${windowStart.getTime()}`;
    const group = groups.get(id);
    if (group === undefined) groups.set(id, { hash, windowStart, members: [index] });
    else group.members.push(index);
  });
  return [...groups.values()];
}

/** One row per attempt group whose key exists. */
export interface AuthenticationRow {
  position: number;
  key_id: string;
  partner_id: string;
  environment: Environment;
  scopes: PartnerScope[];
  rate_limit_per_minute: number;
  /** Null for a revoked key (not counted). */
  request_count: number | null;
}

// The upsert counts each (key, window) once with the number of its attempts (an upsert cannot touch one
// row twice) and returns the new total; rows are locked in key order, so concurrent batches from any
// number of processes cannot deadlock and take disjoint, consecutive ranges of counts.
// The attempts come as one JSON array: the planner cannot size it, so a named statement keeps its generic
// plan (see decisions/recordLoader). `counted` modifies data, so these CTEs must open a statement's WITH.
// rate_limit_windows is UNLOGGED: counting writes no WAL, so its commit does not wait for the disk.
/** The CTEs `attempt`, `found` and `counted`, reading the attempts from the statement's parameter `$1`. */
export const AUTHENTICATION_CTES = `
attempt AS (
  SELECT position, decode(secret_hash, 'hex') AS secret_hash, window_start, attempts
  FROM json_to_recordset($1::json) AS a(position int, secret_hash text, window_start timestamptz, attempts int)
), found AS (
  SELECT attempt.position, attempt.window_start, attempt.attempts, key_id, partner_id, environment, scopes,
    rate_limit_per_minute, revoked_at IS NOT NULL AS revoked
  FROM attempt JOIN api_keys USING (secret_hash)
), counted AS (
  INSERT INTO rate_limit_windows (subject, window_start, request_count)
  SELECT key_id, window_start, attempts FROM found WHERE NOT revoked ORDER BY key_id, window_start
  ON CONFLICT (subject, window_start)
  DO UPDATE SET request_count = rate_limit_windows.request_count + EXCLUDED.request_count
  RETURNING subject, window_start, request_count)`;

/** The AuthenticationRow of each found attempt group, after AUTHENTICATION_CTES. */
export const AUTHENTICATION_ROWS = `
SELECT found.position, key_id, partner_id, environment, scopes, rate_limit_per_minute, request_count FROM found
LEFT JOIN counted ON counted.subject = found.key_id AND counted.window_start = found.window_start`;

const AUTHENTICATE_SQL = `WITH ${AUTHENTICATION_CTES} ${AUTHENTICATION_ROWS}`;

/** A batch of attempts as the statement's `$1`, and the answer of each attempt from the rows it returned. */
export interface AuthenticationBatch {
  parameter: string;
  /** `positions[i]`: the statement position (`found.position`) of `attempts[i]`'s key. */
  positions: readonly number[];
  /** `result[i]` answers `attempts[i]`; undefined for an unknown key. */
  answers(rows: readonly AuthenticationRow[]): (Authentication | undefined)[];
}

export function authenticationBatch(attempts: readonly AuthenticationAttempt[]): AuthenticationBatch {
  const groups = groupAttempts(attempts);
  const parameter = JSON.stringify(
    groups.map((group, position) => ({
      position,
      secret_hash: group.hash.toString("hex"),
      window_start: group.windowStart,
      attempts: group.members.length,
    })),
  );
  const answers = (rows: readonly AuthenticationRow[]) => {
    const results: (Authentication | undefined)[] = attempts.map(() => undefined);
    for (const row of rows) {
      const group = groups[row.position] as AttemptGroup;
      const key: AuthenticatedKey = {
        keyId: row.key_id,
        partnerId: row.partner_id,
        environment: row.environment,
        scopes: row.scopes,
        rateLimitPerMinute: row.rate_limit_per_minute,
      };
      const total = row.request_count;
      group.members.forEach((attemptIndex, order) => {
        results[attemptIndex] = {
          key,
          rate:
            total === null
              ? undefined
              : {
                  limit: key.rateLimitPerMinute,
                  count: total - group.members.length + 1 + order,
                  window: rateWindowAt((attempts[attemptIndex] as AuthenticationAttempt).nowMs),
                },
        };
      });
    }
    return results;
  };
  const positions = attempts.map(() => 0);
  groups.forEach((group, position) => {
    for (const member of group.members) positions[member] = position;
  });
  return { parameter, positions, answers };
}

/**
 * Finds the key of each attempt and, unless it is revoked, counts the attempt in the key's current minute
 * window — one statement for the whole batch. Each attempt gets its exact position in its window's count,
 * as if it had been counted alone, so the limit holds across concurrent batches and processes.
 * `result[i]` answers `attempts[i]`; undefined for an unknown key. A named statement: planned once per connection.
 */
export async function authenticateApiKeys(
  pool: Pool,
  attempts: readonly AuthenticationAttempt[],
): Promise<(Authentication | undefined)[]> {
  const batch = authenticationBatch(attempts);
  const { rows } = await pool.query<AuthenticationRow>({
    name: "api_keys.authenticate",
    text: AUTHENTICATE_SQL,
    values: [batch.parameter],
  });
  return batch.answers(rows);
}

/** Authenticates one attempt within the batch of concurrent ones: the key is read (never cached) each time. */
export type Authenticator = (attempt: AuthenticationAttempt) => Promise<Authentication | undefined>;

/**
 * A route's own read carried in its caller's key statement: the authenticator that runs both, and what it read
 * (undefined until it has run, and when no key was sent).
 */
export interface KeyedRead<R> {
  authenticator: Authenticator;
  result(): R | undefined;
}

/**
 * Concurrent authentications share one statement. Two batches may run at once (one per core of a small
 * database server); a batch is bounded so one statement stays short.
 */
export function batchedAuthenticator(pool: Pool): Authenticator {
  return batcher((attempts) => authenticateApiKeys(pool, attempts), {
    maxBatch: 256,
    maxInFlight: 2,
    observe: batchObserver("api_keys.authenticate"),
  });
}
