-- A new reservation is two transactions (docs/commit-reveal.md): `transaction` holds the first to sign (the
-- commitment; a renewal's only transaction), `reveal` the paying reveal with its commitment and ages. The commit's
-- hash, once a wallet reports it, is kept apart from `transaction_hash`, which stays the paying transaction's.
ALTER TABLE reservations
  ADD COLUMN reveal jsonb,
  ADD COLUMN commit_transaction_hash text,
  ADD COLUMN commit_submitted_at timestamptz;
