-- The on-chain launchpads (EVM factory, Solana program) whose signed launch decisions a launchpad id may ask for:
-- a decision is signed for one launchpad contract, so the contract must belong to the caller's launchpad id, as
-- the id belongs to its partner (services/partners/launchpadContracts.ts). `address` in its on-chain key form.
CREATE TABLE launchpad_contracts (
  environment text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  chain text NOT NULL,
  address text NOT NULL,
  launchpad text NOT NULL,
  source text NOT NULL CHECK (source IN ('operator', 'sandbox_claim')),
  bound_by text NOT NULL,
  bound_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (environment, chain, address)
);
