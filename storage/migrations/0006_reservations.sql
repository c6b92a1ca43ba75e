-- Reservations: prepares and their lifecycle, the partner revenue ledger and the embed allowlist.
-- A production reservation protects nothing by itself: protection comes from chain_reservations (the mirror).
-- These rows track what the service prepared, whom the fee is attributed to, and what became of it.

CREATE TABLE reservations (
  reservation_id text PRIMARY KEY CHECK (reservation_id ~ '^res_[0-9a-f]{32}$'),
  environment text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  -- Attribution: the API key's partner, or the partner behind an allowlisted embed launchpad.
  partner_id text,
  api_key_id text,
  launchpad text,
  source text NOT NULL CHECK (source IN ('partner', 'embed')),
  chain text NOT NULL,
  family text NOT NULL CHECK (family IN ('evm', 'solana')),
  kind text NOT NULL CHECK (kind IN ('reserve', 'renew')),
  identity_key text NOT NULL,
  normalized_name text NOT NULL,
  normalized_ticker text NOT NULL,
  name_hash text NOT NULL CHECK (name_hash ~ '^0x[0-9a-f]{64}$'),
  ticker_hash text NOT NULL CHECK (ticker_hash ~ '^0x[0-9a-f]{64}$'),
  -- EVM: lowercase 0x address; Solana: base58, exact.
  launcher text NOT NULL,
  duration_seconds integer NOT NULL CHECK (duration_seconds IN (86400, 259200, 604800, 2592000)),
  partner_ref text NOT NULL UNIQUE,
  usd_micros bigint NOT NULL,
  -- The quoted fee in the chain's smallest unit; the ledger uses the fee the chain actually charged.
  quote_amount numeric NOT NULL,
  quote_unit text NOT NULL CHECK (quote_unit IN ('wei', 'lamports')),
  quote_expires_at timestamptz NOT NULL,
  simulated boolean NOT NULL,
  -- What prepare returned, replayed as is.
  transaction jsonb NOT NULL,
  revenue_share jsonb NOT NULL,
  status text NOT NULL CHECK (status IN ('pending_payment', 'submitted', 'confirmed', 'failed', 'expired')),
  status_reason text,
  prepared_at timestamptz NOT NULL,
  -- A prepare not settled by then lapses (expired).
  lapses_at timestamptz NOT NULL,
  transaction_hash text,
  submitted_at timestamptz,
  confirmed_at timestamptz,
  -- The confirmed window (from chain state; sandbox: from the seeded hold).
  starts_at timestamptz,
  expires_at timestamptz,
  fee_paid numeric,
  expiring_notified_at timestamptz,
  finished_at timestamptz,
  -- Embed: when the launchpad settled it (ledger accrued, launchpad stamped on the identity).
  settled_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (status <> 'pending_payment' OR transaction_hash IS NULL),
  CHECK (status <> 'submitted' OR transaction_hash IS NOT NULL)
);
CREATE UNIQUE INDEX reservations_transaction ON reservations (chain, transaction_hash) WHERE transaction_hash IS NOT NULL;
-- The worker's queue: everything not yet final, and confirmed windows until they end.
CREATE INDEX reservations_open ON reservations (status, lapses_at) WHERE status IN ('pending_payment', 'submitted');
CREATE INDEX reservations_confirmed ON reservations (expires_at) WHERE status = 'confirmed';
CREATE INDEX reservations_partner ON reservations (partner_id, prepared_at);
CREATE INDEX reservations_launcher ON reservations (chain, launcher, status);

-- The partner revenue ledger: one entry per attributed reservation. `draft` at prepare, `accrued` only once the
-- reservation is confirmed (on-chain, or sandbox-confirm in the sandbox), `void` when it failed or lapsed.
-- The split is the reservation's immutable revenue_share snapshot.
CREATE TABLE partner_ledger_entries (
  reservation_id text PRIMARY KEY REFERENCES reservations (reservation_id),
  environment text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  partner_id text NOT NULL,
  launchpad text,
  chain text NOT NULL,
  unit text NOT NULL CHECK (unit IN ('wei', 'lamports')),
  -- The fee in chain units: the quote while draft, the fee the chain charged once accrued.
  fee_amount numeric NOT NULL,
  usd_micros bigint NOT NULL,
  partner_bps integer NOT NULL CHECK (partner_bps BETWEEN 0 AND 10000),
  service_bps integer NOT NULL CHECK (service_bps BETWEEN 0 AND 10000 AND partner_bps + service_bps = 10000),
  partner_amount numeric NOT NULL,
  partner_usd_micros bigint NOT NULL,
  introductory boolean NOT NULL,
  status text NOT NULL CHECK (status IN ('draft', 'accrued', 'void')),
  created_at timestamptz NOT NULL,
  accrued_at timestamptz,
  voided_at timestamptz
);
CREATE INDEX partner_ledger_partner ON partner_ledger_entries (partner_id, environment, status);

-- Launchpads allowed to use the embed endpoints (no key in the browser): the public `launchpad` value and the
-- partner it attributes fees to. Managed through the operator CLI, audited.
CREATE TABLE embed_launchpads (
  launchpad text PRIMARY KEY CHECK (launchpad ~ '^[a-z0-9][a-z0-9-]{1,62}$'),
  partner_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL,
  disabled_at timestamptz,
  disabled_by text
);
