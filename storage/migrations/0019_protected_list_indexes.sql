-- The protected-identities list at any number of identities: each source is read newest first
-- through an index on its instant, so a page stops after its rows instead of sorting every record, and the
-- text search (`q`: the key, or the look-alike key, contains the text) uses trigram indexes (pg_trgm's GIN
-- operator class answers LIKE '%text%') instead of a scan. The list shows production records only.
-- Two schemas migrating at once (test runs) must not both create the extension: serialize on a lock.
SELECT pg_advisory_xact_lock(2026112519);
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;

CREATE INDEX chain_reservations_since ON chain_reservations (reserved_at);
CREATE INDEX identity_locks_since ON identity_locks (applied_at) WHERE environment = 'production';
CREATE INDEX identity_launches_since ON identity_launches (reported_at) WHERE environment = 'production';
CREATE INDEX guardian_actions_blocks_since ON guardian_actions (at)
  WHERE environment = 'production' AND kind = 'block';

CREATE INDEX chain_reservations_key_trgm ON chain_reservations
  USING gin ((normalized_name || '::' || normalized_ticker) public.gin_trgm_ops);
CREATE INDEX chain_reservations_lookalike_trgm ON chain_reservations USING gin (lookalike_key public.gin_trgm_ops);
CREATE INDEX identity_locks_key_trgm ON identity_locks USING gin (identity_key public.gin_trgm_ops)
  WHERE environment = 'production';
CREATE INDEX identity_locks_lookalike_trgm ON identity_locks USING gin (lookalike_key public.gin_trgm_ops)
  WHERE environment = 'production';
CREATE INDEX identity_launches_key_trgm ON identity_launches USING gin (identity_key public.gin_trgm_ops)
  WHERE environment = 'production';
CREATE INDEX identity_launches_lookalike_trgm ON identity_launches
  USING gin (lookalike_fold(identity_key) public.gin_trgm_ops) WHERE environment = 'production';
