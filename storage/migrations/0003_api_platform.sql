-- The API platform: partner API keys, per-key rate-limit windows and idempotency records.

-- API keys are stored only as a SHA-256 hash of the full secret; the raw key is shown once at creation.
-- `key_id` is the public identifier (shown in listings, logs and the audit log); it never reveals the secret.
CREATE TABLE api_keys (
  key_id text PRIMARY KEY,
  secret_hash bytea NOT NULL UNIQUE CHECK (octet_length(secret_hash) = 32),
  -- The first characters of the raw key (prefix plus a few secret characters), so a partner can tell keys apart.
  display_prefix text NOT NULL,
  environment text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  partner_id text NOT NULL,
  label text NOT NULL DEFAULT '',
  organization text,
  email text,
  email_verified boolean NOT NULL DEFAULT false,
  scopes text[] NOT NULL,
  rate_limit_per_minute integer NOT NULL CHECK (rate_limit_per_minute BETWEEN 1 AND 2000),
  -- Webhook/partner signing secret issued with a sandbox key, sealed under the master key.
  signing_secret_sealed text,
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL,
  revoked_at timestamptz,
  revoked_by text,
  revoked_reason text,
  CHECK (environment = 'production' OR rate_limit_per_minute = 60)
);
CREATE INDEX api_keys_partner ON api_keys (partner_id);

-- One row per key (or anonymous client) and clock minute; the upsert that counts a request is atomic, so the
-- limit holds exactly across API processes sharing this database. UNLOGGED: counting a request then needs no
-- WAL flush (a hot key's counter row would otherwise serialise requests on commit latency); after a database
-- crash the current minute's counts restart from zero, which only ever errs towards allowing requests.
CREATE UNLOGGED TABLE rate_limit_windows (
  subject text NOT NULL,
  window_start timestamptz NOT NULL,
  request_count integer NOT NULL,
  PRIMARY KEY (subject, window_start)
);
CREATE INDEX rate_limit_windows_start ON rate_limit_windows (window_start);

-- Stored responses of idempotent requests, per API key and route. `request_hash` detects a reused key with a
-- different body; `state` in_progress blocks a concurrent duplicate.
CREATE TABLE idempotency_records (
  key_id text NOT NULL,
  route text NOT NULL,
  idempotency_key text NOT NULL,
  request_hash text NOT NULL,
  state text NOT NULL CHECK (state IN ('in_progress', 'completed')),
  response_status integer,
  response_body jsonb,
  locked_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (key_id, route, idempotency_key)
);
CREATE INDEX idempotency_records_expiry ON idempotency_records (expires_at);
