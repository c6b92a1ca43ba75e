-- Partners as a table: a partner owns its keys, keeps its partner_id across key rotation and holds
-- what was derived from keys before: its organization and contact email (and whether that email is
-- verified), which environments it may use, its revenue split and when each environment's integration
-- started (the 30-day introductory period runs from there: core/reservation/revenueShare.ts), and how its
-- payouts are routed.
CREATE TABLE partners (
  partner_id text PRIMARY KEY,
  organization text CHECK (char_length(organization) <= 200),
  contact_email text CHECK (char_length(contact_email) <= 254),
  -- Null until a one-time token mailed to the contact email is consumed.
  email_verified_at timestamptz,
  environments text[] NOT NULL CHECK (
    cardinality(environments) > 0 AND environments <@ ARRAY['sandbox', 'production']::text[]
  ),
  -- The partner's part of an attributed fee once its introductory period is over; the service keeps the rest.
  partner_bps integer NOT NULL CHECK (partner_bps BETWEEN 0 AND 10000),
  sandbox_integration_started_at timestamptz,
  production_integration_started_at timestamptz,
  -- 'held': accrued revenue stays on the ledger (payouts are gated off); 'verified_wallets': a chain family's
  -- accrued revenue is planned to the partner's verified payout wallet of that family.
  payout_routing text NOT NULL DEFAULT 'held' CHECK (payout_routing IN ('held', 'verified_wallets')),
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((sandbox_integration_started_at IS NOT NULL) = ('sandbox' = ANY (environments))),
  CHECK ((production_integration_started_at IS NOT NULL) = ('production' = ANY (environments))),
  CHECK (email_verified_at IS NULL OR contact_email IS NOT NULL)
);

-- Backfill: one partner per partner_id on api_keys. Its contact is that of its earliest key that named one
-- (verified if that key's email was), each environment's integration starts at its first key there, and the
-- split is the standard 60 percent partner share that applied to every partner until now.
INSERT INTO partners (partner_id, organization, contact_email, email_verified_at, environments, partner_bps,
  sandbox_integration_started_at, production_integration_started_at, created_at)
SELECT keys.partner_id, contact.organization, contact.email,
  CASE WHEN contact.email_verified THEN contact.created_at END,
  keys.environments, 6000, keys.sandbox_started, keys.production_started, keys.first_created
FROM (
  SELECT partner_id, array_agg(DISTINCT environment ORDER BY environment) AS environments,
    min(created_at) FILTER (WHERE environment = 'sandbox') AS sandbox_started,
    min(created_at) FILTER (WHERE environment = 'production') AS production_started,
    min(created_at) AS first_created
  FROM api_keys GROUP BY partner_id
) AS keys
LEFT JOIN LATERAL (
  SELECT organization, email, email_verified, created_at FROM api_keys
  WHERE api_keys.partner_id = keys.partner_id AND (email IS NOT NULL OR organization IS NOT NULL)
  ORDER BY created_at, key_id LIMIT 1
) AS contact ON true;

-- The partner's row is now the one place for its contact; keys only belong to a partner.
ALTER TABLE api_keys DROP COLUMN organization, DROP COLUMN email, DROP COLUMN email_verified,
  ADD FOREIGN KEY (partner_id) REFERENCES partners (partner_id);

-- Onboarding. Requests for partner access from the public form: stored as sent (bounded), acknowledged with
-- their id, listed for operators (partners:requests) and closed by them.
CREATE TABLE partner_access_requests (
  request_id text PRIMARY KEY,
  organization text NOT NULL CHECK (char_length(organization) BETWEEN 1 AND 200),
  email text NOT NULL CHECK (char_length(email) <= 254),
  intended_use text NOT NULL CHECK (char_length(intended_use) BETWEEN 1 AND 2000),
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
  created_at timestamptz NOT NULL DEFAULT now(),
  closed_at timestamptz,
  closed_by text
);
CREATE INDEX partner_access_requests_open ON partner_access_requests (created_at) WHERE status = 'open';

-- One-time email verification tokens: only a SHA-256 of the token is stored; a token proves the address it
-- was mailed to, once, before it expires.
CREATE TABLE email_verification_tokens (
  token_hash bytea PRIMARY KEY CHECK (octet_length(token_hash) = 32),
  partner_id text NOT NULL REFERENCES partners (partner_id),
  email text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  consumed_at timestamptz
);
CREATE INDEX email_verification_tokens_partner ON email_verification_tokens (partner_id);

-- A partner's requests for production access, made with its key; operators grant (partners:grant) or decline
-- (partners:decline) them.
CREATE TABLE production_requests (
  request_id text PRIMARY KEY,
  partner_id text NOT NULL REFERENCES partners (partner_id),
  key_id text NOT NULL REFERENCES api_keys (key_id),
  message text NOT NULL CHECK (char_length(message) <= 2000),
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'granted', 'declined')),
  created_at timestamptz NOT NULL DEFAULT now(),
  decided_at timestamptz,
  decided_by text
);
-- At most one open request per partner: asking again while one is open answers the open one.
CREATE UNIQUE INDEX production_requests_one_open ON production_requests (partner_id) WHERE status = 'open';

-- Diagnostics: the recent requests of each key (never key material, never bodies) and its counts per UTC day
-- and route. Both are written in batches off the response path (services/partners/requestLog.ts); housekeeping
-- keeps the last 1,000 requests of a key within 7 days, and 30 days of daily counts. UNLOGGED, like the rate
-- windows: these writes ride along every keyed request, so they skip the WAL; after a database crash the
-- diagnostics restart empty, which loses nothing a request depends on. One index each, for the reads by key.
CREATE UNLOGGED TABLE api_request_log (
  log_id bigint GENERATED ALWAYS AS IDENTITY,
  key_id text NOT NULL,
  partner_id text NOT NULL,
  method text NOT NULL,
  path text NOT NULL,
  status integer NOT NULL,
  latency_ms integer NOT NULL,
  request_id text NOT NULL,
  at timestamptz NOT NULL
);
CREATE INDEX api_request_log_key ON api_request_log (key_id, log_id DESC);

CREATE UNLOGGED TABLE api_usage_daily (
  key_id text NOT NULL,
  partner_id text NOT NULL,
  day date NOT NULL,
  route text NOT NULL,
  requests integer NOT NULL,
  rate_limited integer NOT NULL,
  PRIMARY KEY (key_id, day, route)
);
