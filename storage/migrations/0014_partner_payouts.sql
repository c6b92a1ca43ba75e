-- Partner revenue and payouts: wallet ownership challenges, verified payout wallets and the daily
-- payout plans built from the accrued ledger. Every row belongs to one partner in one environment.

-- A single-use challenge a wallet signs to prove it is the partner's. The nonce is not a secret (it is in the
-- message the wallet signs); what matters is that it is used at most once, before it expires: the proof
-- consumes it with one guarded UPDATE. `purpose` says what the proof is for (other contexts add theirs).
CREATE TABLE wallet_proof_challenges (
  challenge_id text PRIMARY KEY CHECK (challenge_id ~ '^wpc_[0-9a-f]{32}$'),
  environment text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  partner_id text NOT NULL,
  purpose text NOT NULL CHECK (purpose IN ('payout_wallet')),
  chain text NOT NULL,
  family text NOT NULL CHECK (family IN ('evm', 'solana')),
  -- EVM: lowercase 0x address; Solana: base58, exact (core/address).
  address text NOT NULL,
  nonce text NOT NULL UNIQUE CHECK (nonce ~ '^[0-9A-Za-z]{16,64}$'),
  domain text NOT NULL,
  -- The exact text the wallet must sign.
  message text NOT NULL,
  issued_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  consumed_at timestamptz,
  CHECK (expires_at > issued_at)
);
CREATE INDEX wallet_proof_challenges_partner ON wallet_proof_challenges (environment, partner_id, issued_at);

-- Payout wallets: at most one verified wallet per partner, environment and chain family (a family's revenue is
-- routed to it: partners.payout_routing); rotation archives it. `chain` is where the proof was checked.
CREATE TABLE payout_wallets (
  wallet_id text PRIMARY KEY CHECK (wallet_id ~ '^pw_[0-9a-f]{32}$'),
  environment text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  partner_id text NOT NULL,
  chain text NOT NULL,
  family text NOT NULL CHECK (family IN ('evm', 'solana')),
  address text NOT NULL,
  -- How ownership was proven: an EVM key (ECDSA), an ERC-1271 contract account, or a Solana key (Ed25519).
  proof text NOT NULL CHECK (proof IN ('eoa', 'erc1271', 'ed25519')),
  challenge_id text NOT NULL UNIQUE REFERENCES wallet_proof_challenges (challenge_id),
  status text NOT NULL CHECK (status IN ('verified', 'archived')),
  verified_at timestamptz NOT NULL,
  archived_at timestamptz,
  CHECK ((status = 'archived') = (archived_at IS NOT NULL))
);
CREATE UNIQUE INDEX payout_wallets_current ON payout_wallets (environment, partner_id, family) WHERE status = 'verified';
CREATE INDEX payout_wallets_partner ON payout_wallets (environment, partner_id, verified_at);

-- Daily payout plans: one per partner, environment and UTC day, built from the accrued entries not yet planned
-- (each accrued entry lands in exactly one plan). Payouts are gated off: plans are read-only and stay 'planned'
-- until an operator process queues and pays them.
CREATE TABLE payout_plans (
  plan_id text PRIMARY KEY CHECK (plan_id ~ '^pp_[0-9a-f]{32}$'),
  environment text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  partner_id text NOT NULL,
  plan_date date NOT NULL,
  status text NOT NULL DEFAULT 'planned' CHECK (status IN ('planned', 'queued', 'paid')),
  created_at timestamptz NOT NULL,
  queued_at timestamptz,
  paid_at timestamptz,
  UNIQUE (environment, partner_id, plan_date)
);

-- A plan's amount per chain and asset, and the verified wallet it is routed to when the plan was built.
CREATE TABLE payout_plan_lines (
  plan_id text NOT NULL REFERENCES payout_plans (plan_id),
  chain text NOT NULL,
  unit text NOT NULL CHECK (unit IN ('wei', 'lamports')),
  entry_count integer NOT NULL CHECK (entry_count > 0),
  partner_amount numeric NOT NULL,
  partner_usd_micros bigint NOT NULL,
  wallet_address text,
  PRIMARY KEY (plan_id, chain, unit)
);

ALTER TABLE partner_ledger_entries ADD COLUMN payout_plan_id text REFERENCES payout_plans (plan_id);
CREATE INDEX partner_ledger_unplanned ON partner_ledger_entries (accrued_at)
  WHERE status = 'accrued' AND payout_plan_id IS NULL;
