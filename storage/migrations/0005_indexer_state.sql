-- Indexer state beside the read model (0002). The EVM mirror rows are written into chain_reservations by a
-- trigger on Ponder's own table (indexer/evm/src/mirrorTrigger.ts); the Solana indexer writes them directly.

-- The chain history each chain's mirror rows were built from (EVM: hash of the registry's deployment block;
-- Solana: program id + genesis hash). When it changes, e.g. a local node restarted from genesis, the
-- chain's mirror rows and checkpoint are dropped instead of being shown as if they still held.
CREATE TABLE chain_histories (
  chain text PRIMARY KEY,
  history_id text NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT now()
);

-- Solana: where the indexer stopped. `signature` is the newest transaction of the program applied at the
-- configured commitment; the next pass asks the RPC for signatures `until` it.
CREATE TABLE solana_cursors (
  chain text PRIMARY KEY,
  signature text NOT NULL,
  slot bigint NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Solana: every program transaction applied, so a transaction is never applied twice.
CREATE TABLE solana_applied_transactions (
  chain text NOT NULL,
  signature text NOT NULL,
  slot bigint NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (chain, signature)
);
