-- Webhook deliveries claimed fairly between accounts, and the test ping's limit.

-- When the endpoint was last sent a test ping: one per endpoint per 10 s, checked and set in one
-- conditional UPDATE on the database's clock, so it holds across instances.
ALTER TABLE webhook_endpoints ADD COLUMN last_test_at timestamptz;

-- The claim walks the endpoints that have pending deliveries (a skip scan of this index) and
-- takes the oldest due ones of each; it replaces the one queue in due order.
CREATE INDEX webhook_deliveries_pending_idx
    ON webhook_deliveries (endpoint_id, next_attempt_at) WHERE state = 'pending';
DROP INDEX webhook_deliveries_due_idx;

-- The attempts in flight (leased), counted per account at every claim: only a few rows.
CREATE INDEX webhook_deliveries_leased_idx
    ON webhook_deliveries (endpoint_id) WHERE state = 'pending' AND leased_until IS NOT NULL;
