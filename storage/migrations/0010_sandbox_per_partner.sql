-- The sandbox per partner: the seven seeded scenarios are built from the clock at every read and never
-- stored, so their old seeded rows go; every sandbox hold belongs to the partner that made it, and a
-- partner's wallet count (three active per wallet) reads its own holds by wallet.
DELETE FROM sandbox_holds WHERE source = 'scenario';
DELETE FROM identity_locks WHERE environment = 'sandbox' AND source = 'scenario';
DELETE FROM identity_launches WHERE environment = 'sandbox' AND source = 'scenario';
DELETE FROM guardian_actions WHERE environment = 'sandbox' AND source = 'scenario';
DELETE FROM sandbox_holds WHERE partner_id IS NULL;
ALTER TABLE sandbox_holds ALTER COLUMN partner_id SET NOT NULL;
CREATE INDEX sandbox_holds_wallet ON sandbox_holds (partner_id, chain, launcher);
