-- Webhook claim-ahead (docs/webhooks.md, "Delivery"): a worker holds more leases on an endpoint than it sends
-- at once, so a lease names the worker holding it, and a claim reads, per endpoint, its due rows in order and
-- its live leases through their own indexes instead of ranking every pending row. The pending rows' index on
-- next_attempt_at alone served only the old ranking; every write of a delivery paid for it, so it goes.
ALTER TABLE webhook_deliveries ADD COLUMN lease_holder text;
CREATE INDEX webhook_deliveries_endpoint_due ON webhook_deliveries (endpoint_id, next_attempt_at, seq)
  WHERE status = 'pending';
CREATE INDEX webhook_deliveries_leased ON webhook_deliveries (endpoint_id) WHERE leased_until IS NOT NULL;
DROP INDEX webhook_deliveries_due;
