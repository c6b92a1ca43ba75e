-- A partner's introductory period length, which operators change (the spec makes it adjustable). The spec's
-- 30 days become the default for existing and new partners; an operator sets 0 (the partner's split applies at
-- once) to 365 per partner (partners:set-introductory-period). It applies to each environment's integration
-- start, like partner_bps. Prepares snapshot the period's end, so a change never rewrites a snapshot or a
-- ledger row. partner_bps is bounded to 0-10000 by its CHECK since migration 0013.
ALTER TABLE partners
  ADD COLUMN introductory_period_days integer NOT NULL DEFAULT 30
    CONSTRAINT partners_introductory_period_days_check CHECK (introductory_period_days BETWEEN 0 AND 365);
