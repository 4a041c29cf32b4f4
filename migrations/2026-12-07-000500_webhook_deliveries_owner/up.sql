-- A webhook delivery and its attempts carry their account, like every other row of an account's:
-- until now they reached it only through their endpoint. So the account's statements on them
-- filter by it (a delivery's attempts are listed by endpoint and account), and the outbox can
-- be spread over several database nodes by account with the rest of the account's rows
-- (docs/decisions/0084-past-one-primary.md). Every row's account is its endpoint's.
-- The foreign keys are added after the rows are filled, checked by one join per table rather
-- than row by row as each row is updated: 15.0 s instead of 18.7 s for 500,000 deliveries and
-- their 500,000 attempts (docs/operations.md, "Upgrades and migrations", where the rest of the
-- time, the rewrite of every row, is discussed).
ALTER TABLE webhook_deliveries ADD COLUMN user_id uuid;
UPDATE webhook_deliveries d SET user_id = e.user_id
FROM webhook_endpoints e WHERE e.id = d.endpoint_id;
ALTER TABLE webhook_deliveries ALTER COLUMN user_id SET NOT NULL,
    ADD CONSTRAINT webhook_deliveries_user_id_fkey
        FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE;
CREATE INDEX webhook_deliveries_user_idx ON webhook_deliveries (user_id);

ALTER TABLE webhook_attempts ADD COLUMN user_id uuid;
UPDATE webhook_attempts a SET user_id = e.user_id
FROM webhook_endpoints e WHERE e.id = a.endpoint_id;
ALTER TABLE webhook_attempts ALTER COLUMN user_id SET NOT NULL,
    ADD CONSTRAINT webhook_attempts_user_id_fkey
        FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE;
CREATE INDEX webhook_attempts_user_idx ON webhook_attempts (user_id);
