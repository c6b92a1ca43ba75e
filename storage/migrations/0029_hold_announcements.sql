-- Protection announcements of on-chain holds (they reach every partner of the environment). One row per hold
-- state the service announced (identity.protected for a new hold, identity.extended for a later expiry of the
-- same hold), keyed by the mirror's pair, the hold's start and its end. The worker's pass over the mirror and the
-- confirmation of a prepared reservation both insert here ON CONFLICT DO NOTHING in the transaction that appends
-- the event, and only the inserter appends it: one announcement per hold state across workers and restarts
-- (services/identity/holdAnnouncement.ts).
CREATE TABLE hold_announcements (
  chain text NOT NULL,
  name_hash text NOT NULL,
  ticker_hash text NOT NULL,
  reserved_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  announced_at timestamptz NOT NULL,
  -- 'watermark': a hold already in the mirror when this migration ran; never announced (below).
  type text NOT NULL CHECK (type IN ('identity.protected', 'identity.extended', 'watermark')),
  PRIMARY KEY (chain, name_hash, ticker_hash, reserved_at, expires_at)
);

-- First deploy: holds already in the mirror are the watermark, not news. They were public on the lookup and the
-- list already, and a prepared one's partner was told at its confirmation; announcing every live hold at once
-- would flood every endpoint and repeat those. A later renewal of such a hold is announced (identity.extended).
INSERT INTO hold_announcements (chain, name_hash, ticker_hash, reserved_at, expires_at, announced_at, type)
SELECT chain, name_hash, ticker_hash, reserved_at, expires_at, now(), 'watermark' FROM chain_reservations;
