-- MQTT and Home Assistant (docs/mqtt.md): one broker per account, and the outbox of the
-- messages waiting for it.

CREATE TABLE mqtt_integrations (
    -- One per account.
    user_id           uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    url               text NOT NULL,
    username          text,
    password          text,
    topic_prefix      text NOT NULL,
    discovery_prefix  text NOT NULL,
    enabled           boolean NOT NULL,
    -- The publisher's bookkeeping: failed attempts in a row, when the next may start, what the
    -- last failure said, when the broker last acknowledged a message.
    failures          integer NOT NULL DEFAULT 0,
    retry_at          timestamptz,
    last_error        text,
    last_error_at     timestamptz,
    last_published_at timestamptz,
    -- Until when one publisher holds the account's messages (`FOR UPDATE SKIP LOCKED` makes
    -- the claim, this keeps it after the claim's statement ends): one publisher at a time per
    -- account, so its messages reach the broker in the order they were written.
    leased_until      timestamptz,
    created_at        timestamptz NOT NULL,
    updated_at        timestamptz NOT NULL
);
-- The publishers' claim looks at the enabled integrations only.
CREATE INDEX mqtt_integrations_enabled_idx ON mqtt_integrations (user_id) WHERE enabled;

CREATE TABLE mqtt_messages (
    id           uuid PRIMARY KEY,
    user_id      uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    -- 'reading', 'alert' or 'discovery': the outbox's cap drops the oldest readings only.
    kind         text NOT NULL CHECK (kind IN ('reading', 'alert', 'discovery')),
    topic        text NOT NULL,
    payload      text NOT NULL,
    retain       boolean NOT NULL,
    created_at   timestamptz NOT NULL,
    -- Attempts to publish it so far, and until when a publisher holds it.
    attempts     integer NOT NULL DEFAULT 0,
    leased_until timestamptz,
    -- The integration's messages go with it.
    CONSTRAINT mqtt_messages_integration_fkey FOREIGN KEY (user_id)
        REFERENCES mqtt_integrations (user_id) ON DELETE CASCADE
);
-- An account's messages in the order they were written (the claim, the cap).
CREATE INDEX mqtt_messages_user_idx ON mqtt_messages (user_id, created_at, id);
