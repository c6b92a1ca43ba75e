// The decision data path the identity, sandbox and reservation services share: the start-up work every
// decision waits for once (signing keys created), the time bound on a decision's data work
// with its failures as 503, and the evaluation context of each request.
import type { Pool } from "pg";
import type { Environment } from "../core/environment";
import { ApiError } from "../core/errors/catalogue";
import { createSecretBox, type SecretBox } from "../core/secrets/secretBox";
import { DEFAULT_FRESHNESS_BOUND_SECONDS } from "../core/status";
import { isPostgresServer } from "../storage/batchesInFlight";
import { DEFAULT_DATA_PATH_TIMEOUT_MS, withinDataPathBound } from "../storage/dataPathBound";
import { isDatabaseUnavailable } from "../storage/unavailable";
import type { EvaluationContext } from "./identity/evaluation";
import type { ChainInfo } from "./mirror/chainCatalogue";
import { SignerUnavailableError } from "./signing/activeSigner";
import { ensureSigningKeys } from "./signing/signingKeyStore";

export interface DecisionOptions {
  /** Chains of the deployment manifest; chains with an indexer checkpoint are added to them. Default none. */
  chains?: readonly ChainInfo[];
  /** How far behind a chain's mirror may be and still decide; default 60 s. */
  freshnessBoundSeconds?: number;
  /** Upper bound on a decision's data work before it answers 503; default 2 s. */
  dataPathTimeoutMs?: number;
  /** Bound on a registry read when a chain's mirror cannot decide (on-chain first); default 1 s. */
  chainReadTimeoutMs?: number;
}

export interface DataPath {
  pool: Pool;
  /** The evaluation context of a request in `environment`, with the clock read now. */
  context(environment: Environment): EvaluationContext;
  /** Whether the database is a Postgres server (storage/batchesInFlight), known once start-up has run. */
  postgresServer(): boolean;
  /**
   * Start-up work, run once on the first decision request (run waits for it): signing keys exist for both
   * environments. Retried after a failure. Not started at creation: on
   * the embedded database, start-up transactions racing other connections' first queries are to be avoided.
   */
  ready(): Promise<void>;
  /** Waits for start-up, then runs data-path work within the timeout; data-path or signer failures become 503. */
  run<T>(work: () => Promise<T>): Promise<T>;
  /** `work` within the data path's timeout (DataPathTimeoutError past it), without waiting for start-up. */
  bounded<T>(work: Promise<T>): Promise<T>;
}

/** Bound on the first-start work (signing keys) that the first decision request waits for. */
const STARTUP_TIMEOUT_MS = 30_000;

/** Errors that mean the data path or signer failed (not the client, not a bug in a known branch). */
function isUnavailable(error: unknown): boolean {
  if (error instanceof ApiError) return false;
  if (error instanceof SignerUnavailableError) return true;
  return isDatabaseUnavailable(error);
}

/**
 * First-start work: an active signing key for each environment that has none (needs the master key). The
 * sandbox scenarios need none: they are built from the clock at every read. `npm start` should run it before
 * serving, so GET /v1/keys lists keys from the first second; the decision services also run it on their
 * first request.
 */
export function prepareDecisionData(pool: Pool, masterKey: Buffer | undefined): Promise<void> {
  return prepare(pool, masterKey === undefined ? undefined : createSecretBox(masterKey));
}

async function prepare(pool: Pool, box: SecretBox | undefined): Promise<void> {
  if (box !== undefined) await ensureSigningKeys(pool, box);
}

export function createDataPath(
  pool: Pool,
  box: SecretBox | undefined,
  now: () => number,
  options: DecisionOptions = {},
): DataPath {
  const configuredChains = options.chains ?? [];
  const freshnessBoundSeconds = options.freshnessBoundSeconds ?? DEFAULT_FRESHNESS_BOUND_SECONDS;
  const timeoutMs = options.dataPathTimeoutMs ?? DEFAULT_DATA_PATH_TIMEOUT_MS;
  let started: Promise<void> | undefined;
  let startUpDone = false;
  let postgresServer = false;

  const start = async () => {
    await prepare(pool, box);
    postgresServer = await isPostgresServer(pool);
    startUpDone = true;
  };

  function ready(): Promise<void> {
    started ??= start().catch((error) => {
      started = undefined;
      throw error;
    });
    return started;
  }

  async function run<T>(work: () => Promise<T>): Promise<T> {
    try {
      // First-start work has its own, longer bound: it runs once and must not eat a request's budget. Once
      // done, a request does not wait for it (no timer of its own on the hot path).
      if (!startUpDone) await withinDataPathBound(ready(), STARTUP_TIMEOUT_MS);
      return await withinDataPathBound(work(), timeoutMs);
    } catch (error) {
      if (isUnavailable(error)) {
        throw new ApiError("service_unavailable", undefined, {
          cause: error instanceof SignerUnavailableError ? "signer" : "data_path",
        });
      }
      throw error;
    }
  }

  return {
    pool,
    context: (environment) => ({
      environment,
      configuredChains,
      freshnessBoundSeconds,
      now: new Date(now()),
    }),
    postgresServer: () => postgresServer,
    ready,
    run,
    bounded: (work) => withinDataPathBound(work, timeoutMs),
  };
}
