-- Signing keys for decisions. Private keys are stored encrypted under the master key (AES-256-GCM);
-- the public key is stored raw (32 bytes) because it is published.
CREATE TABLE signing_keys (
  kid text PRIMARY KEY,
  environment text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  status text NOT NULL CHECK (status IN ('active', 'retiring', 'revoked')),
  public_key bytea NOT NULL CHECK (octet_length(public_key) = 32),
  private_key_encrypted text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  retiring_at timestamptz,
  revoked_at timestamptz
);
-- Exactly one active key per environment is enforced by the database, not only by code.
CREATE UNIQUE INDEX signing_keys_one_active ON signing_keys (environment) WHERE status = 'active';

-- Every operator action (key provisioning, revocations, rotations, guardian actions) with who and why.
CREATE TABLE audit_log (
  id bigserial PRIMARY KEY,
  actor text NOT NULL,
  action text NOT NULL,
  subject text NOT NULL,
  reason text NOT NULL,
  details jsonb NOT NULL DEFAULT '{}'::jsonb,
  at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_log_subject ON audit_log (subject, at);
