-- The look-alike indexes end in expires_at, latest first: the snapshot statement reads each source's live
-- look-alikes in index order (services/identity/recordLoader.ts), so a check costs the same however many records
-- share its look-alike key; one sort per request over all of them made 2,048 lapsed look-alikes of one name cut
-- the check's throughput to a quarter (docs/performance.md, `api`). The new indexes are built before the old
-- ones are dropped: the migration's transaction holds the tables' writes during the builds, and their reads
-- only for the drop at its end.
CREATE INDEX chain_reservations_lookalike_expiry ON chain_reservations (lookalike_key, expires_at DESC);
CREATE INDEX identity_locks_lookalike_expiry ON identity_locks (environment, lookalike_key, expires_at DESC);
CREATE INDEX sandbox_holds_lookalike_expiry ON sandbox_holds (partner_id, lookalike_key, expires_at DESC);
DROP INDEX chain_reservations_lookalike, identity_locks_lookalike, sandbox_holds_lookalike;
