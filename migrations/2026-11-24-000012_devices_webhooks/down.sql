DROP TABLE webhook_attempts;
DROP TABLE webhook_deliveries;
DROP TABLE webhook_events;
DROP TABLE webhook_endpoints;
ALTER TABLE fermentation_logs DROP COLUMN device_id;
DROP TABLE devices;
ALTER TABLE brew_sessions DROP COLUMN stable_announced_at;
ALTER TABLE brew_sessions DROP CONSTRAINT brew_sessions_id_user_key;
