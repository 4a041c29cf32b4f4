DROP INDEX webhook_deliveries_leased_idx;
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE state = 'pending';
DROP INDEX webhook_deliveries_pending_idx;
ALTER TABLE webhook_endpoints DROP COLUMN last_test_at;
