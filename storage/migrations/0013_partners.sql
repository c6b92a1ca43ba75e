-- Partners as a table (issue 19): a partner owns its keys, keeps its partner_id across key rotation and holds
-- what was derived from keys before: its organization and contact email (and whether that email is
-- verified), which environments it may use, its revenue split and when each environment's integration
-- started (the 30-day introductory period runs from there: core/reservation/revenueShare.ts), and how its
-- payouts are routed.
CREATE TABLE partners (
  partner_id text PRIMARY KEY,
  organization text CHECK (char_length(organization) <= 200),
  contact_email text CHECK (char_length(contact_email) <= 254),
  -- Null until the contact email's one-time token is consumed; a new contact email clears it.
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
