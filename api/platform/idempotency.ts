// Idempotent execution for validate and reservation prepare: the key is the `Idempotency-Key` header or else
// the body `nonce`, scoped per API key and route. The first request executes and its answer is stored for 24 h,
// or until the answer itself expires when the route says when (a signed decision: its expiresAt), so a replay
// never hands out a dead answer; after that the key is free and a retry executes anew. A retry with the same
// body replays it (`Idempotency-Replayed: true`); a different body is refused; a duplicate that arrives while
// the first still runs gets 409 and never executes a second time. Times come from the API's clock, as the
// decisions' own lifetimes do.
import { createHash } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import type { Pool } from "pg";
import { ApiError } from "../../core/errors/catalogue";
import { countIdempotency } from "../../telemetry/metrics";

export interface IdempotentResult {
  status: number;
  body: object;
}

/** How long answers are kept; the spec asks for at least 24 hours. */
export const IDEMPOTENCY_RETENTION_HOURS = 24;
/** An in-progress record older than this belongs to a request that died; a retry may take it over. */
export const IDEMPOTENCY_LOCK_SECONDS = 60;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

interface StoredRow {
  request_hash: string;
  state: "in_progress" | "completed";
  response_status: number | null;
  response_body: object | null;
}

/** Canonical JSON (object keys sorted) so the same body always hashes the same. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

export function requestHashOf(route: string, body: unknown): string {
  return createHash("sha256")
    .update(`${route}\n${canonicalJson(body)}`)
    .digest("hex");
}

/** The idempotency key of a request: the header, else a string body `nonce`; undefined when neither. */
export function idempotencyKeyOf(headers: IncomingHttpHeaders, body: unknown): string | undefined {
  const header = headers["idempotency-key"];
  if (header !== undefined) {
    if (typeof header !== "string" || !KEY_PATTERN.test(header)) {
      throw new ApiError("invalid_request", "Idempotency-Key must be 1 to 255 visible ASCII characters.", {
        header: "Idempotency-Key",
      });
    }
    return header;
  }
  const nonce = (body as { nonce?: unknown } | undefined)?.nonce;
  return typeof nonce === "string" && KEY_PATTERN.test(nonce) ? nonce : undefined;
}

export interface IdempotentCall {
  /** The API key the record belongs to. */
  keyId: string;
  /** Method and route template, e.g. `POST /api/v1/launches/validate`. */
  route: string;
  /** The request's headers and parsed body: the idempotency key comes from them (idempotencyKeyOf). */
  headers: IncomingHttpHeaders;
  body: unknown;
  /**
   * When a stored answer stops being replayed (ms since the epoch), if before the 24 h retention: validate
   * gives its decision's expiresAt. Called only when an answer is stored.
   */
  replayUntil?: (result: IdempotentResult) => number;
}

/** The answer to send, with `Idempotency-Replayed: true` when it is the stored one. */
export interface IdempotentAnswer extends IdempotentResult {
  headers: Readonly<Record<string, string>>;
}

// Shared by every answer, so frozen.
const REPLAYED = Object.freeze({ "Idempotency-Replayed": "true" });
const EXECUTED = Object.freeze({});

/** The executed answer: built field by field rather than spread, since validate answers through it. */
function executedAnswer(result: IdempotentResult): IdempotentAnswer {
  return { status: result.status, body: result.body, headers: EXECUTED };
}

