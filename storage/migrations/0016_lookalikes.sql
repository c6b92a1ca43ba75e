-- Look-alike keys (docs/lookalikes.md): each stored identity's key with the ASCII look-alike table applied
-- (core/lookalike/asciiLookalikes.ts; a test holds this function equal to it), so the identity check finds
-- the protected and reserved identities a name looks like with one indexed read. Generated columns keep
-- every writer covered without a change to it: the indexers' mirror writes (the Ponder trigger, the Solana
-- indexer), lock reports and sandbox holds.
CREATE FUNCTION lookalike_fold(folded text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT replace(replace(replace(replace(folded, 'RN', 'M'), 'VV', 'W'), 'CL', 'D'), 'L', 'I') $$;

ALTER TABLE chain_reservations ADD COLUMN lookalike_key text
  GENERATED ALWAYS AS (lookalike_fold(normalized_name) || '::' || lookalike_fold(normalized_ticker)) STORED;
CREATE INDEX chain_reservations_lookalike ON chain_reservations (lookalike_key);

ALTER TABLE identity_locks ADD COLUMN lookalike_key text
  GENERATED ALWAYS AS (lookalike_fold(identity_key)) STORED;
CREATE INDEX identity_locks_lookalike ON identity_locks (environment, lookalike_key);

ALTER TABLE sandbox_holds ADD COLUMN lookalike_key text
  GENERATED ALWAYS AS (lookalike_fold(identity_key)) STORED;
CREATE INDEX sandbox_holds_lookalike ON sandbox_holds (lookalike_key);
