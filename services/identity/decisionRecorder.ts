// Records signed decisions and their outbox events. The rows travel in the data path's next statement
// (./decisionStatements): decisions signed while a batch of statements is in flight are written together, in the
// same statement as the key checks and snapshot reads of the requests that arrived meanwhile (one commit). Each
// caller still waits for the commit that holds its decision before it answers, so nothing is answered that is
// not recorded; a failed statement fails every decision in it (503, never an unrecorded answer).
import type { SignedDecision } from "../../core/decision";
import type { DomainEvent } from "../../storage/outbox";

export interface DecisionRecord {
  decision: SignedDecision;
  partnerId: string;
  apiKeyId: string;
  status: string;
  events: readonly DomainEvent[];
}

/**
 * The CTEs `record_input`, `recorded` and `recorded_events`: the decisions of the statement's parameter `$3` and
 * their outbox events inserted. Data-modifying, so they run to completion whatever the statement selects.
 */
export const RECORD_CTES = `
record_input AS (
  SELECT * FROM json_to_recordset($3::json) AS r(
    request_id text, environment text, partner_id text, api_key_id text, identity_key text, chain text,
    launcher text, launchpad_id text, decision text, reason text, status text, signing_kid text, nonce text,
    issued_at timestamptz, signed json, events json)
), recorded AS (
  INSERT INTO decisions (request_id, environment, partner_id, api_key_id, identity_key, chain, launcher, launchpad_id,
                         decision, reason, status, signing_kid, nonce, issued_at, signed)
  SELECT request_id, environment, partner_id, api_key_id, identity_key, chain, launcher, launchpad_id,
         decision, reason, status, signing_kid, nonce, issued_at, signed FROM record_input
  RETURNING request_id
), recorded_events AS (
  INSERT INTO domain_events (type, environment, partner_id, payload)
  SELECT event->>'type', record_input.environment, record_input.partner_id, event->'payload'
  FROM record_input JOIN recorded USING (request_id) CROSS JOIN LATERAL json_array_elements(record_input.events) AS event
)`;

/** A record as a row of RECORD_CTES' parameter. */
export type RecordRow = Record<string, unknown>;

function rowOf(record: DecisionRecord): RecordRow {
  const { decision } = record;
  return {
    request_id: decision.requestId,
    environment: decision.environment,
    partner_id: record.partnerId,
    api_key_id: record.apiKeyId,
    identity_key: decision.identityKey,
    chain: decision.chain,
    launcher: decision.launcher,
    launchpad_id: decision.launchpadId,
    decision: decision.decision,
    reason: decision.reason,
    status: record.status,
    signing_kid: decision.keyId,
    nonce: decision.nonce ?? null,
    issued_at: decision.issuedAt,
    signed: decision,
    events: record.events.map((event) => ({ type: event.type, payload: event.payload })),
  };
}

export interface DecisionRecorder {
  /** Resolves once the decision and its events are committed. */
  record(record: DecisionRecord): Promise<void>;
}

/** A recorder whose rows go to `write` (the data path's statements), which resolves once they are committed. */
export function decisionRecorder(write: (row: RecordRow) => Promise<void>): DecisionRecorder {
  return { record: (record) => write(rowOf(record)) };
}
