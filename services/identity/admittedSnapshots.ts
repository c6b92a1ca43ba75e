// A validation's key check and its snapshot read share ONE statement per batch of concurrent validations:
// the key is found and the request counted in its rate window (keys/keyAuthentication), and the identity's
// records are read (recordLoader), in one round trip and one transaction. A statement costs far more than
// a row of either part (measured on the bench machine: ~170 µs of database CPU and ~100 µs of client CPU
// per statement against ~40 µs per row), so one statement instead of two is most of the reads' saving.
import type { Pool } from "pg";
import { batcher } from "../../storage/batcher";
import { batchesInFlight } from "../../storage/batchesInFlight";
import { batchObserver } from "../../telemetry/metrics";
import type { PartnerContext } from "../partners/admission";
import { apiKeyEnvironment } from "../partners/apiKeyFormat";
import {
  AUTHENTICATION_CTES,
  AUTHENTICATION_ROWS,
  type Authentication,
  type AuthenticationAttempt,
  type AuthenticationRow,
  authenticationBatch,
  type KeyedRead,
} from "../partners/keyAuthentication";
import {
  type DecisionSnapshot,
  SHARED_COLUMNS,
  type SnapshotRequest,
  type SnapshotsRow,
  snapshotParameter,
  snapshotRows,
  snapshotsOf,
} from "./recordLoader";
import type { ValidationIdentity } from "./validation";

export interface AdmittedSnapshotRequest {
  attempt: AuthenticationAttempt;
  snapshot: SnapshotRequest;
}

export interface AdmittedSnapshot {
  /** Undefined for an unknown key. */
  authentication: Authentication | undefined;
  snapshot: DecisionSnapshot;
}

export type AdmittedSnapshotLoader = (request: AdmittedSnapshotRequest) => Promise<AdmittedSnapshot>;

// Both parts' rows come back as JSON aggregates in one row: a statement has one result shape. A sandbox
// snapshot reads the records of the partner whose key the same statement found (`found`), so a key reads its
// own partner's sandbox records and nobody else's.
const ADMITTED_SNAPSHOTS_SQL = `
WITH ${AUTHENTICATION_CTES},
requested AS (${snapshotRows("$2", (row) => `(SELECT partner_id FROM found WHERE found.position = ${row}.attempt)`)})
SELECT
  (SELECT json_agg(authenticated) FROM (${AUTHENTICATION_ROWS}) AS authenticated) AS authentications,
  (SELECT json_agg(requested ORDER BY requested.position) FROM requested) AS snapshots,
  ${SHARED_COLUMNS}`;

/**
 * Concurrent validations' key checks and snapshot reads, batched into one statement. `postgresServer`
 * (storage/batchesInFlight) is read per batch: it is known once the data path has started.
 */
export function admittedSnapshotLoader(pool: Pool, postgresServer: () => boolean): AdmittedSnapshotLoader {
  return batcher(
    async (requests) => {
      const authentication = authenticationBatch(requests.map((request) => request.attempt));
      const snapshotRequests = requests.map((request) => request.snapshot);
      const { rows } = await pool.query<SnapshotsRow & { authentications: AuthenticationRow[] | null }>({
        name: "decisions.admitted_snapshots",
        text: ADMITTED_SNAPSHOTS_SQL,
        values: [authentication.parameter, snapshotParameter(snapshotRequests, authentication.positions)],
      });
      const row = rows[0] as (typeof rows)[number];
      const authentications = authentication.answers(row.authentications ?? []);
      return snapshotsOf(row, snapshotRequests).map((snapshot, index) => ({
        authentication: authentications[index],
        snapshot,
      }));
    },
    {
      maxBatch: 256,
      maxInFlight: () => batchesInFlight(postgresServer()),
      observe: batchObserver("decisions.admitted_snapshots"),
    },
  );
}

/** A validation's snapshot as read with its caller's key: the dataset the key's prefix named, and the read. */
export interface KeyedSnapshot {
  environment: string;
  identity: ValidationIdentity;
  snapshot: DecisionSnapshot;
}

/**
 * The identity's snapshot (and the partner of `launchpad`, when sent) read in the caller's key statement. The
 * key's prefix names its environment (svc_sbx_, svc_live_), so the snapshot is of the right dataset before
 * the key is read.
 */
export function snapshotReadWithKey(
  load: AdmittedSnapshotLoader,
  identity: ValidationIdentity,
  chain: string,
  launchpad: string | undefined,
): KeyedRead<KeyedSnapshot> {
  let read: KeyedSnapshot | undefined;
  return {
    authenticator: async (attempt) => {
      const environment = apiKeyEnvironment(attempt.raw);
      if (environment === null) return undefined; // not a key; admission has refused it already
      // The partner is the key's, read in the same statement; none is known before it runs.
      const answer = await load({
        attempt,
        snapshot: {
          environment,
          identity,
          chain,
          launchpad,
          partnerId: null,
          lookalikeKey: identity.lookalikeKey,
        },
      });
      read = { environment, identity, snapshot: answer.snapshot };
      return answer.authentication;
    },
    result: () => read,
  };
}

/** The read of `partner`'s key; a stored key of another environment is a broken invariant, refused. */
export function admittedSnapshotOf(
  partner: Pick<PartnerContext, "keyId" | "environment">,
  read: KeyedSnapshot | undefined,
): KeyedSnapshot {
  if (read === undefined || read.environment !== partner.environment) {
    throw new Error(
      `The key ${partner.keyId} is stored as ${partner.environment} but its prefix says otherwise.`,
    );
  }
  return read;
}