/** The idempotency store on `pool`, timed by the API's clock `now` (ms since the epoch). */
export function idempotency(pool: Pool, now: () => number) {
  /** Claims the key; true when this request must execute, else the stored row that answers it. */
  async function claim(keyId: string, route: string, key: string, hash: string): Promise<true | StoredRow> {
    const claimed = await pool.query(
      `INSERT INTO idempotency_records
         (key_id, route, idempotency_key, request_hash, state, locked_at, created_at, expires_at)
       VALUES ($1, $2, $3, $4, 'in_progress', $7, $7, $7::timestamptz + make_interval(hours => $5))
       ON CONFLICT (key_id, route, idempotency_key) DO UPDATE
         SET request_hash = EXCLUDED.request_hash, state = 'in_progress', response_status = NULL,
             response_body = NULL, locked_at = $7, created_at = $7, expires_at = EXCLUDED.expires_at
         WHERE idempotency_records.expires_at <= $7
            OR (idempotency_records.state = 'in_progress'
                AND idempotency_records.request_hash = EXCLUDED.request_hash
                AND idempotency_records.locked_at < $7::timestamptz - make_interval(secs => $6))
       RETURNING 1`,
      [keyId, route, key, hash, IDEMPOTENCY_RETENTION_HOURS, IDEMPOTENCY_LOCK_SECONDS, new Date(now())],
    );
    if (claimed.rowCount === 1) return true;
    const { rows } = await pool.query<StoredRow>(
      `SELECT request_hash, state, response_status, response_body FROM idempotency_records
       WHERE key_id = $1 AND route = $2 AND idempotency_key = $3`,
      [keyId, route, key],
    );
    // The record expired and was pruned between the two statements: claim again.
    return rows[0] ?? claim(keyId, route, key, hash);
  }

  async function release(keyId: string, route: string, key: string): Promise<void> {
    await pool.query(
      "DELETE FROM idempotency_records WHERE key_id = $1 AND route = $2 AND idempotency_key = $3",
      [keyId, route, key],
    );
  }

  async function complete(call: IdempotentCall, key: string, result: IdempotentResult): Promise<void> {
    const replayUntil = call.replayUntil?.(result);
    // least() ignores a NULL: without a replay bound the 24 h retention stays.
    await pool.query(
      `UPDATE idempotency_records SET state = 'completed', response_status = $4, response_body = $5,
         expires_at = least(expires_at, $6)
       WHERE key_id = $1 AND route = $2 AND idempotency_key = $3`,
      [
        call.keyId,
        call.route,
        key,
        result.status,
        JSON.stringify(result.body),
        replayUntil === undefined ? null : new Date(replayUntil),
      ],
    );
  }

  /**
   * Runs `execute` at most once per (API key, route, idempotency key) and returns its result, or the stored
   * one, marked replayed. Results with status >= 500 and thrown errors are not stored, so the client can
   * retry them. Without an idempotency key it simply runs.
   */
  async function idempotent(
    call: IdempotentCall,
    execute: () => Promise<IdempotentResult>,
  ): Promise<IdempotentAnswer> {
    const { keyId, route, body } = call;
    const key = idempotencyKeyOf(call.headers, body);
    if (key === undefined) return executedAnswer(await execute());
    const hash = requestHashOf(route, body ?? {});
    const claimed = await claim(keyId, route, key, hash);
    if (claimed !== true) {
      if (claimed.request_hash !== hash) {
        countIdempotency("conflict");
        throw new ApiError("idempotency_key_reused", undefined, { idempotencyKey: key });
      }
      if (claimed.state === "in_progress") {
        countIdempotency("in_progress");
        throw new ApiError("idempotency_in_progress", undefined, { idempotencyKey: key });
      }
      countIdempotency("replayed");
      return {
        status: claimed.response_status ?? 200,
        body: claimed.response_body ?? {},
        headers: REPLAYED,
      };
    }
    let result: IdempotentResult;
    try {
      result = await execute();
    } catch (error) {
      await release(keyId, route, key);
      throw error;
    }
    if (result.status >= 500) await release(keyId, route, key);
    else await complete(call, key, result);
    return executedAnswer(result);
  }

  /** Deletes records past their retention. */
  async function pruneExpired(): Promise<void> {
    await pool.query("DELETE FROM idempotency_records WHERE expires_at <= $1", [new Date(now())]);
  }

  return { idempotent, pruneExpired };
}

export type Idempotency = ReturnType<typeof idempotency>;
