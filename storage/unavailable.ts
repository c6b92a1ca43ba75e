// The one place where a database failure is told apart from a wrong query. node-postgres reports a lost or
// refused connection partly by message only, so its errors are classified here, as they cross into the
// service (storage/pool.ts), and become a DatabaseUnavailableError that keeps the original as `cause`.
// Everything above decides by type: such an error, or a DataPathTimeoutError, answers 503 (fail closed).
import { ServiceError } from "../core/errors/serviceError";
import { DataPathTimeoutError } from "./dataPathBound";

export type UnavailableReason = "timeout" | "unreachable";

export class DatabaseUnavailableError extends ServiceError {
  constructor(
    readonly reason: UnavailableReason,
    cause: unknown,
  ) {
    super(
      reason === "timeout"
        ? "The database did not answer in time."
        : "The database could not be reached or lost the connection.",
      { cause },
    );
  }
}

const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EHOSTUNREACH",
]);
// SQLSTATE classes: 08 connection exception, 53 insufficient resources, 57P operator intervention (shutdown).
const SQLSTATE_UNAVAILABLE = /^(08|53|57P)/;
const LOST_CONNECTION =
  /Connection terminated|timeout exceeded when trying to connect|connection error|Connection ended/i;
// A query past the client's `query_timeout`.
const QUERY_TIMEOUT = "Query read timeout";

function unavailableReason(error: unknown): UnavailableReason | undefined {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (message === QUERY_TIMEOUT) return "timeout";
  if (typeof code === "string" && (NETWORK_CODES.has(code) || SQLSTATE_UNAVAILABLE.test(code))) {
    return "unreachable";
  }
  return typeof message === "string" && LOST_CONNECTION.test(message) ? "unreachable" : undefined;
}

/** `error` as it enters the service: a DatabaseUnavailableError when the database is unreachable or slow. */
export function asDatabaseError(error: unknown): unknown {
  if (error instanceof ServiceError) return error;
  const reason = unavailableReason(error);
  return reason === undefined ? error : new DatabaseUnavailableError(reason, error);
}

/** Why the data path could not answer (`error` past the bound, or the database unreachable), or undefined. */
export function dataPathFailureOf(error: unknown): UnavailableReason | undefined {
  if (error instanceof DataPathTimeoutError) return "timeout";
  return error instanceof DatabaseUnavailableError ? error.reason : undefined;
}

/** Whether `error` means the data path could not answer: the database unreachable, or past the bound. */
export function isDatabaseUnavailable(error: unknown): boolean {
  return dataPathFailureOf(error) !== undefined;
}
