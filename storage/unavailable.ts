// Whether an error means the database could not be reached or could not answer, as opposed to a query that
// is wrong. Callers answer the first kind with 503 service_unavailable (fail closed, retry later).
import { isDataPathTimeout } from "./dataPathBound";

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
// node-postgres reports a lost or refused connection by message only.
const POOL_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|connection error|Connection ended/i;

export function isDatabaseUnavailable(error: unknown): boolean {
  if (isDataPathTimeout(error)) return true;
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === "string" && (NETWORK_CODES.has(code) || SQLSTATE_UNAVAILABLE.test(code))) return true;
  return typeof message === "string" && POOL_MESSAGES.test(message);
}
