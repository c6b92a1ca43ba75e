-- Launchpad ids bound to partners: the `launchpad` a partner sends is signed as `launchpadId` and
-- stored on reports, so it must be one of that partner's. Operators bind ids in both environments; in the
-- sandbox an unbound id is claimed by the first partner that uses it ('sandbox_claim'). The embed allowlist
-- keeps only whether an id may prepare from a browser; the partner it attributes fees to is this binding.
CREATE TABLE partner_launchpads (
  environment text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  launchpad text NOT NULL CHECK (launchpad ~ '^[a-z0-9][a-z0-9-]{1,62}$'),
  partner_id text NOT NULL,
  source text NOT NULL CHECK (source IN ('operator', 'sandbox_claim')),
  bound_at timestamptz NOT NULL DEFAULT now(),
  bound_by text NOT NULL,
  PRIMARY KEY (environment, launchpad),
  CHECK (source = 'operator' OR environment = 'sandbox')
);
CREATE INDEX partner_launchpads_partner ON partner_launchpads (partner_id);

INSERT INTO partner_launchpads (environment, launchpad, partner_id, source, bound_at, bound_by)
SELECT environment, launchpad, partner_id, 'operator', created_at, created_by
  FROM embed_launchpads CROSS JOIN (VALUES ('production'), ('sandbox')) AS environments (environment);

ALTER TABLE embed_launchpads DROP COLUMN partner_id;
