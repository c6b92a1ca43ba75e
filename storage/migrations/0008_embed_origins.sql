-- The browser origins (scheme://host[:port], as browsers send them in the Origin header) from which an
-- allowlisted launchpad's pages call the embed endpoints: the API answers CORS for these origins only while the
-- launchpad is enabled. Operators add and remove them, audited (embed:origin-add, embed:origin-remove).
CREATE TABLE embed_launchpad_origins (
  launchpad text NOT NULL REFERENCES embed_launchpads (launchpad),
  origin text NOT NULL CHECK (origin ~ '^https?://[^/?#@[:space:]]+$' AND length(origin) <= 255),
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL,
  PRIMARY KEY (launchpad, origin)
);
CREATE INDEX embed_launchpad_origins_origin ON embed_launchpad_origins (origin);
