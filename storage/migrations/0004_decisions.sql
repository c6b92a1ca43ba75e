-- Decisions: the service's own identity records beside the chain mirror, the decision audit,
-- keeper credentials, the sandbox dataset and the outbox. Every identity row carries its environment:
-- sandbox and production never share data.

-- Bonding and milestone locks. `authorized_launcher` is fixed when the lock is applied (null: nobody).
CREATE TABLE identity_locks (
  id bigserial PRIMARY KEY,
  environment text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  identity_key text NOT NULL,
  chain text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('bonded', 'milestone')),
  was_reserved boolean NOT NULL,
  authorized_launcher text,
  applied_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL CHECK (expires_at > applied_at),
  previous_expiry timestamptz,
  launchpad text,
  partner_id text,
  -- 'scenario' rows are the seeded sandbox scenarios (restorable); 'report' rows came from partners.
  source text NOT NULL DEFAULT 'report' CHECK (source IN ('report', 'scenario'))
);
CREATE INDEX identity_locks_identity ON identity_locks (environment, identity_key, chain);

-- Launch reports (POST /v1/launches/report): a `launched` event, no lock. Not deduplicated.
CREATE TABLE identity_launches (
  id bigserial PRIMARY KEY,
  environment text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  identity_key text NOT NULL,
  chain text NOT NULL,
  launcher text NOT NULL,
  token_or_mint text NOT NULL,
  launchpad text NOT NULL,
  partner_id text,
  reported_at timestamptz NOT NULL,
  source text NOT NULL DEFAULT 'report' CHECK (source IN ('report', 'scenario'))
);
CREATE INDEX identity_launches_identity ON identity_launches (environment, identity_key, chain);

-- Guardian blocks and clears, with actor and reason (also written to audit_log). chain NULL: every chain.
CREATE TABLE guardian_actions (
  id bigserial PRIMARY KEY,
  environment text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  identity_key text NOT NULL,
  chain text,
  kind text NOT NULL CHECK (kind IN ('block', 'clear')),
  graduated boolean NOT NULL DEFAULT false,
  expires_at timestamptz,
  actor text NOT NULL,
  reason text NOT NULL,
  at timestamptz NOT NULL,
  source text NOT NULL DEFAULT 'operator' CHECK (source IN ('operator', 'scenario')),
  CHECK (kind = 'block' OR (NOT graduated AND expires_at IS NULL)),
  CHECK (NOT graduated OR expires_at IS NULL)
);
CREATE INDEX guardian_actions_identity ON guardian_actions (environment, identity_key, at);

-- Sandbox holds: seeded scenarios and POST /v1/reservations. Production holds exist only on-chain
-- (chain_reservations).
CREATE TABLE sandbox_holds (
  id bigserial PRIMARY KEY,
  identity_key text NOT NULL,
  chain text NOT NULL,
  launcher text NOT NULL,
  starts_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL CHECK (expires_at > starts_at),
  duration_seconds integer NOT NULL,
  partner_id text,
  source text NOT NULL CHECK (source IN ('partner', 'scenario')),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sandbox_holds_identity ON sandbox_holds (identity_key, chain);

-- Every signed validation, for audit: who asked, what was decided, which key signed it.
CREATE TABLE decisions (
  request_id text PRIMARY KEY,
  environment text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  partner_id text NOT NULL,
  api_key_id text NOT NULL,
  identity_key text NOT NULL,
  chain text NOT NULL,
  launcher text NOT NULL,
  launchpad_id text NOT NULL,
  decision text NOT NULL CHECK (decision IN ('allow', 'allow_authorized_only', 'block', 'recheck_required')),
  reason text NOT NULL,
  status text NOT NULL,
  signing_kid text NOT NULL,
  nonce text,
  issued_at timestamptz NOT NULL,
  signed jsonb NOT NULL
);
CREATE INDEX decisions_identity ON decisions (environment, identity_key, issued_at);
CREATE INDEX decisions_partner ON decisions (partner_id, issued_at);

-- Keeper credentials for production event reports (X-Service-Keeper). Only a SHA-256 of the secret is
-- kept; the credential is bound to one partner and shown once when issued.
CREATE TABLE keeper_credentials (
  keeper_id text PRIMARY KEY,
  secret_hash bytea NOT NULL UNIQUE CHECK (octet_length(secret_hash) = 32),
  partner_id text NOT NULL,
  label text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL,
  revoked_at timestamptz,
  revoked_by text
);
CREATE INDEX keeper_credentials_partner ON keeper_credentials (partner_id);

-- Production API keys allowed to report launches (POST /v1/launches/report); others get 403.
CREATE TABLE launch_report_access (
  api_key_id text PRIMARY KEY,
  enabled_by text NOT NULL,
  enabled_at timestamptz NOT NULL DEFAULT now()
);

-- Outbox: domain events written in the same transaction as the change; the worker dispatches them.
CREATE TABLE domain_events (
  id bigserial PRIMARY KEY,
  type text NOT NULL,
  environment text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  partner_id text,
  payload jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  dispatched_at timestamptz
);
CREATE INDEX domain_events_pending ON domain_events (id) WHERE dispatched_at IS NULL;

