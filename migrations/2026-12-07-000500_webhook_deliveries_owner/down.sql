ALTER TABLE webhook_attempts DROP COLUMN user_id;
ALTER TABLE webhook_deliveries DROP COLUMN user_id;
