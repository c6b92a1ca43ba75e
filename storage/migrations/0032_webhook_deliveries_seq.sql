-- A delivery's seq comes from its sequence, so it is unique without an index of its own; nothing reads by seq
-- alone (the partner's list reads webhook_deliveries_owner, which ends in seq). Every version of a delivery row
-- (its fan-out, its claim, its outcome: none of them can be a heap-only update) paid for an entry in that index.
ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_seq_key;
