-- The read model of on-chain reservations that the API decides from, one shape for every chain family.
-- Indexers write it (or publish a view of the same shape); the API only reads it.
CREATE TABLE chain_reservations (
  chain text NOT NULL,
  name_hash text NOT NULL CHECK (name_hash ~ '^0x[0-9a-f]{64}$'),
  ticker_hash text NOT NULL CHECK (ticker_hash ~ '^0x[0-9a-f]{64}$'),
  normalized_name text NOT NULL,
  normalized_ticker text NOT NULL,
  -- EVM: lowercase 0x address; Solana: base58 public key, exact.
  launcher text NOT NULL,
  reserved_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  duration_seconds integer NOT NULL,
  -- In the chain's smallest unit (wei, lamports).
  fee_paid numeric NOT NULL,
  partner_ref text,
  -- The transaction that produced the current state (reserve or renew) and its block or slot.
  tx_hash text NOT NULL,
  block_number bigint NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (chain, name_hash, ticker_hash)
);
CREATE INDEX chain_reservations_launcher ON chain_reservations (launcher);
CREATE INDEX chain_reservations_name ON chain_reservations (normalized_name text_pattern_ops);

-- How far each chain's indexer has read, and when: the API's freshness rule reads this.
CREATE TABLE chain_checkpoints (
  chain text PRIMARY KEY,
  family text NOT NULL CHECK (family IN ('evm', 'solana')),
  head_number bigint,
  head_seen_at timestamptz,
  indexed_number bigint,
  indexed_block_time timestamptz,
  indexed_at timestamptz
);
