-- A webhook delivery and its attempts carry their account, like every other row of an account's:
-- until now they reached it only through their endpoint. So the account's statements on them
-- filter by it (a delivery's attempts are listed by endpoint and account), and the outbox can
-- be spread over several database nodes by account with the rest of the account's rows
-- (docs/decisions/0084-past-one-primary.md). Every row's account is its endpoint's.
ALTER TABLE webhook_deliveries ADD COLUMN user_id uuid REFERENCES users (id) ON DELETE CASCADE;
UPDATE webhook_deliveries d SET user_id = e.user_id
FROM webhook_endpoints e WHERE e.id = d.endpoint_id;
ALTER TABLE webhook_deliveries ALTER COLUMN user_id SET NOT NULL;
CREATE INDEX webhook_deliveries_user_idx ON webhook_deliveries (user_id);

ALTER TABLE webhook_attempts ADD COLUMN user_id uuid REFERENCES users (id) ON DELETE CASCADE;
UPDATE webhook_attempts a SET user_id = e.user_id
FROM webhook_endpoints e WHERE e.id = a.endpoint_id;
ALTER TABLE webhook_attempts ALTER COLUMN user_id SET NOT NULL;
CREATE INDEX webhook_attempts_user_idx ON webhook_attempts (user_id);
