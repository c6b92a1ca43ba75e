-- The protected-identities list filtered on a chain reads that chain's records newest first. With the instant
-- indexes of 0019 alone, a chain with few records (or none) made each branch walk every chain's instants
-- before its page was full (~70 ms at a million records).
CREATE INDEX chain_reservations_chain_since ON chain_reservations (chain, reserved_at);
CREATE INDEX identity_locks_chain_since ON identity_locks (chain, applied_at) WHERE environment = 'production';
CREATE INDEX identity_launches_chain_since ON identity_launches (chain, reported_at)
  WHERE environment = 'production';
