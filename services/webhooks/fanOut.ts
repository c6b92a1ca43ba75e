// Outbox -> deliveries: one statement takes a batch of undispatched domain events (skipping rows another
// worker holds), creates a delivery for every enabled endpoint of the event's environment that subscribes to
// its type (and belongs to its partner, when the event names one), and marks the events dispatched. Being one
// statement, it is one transaction: an event is either dispatched with all its deliveries or not at all.
import type { Pool } from "pg";
import { NEW_DELIVERY_ID_SQL } from "./deliveryStore";

export interface FanOutCounts {
  events: number;
  deliveries: number;
}

/** Fans out up to $1 undispatched events at $2 (the deliveries' creation and first due time). */
export const FAN_OUT_SQL = `WITH events AS (
  SELECT id, type, environment, partner_id, payload, created_at FROM domain_events
  WHERE dispatched_at IS NULL ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED
), inserted AS (
  INSERT INTO webhook_deliveries (id, endpoint_id, partner_id, environment, event_id, type, data,
    event_created_at, status, next_attempt_at, created_at)
  SELECT ${NEW_DELIVERY_ID_SQL}, t.endpoint_id, t.partner_id, t.environment, ev.id, ev.type, ev.payload,
    ev.created_at, 'pending', $2, $2
  FROM events ev CROSS JOIN LATERAL (
    -- One branch per kind of event: a partner's event reads that partner's endpoints through their index
    -- (one join with the partner inside an OR tried every endpoint of the environment against each event);
    -- an event without a partner goes to every subscriber.
    SELECT e.id AS endpoint_id, e.partner_id, e.environment FROM webhook_endpoints e
     WHERE ev.partner_id IS NOT NULL AND e.partner_id = ev.partner_id AND e.environment = ev.environment
       AND e.enabled AND (e.events IS NULL OR ev.type = ANY (e.events))
    UNION ALL
    SELECT e.id, e.partner_id, e.environment FROM webhook_endpoints e
     WHERE ev.partner_id IS NULL AND e.environment = ev.environment
       AND e.enabled AND (e.events IS NULL OR ev.type = ANY (e.events))
  ) t
  ORDER BY ev.id
  ON CONFLICT (endpoint_id, event_id) DO NOTHING
  RETURNING 1
), marked AS (
  UPDATE domain_events d SET dispatched_at = $2 FROM events WHERE d.id = events.id RETURNING 1
)
SELECT (SELECT count(*) FROM marked)::int AS events, (SELECT count(*) FROM inserted)::int AS deliveries`;

/** A named statement: planned once per connection. */
export async function fanOutEvents(pool: Pool, at: Date, batchSize: number): Promise<FanOutCounts> {
  const { rows } = await pool.query<FanOutCounts>({
    name: "webhooks.fan_out",
    text: FAN_OUT_SQL,
    values: [batchSize, at],
  });
  return rows[0] ?? { events: 0, deliveries: 0 };
}
