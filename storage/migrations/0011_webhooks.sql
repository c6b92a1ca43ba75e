-- Webhooks: partner endpoints, one delivery per (endpoint, outbox event) and every attempt made.

-- An endpoint belongs to one partner in one environment; it only ever receives that environment's events.
CREATE TABLE webhook_endpoints (
  id text PRIMARY KEY,
  partner_id text NOT NULL,
  environment text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  url text NOT NULL,
  -- Subscribed event types; NULL subscribes to every type.
  events text[],
  enabled boolean NOT NULL DEFAULT true,
  -- The signing secret, sealed under the master key (context `webhook-secret:<id>`).
  secret_sealed text NOT NULL,
  -- After a rotation the previous secret also signs until previous_secret_expires_at.
  previous_secret_sealed text,
  previous_secret_expires_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX webhook_endpoints_owner ON webhook_endpoints (partner_id, environment);
CREATE INDEX webhook_endpoints_subscribers ON webhook_endpoints (environment) WHERE enabled;

-- A delivery keeps its id through retries and replays (it is the envelope id and the webhook-id header).
-- status: pending (an attempt is due at next_attempt_at), succeeded, dead (the schedule ran out).
-- A worker sending an attempt holds a lease (lease_token until leased_until); a lease that runs out
-- (the worker died) makes the delivery claimable again.
CREATE TABLE webhook_deliveries (
  id text PRIMARY KEY,
  seq bigserial NOT NULL UNIQUE,
  endpoint_id text NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  partner_id text NOT NULL,
  environment text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  -- The outbox row it came from; NULL for test events.
  event_id bigint,
  type text NOT NULL,
  data jsonb NOT NULL,
  event_created_at timestamptz NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'dead')),
  attempt_count integer NOT NULL DEFAULT 0,
  -- Failed attempts since the delivery was created or last replayed: the position in the retry schedule.
  failures_in_round integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  last_attempt_at timestamptz,
  last_response_code integer,
  last_error text,
  lease_token text,
  leased_until timestamptz,
  created_at timestamptz NOT NULL,
  UNIQUE (endpoint_id, event_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_owner ON webhook_deliveries (partner_id, environment, seq);

CREATE TABLE webhook_attempts (
  delivery_id text NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
  attempt_number integer NOT NULL,
  started_at timestamptz NOT NULL,
  duration_ms integer NOT NULL,
  response_code integer,
  error text,
  PRIMARY KEY (delivery_id, attempt_number)
);
