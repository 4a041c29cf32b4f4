-- Idempotency keys: a write sent with `Idempotency-Key` reserves the key here (one statement,
-- committed before the write runs) and stores its answer after, so a retry with the same key is
-- answered with the first answer instead of being applied again. Kept 24 h, then pruned.
CREATE TABLE idempotency_keys (
    user_id      uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    key          text NOT NULL,
    -- SHA-256 of the request's method, target and body: a different request with the key is refused.
    fingerprint  bytea NOT NULL,
    -- The reservation's holder: only it may store the answer or release the key.
    token        uuid NOT NULL,
    reserved_at  timestamptz NOT NULL,
    -- The answer; status is null while the request runs. body is null when it was too large to keep.
    status       smallint,
    content_type text,
    location     text,
    body         bytea,
    PRIMARY KEY (user_id, key)
);
-- Pruning deletes by age across accounts.
CREATE INDEX idempotency_keys_reserved_at_idx ON idempotency_keys (reserved_at);
