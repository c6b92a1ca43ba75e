-- The look-alike indexes end in expires_at, latest first: the snapshot statement reads each source's latest
-- look-alikes in index order (services/identity/recordLoader.ts), so no sort runs for each request. The sort
-- over the sources' union was most of the look-alike read's cost in the `api` bench (docs/performance.md).
DROP INDEX chain_reservations_lookalike;
CREATE INDEX chain_reservations_lookalike ON chain_reservations (lookalike_key, expires_at DESC);
DROP INDEX identity_locks_lookalike;
CREATE INDEX identity_locks_lookalike ON identity_locks (environment, lookalike_key, expires_at DESC);
DROP INDEX sandbox_holds_lookalike;
CREATE INDEX sandbox_holds_lookalike ON sandbox_holds (partner_id, lookalike_key, expires_at DESC);
