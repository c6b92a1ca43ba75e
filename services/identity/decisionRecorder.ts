// Records signed decisions and their outbox events with group commit (platform/batcher): decisions signed
// in the same turn, or while the batches in flight are being written, go into one batch as ONE statement
// (one commit). Each
// caller still waits for the commit that holds its decision before it answers, so nothing is answered
// that is not recorded; a failed batch fails every decision in it (503, never an unrecorded answer).
import type { Pool } from "pg";
import type { SignedDecision } from "../../core/decision";
import { batcher } from "../../storage/batcher";
import { batchesInFlight } from "../../storage/batchesInFlight";
import type { DomainEvent } from "../../storage/domainEvents";
import { batchObserver } from "../../telemetry/metrics";

export interface DecisionRecord {
  decision: SignedDecision;
  partnerId: string;
  apiKeyId: string;
  status: string;
  events: readonly DomainEvent[];
}

/** Largest batch per statement; a burst beyond it is written in several statements. */
const MAX_BATCH = 256;

// The signed decision is stored whole; its fields are not repeated in columns (migration 0023).
const RECORD_SQL = `
WITH input AS (
  SELECT * FROM json_to_recordset($1::json) AS r(
    request_id text, environment text, partner_id text, api_key_id text, status text, signed json, events json)
), recorded AS (
  INSERT INTO decisions (request_id, environment, partner_id, api_key_id, status, signed)
  SELECT request_id, environment, partner_id, api_key_id, status, signed FROM input
  RETURNING request_id
)
INSERT INTO domain_events (type, environment, partner_id, payload)
SELECT event->>'type', input.environment, input.partner_id, event->'payload'
FROM input JOIN recorded USING (request_id) CROSS JOIN LATERAL json_array_elements(input.events) AS event`;

function rowOf(record: DecisionRecord): Record<string, unknown> {
  const { decision } = record;
  return {
    request_id: decision.requestId,
    environment: decision.environment,
    partner_id: record.partnerId,
    api_key_id: record.apiKeyId,
    status: record.status,
    signed: decision,
    events: record.events.map((event) => ({ type: event.type, payload: event.payload })),
  };
}

export interface DecisionRecorder {
  /** Resolves once the decision and its events are committed. */
  record(record: DecisionRecord): Promise<void>;
}

/**
 * `postgresServer` (storage/batchesInFlight) is read per batch: it is known once the decision data path
 * (services/dataPath.ts) has started.
 */
export function decisionRecorder(pool: Pool, postgresServer: () => boolean = () => false): DecisionRecorder {
  const write = batcher<Record<string, unknown>, void>(
    async (rows) => {
      await pool.query({
        name: "decisions.record",
        text: RECORD_SQL,
        values: [JSON.stringify(rows)],
      });
      return rows.map(() => undefined);
    },
    {
      maxBatch: MAX_BATCH,
      maxInFlight: () => batchesInFlight(postgresServer()),
      observe: batchObserver("decisions.record"),
    },
  );
  return { record: (record) => write(rowOf(record)) };
}
