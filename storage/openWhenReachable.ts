// Opens the database for a role that may start before Postgres is up, or while it restarts: an unreachable
// database is retried with bounded backoff (core/retry/backoff.ts) and each attempt logged; any other error
// (bad credentials, a missing database, a failed migration) ends the start, since waiting cannot fix it.
import { type BackoffPolicy, backoffPolicy, createBackoff, retryUntilSuccess } from "../core/retry/backoff";
import { type Database, type DatabaseSource, openDatabase } from "./database";
import { isDatabaseUnavailable } from "./unavailable";

export interface OpenRetryOptions {
  log: (line: string) => void;
  /** Default: 1 s doubling to 5 s. */
  backoff?: Partial<BackoffPolicy>;
}

export function openDatabaseWhenReachable(
  source: DatabaseSource,
  options: OpenRetryOptions,
): Promise<Database> {
  return retryUntilSuccess(() => openDatabase(source), {
    backoff: createBackoff({
      what: "Opening the database",
      log: options.log,
      policy: backoffPolicy(1_000, options.backoff),
    }),
    isFatal: (error) => !isDatabaseUnavailable(error),
  });
}
