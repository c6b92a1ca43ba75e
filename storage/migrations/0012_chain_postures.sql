-- The data-path posture of each chain as last announced by a `chain.degraded` event, so that several workers
-- announce each transition once: a transition is an UPDATE guarded on the previous state, in the transaction
-- that appends its events.
CREATE TABLE chain_postures (
  chain text PRIMARY KEY,
  state text NOT NULL CHECK (state IN ('healthy', 'degraded')),
  -- When the announced state began.
  since timestamptz NOT NULL,
  -- While degraded: the start of the current unbroken run of healthy samples (a recovery is announced only
  -- once it has lasted the dwell time); NULL otherwise.
  healthy_since timestamptz,
  sampled_at timestamptz NOT NULL
);
