-- Disputes: a creator's claim about an identity, proven by a signature of the claimant's wallet and
-- decided by an operator. Every transition is an audit_log row on the identity's subject, which is also how
-- the status timeline shows it; this table holds the dispute's current state.

-- Wallet proofs now serve two purposes. A payout wallet's challenge belongs to a partner; a dispute's to no
-- partner (the claimant is a wallet, proven by the signature alone).
ALTER TABLE wallet_proof_challenges ALTER COLUMN partner_id DROP NOT NULL;
ALTER TABLE wallet_proof_challenges DROP CONSTRAINT wallet_proof_challenges_purpose_check;
ALTER TABLE wallet_proof_challenges
  ADD CONSTRAINT wallet_proof_challenges_purpose_check CHECK (purpose IN ('payout_wallet', 'dispute'));
ALTER TABLE wallet_proof_challenges
  ADD CONSTRAINT wallet_proof_challenges_owner CHECK ((purpose = 'dispute') = (partner_id IS NULL));

CREATE TABLE disputes (
  dispute_id text PRIMARY KEY CHECK (dispute_id ~ '^dsp_[0-9a-f]{32}$'),
  environment text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  identity_key text NOT NULL,
  -- The chain the dispute is about; NULL: the identity on every chain.
  chain text,
  reason text NOT NULL CHECK (reason IN ('copycat', 'mistaken_block', 'other')),
  statement text NOT NULL CHECK (char_length(statement) BETWEEN 1 AND 2000),
  -- https links, at most 5 (checked by the service too).
  evidence jsonb NOT NULL DEFAULT '[]'::jsonb CHECK (jsonb_typeof(evidence) = 'array' AND jsonb_array_length(evidence) <= 5),
  -- How operators can reach the claimant. Never shown by the public API.
  contact text CHECK (char_length(contact) <= 254),
  claimant_chain text NOT NULL,
  claimant_family text NOT NULL CHECK (claimant_family IN ('evm', 'solana')),
  -- EVM: lowercase 0x address; Solana: base58, exact (core/address).
  claimant_address text NOT NULL,
  proof text NOT NULL CHECK (proof IN ('eoa', 'erc1271', 'ed25519')),
  challenge_id text NOT NULL UNIQUE REFERENCES wallet_proof_challenges (challenge_id),
  status text NOT NULL CHECK (status IN ('open', 'under_review', 'upheld', 'rejected', 'withdrawn')),
  -- What upholding did: cleared a guardian block, placed one, or nothing beyond the record.
  outcome text CHECK (outcome IN ('cleared', 'blocked', 'none')),
  CHECK ((status = 'upheld') = (outcome IS NOT NULL)),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
-- One undecided dispute per wallet and identity: a second filing is refused (dispute_already_open).
CREATE UNIQUE INDEX disputes_one_open ON disputes (environment, identity_key, claimant_family, claimant_address)
  WHERE status IN ('open', 'under_review');
-- The public list, newest first, filtered by identity, status or chain.
CREATE INDEX disputes_listing ON disputes (environment, created_at DESC, dispute_id DESC);
CREATE INDEX disputes_identity ON disputes (environment, identity_key, created_at DESC);
