-- Devices (docs/devices.md) and webhooks (docs/webhooks.md).

-- The target of devices' (session_id, user_id): a device can only feed its own account's sessions.
ALTER TABLE brew_sessions ADD CONSTRAINT brew_sessions_id_user_key UNIQUE (id, user_id);
-- When `fermentation.stable` was last announced for this session; null once gravity moves again.
ALTER TABLE brew_sessions ADD COLUMN stable_announced_at timestamptz;

CREATE TABLE devices (
    id              uuid PRIMARY KEY,
    user_id         uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name            text NOT NULL,
    kind            text NOT NULL
        CHECK (kind IN ('ispindel', 'gravitymon', 'tilt', 'rapt', 'stream', 'generic')),
    session_id      uuid,
    -- SHA-256 of the ingest token; the token itself is shown once and never stored.
    token_hash      bytea NOT NULL UNIQUE,
    last_seen_at    timestamptz,
    last_payload    jsonb,
    -- When the device last stored a reading: the one-per-interval limit reads it.
    last_reading_at timestamptz,
    created_at      timestamptz NOT NULL,
    updated_at      timestamptz NOT NULL,
    -- Deleting the session unassigns the device (PostgreSQL 15's column list keeps user_id).
    CONSTRAINT devices_session_fkey FOREIGN KEY (session_id, user_id)
        REFERENCES brew_sessions (id, user_id) ON DELETE SET NULL (session_id)
);
CREATE INDEX devices_user_name_idx ON devices (user_id, lower(name), id);
CREATE INDEX devices_session_idx ON devices (session_id) WHERE session_id IS NOT NULL;

-- Readings a device posted name it; deleting the device keeps its readings.
ALTER TABLE fermentation_logs
    ADD COLUMN device_id uuid REFERENCES devices (id) ON DELETE SET NULL;
CREATE INDEX fermentation_logs_device_idx ON fermentation_logs (device_id) WHERE device_id IS NOT NULL;

CREATE TABLE webhook_endpoints (
    id                   uuid PRIMARY KEY,
    user_id              uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    url                  text NOT NULL,
    events               text[] NOT NULL CHECK (cardinality(events) > 0),
    active               boolean NOT NULL,
    -- The signing secret (`whsec_…`). Kept in the clear: signing needs it (docs/security.md).
    secret               text NOT NULL,
    consecutive_failures integer NOT NULL DEFAULT 0,
    created_at           timestamptz NOT NULL,
    updated_at           timestamptz NOT NULL
);
CREATE INDEX webhook_endpoints_user_idx ON webhook_endpoints (user_id, created_at, id);

-- The outbox: written in the transaction of the change that causes the event.
CREATE TABLE webhook_events (
    id         uuid PRIMARY KEY,
    user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    type       text NOT NULL,
    -- The exact body sent: {"type","timestamp","data"}.
    body       text NOT NULL,
    created_at timestamptz NOT NULL
);
-- Pruning by age, and deleting an account's events with it.
CREATE INDEX webhook_events_created_idx ON webhook_events (created_at);
CREATE INDEX webhook_events_user_idx ON webhook_events (user_id);

-- One row per event and endpoint subscribed to it when the event happened.
CREATE TABLE webhook_deliveries (
    id              uuid PRIMARY KEY,
    event_id        uuid NOT NULL REFERENCES webhook_events (id) ON DELETE CASCADE,
    endpoint_id     uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    state           text NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
    attempts        integer NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL,
    -- A worker that claimed the delivery holds it until then; after that another may retry it.
    leased_until    timestamptz,
    created_at      timestamptz NOT NULL,
    UNIQUE (event_id, endpoint_id)
);
-- What the workers poll: due pending deliveries.
-- Deleting an endpoint deletes its deliveries.
CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (endpoint_id);
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE state = 'pending';

-- The deliveries log: one row per attempt.
CREATE TABLE webhook_attempts (
    id              uuid PRIMARY KEY,
    delivery_id     uuid NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
    endpoint_id     uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    attempt         integer NOT NULL,
    outcome         text NOT NULL CHECK (outcome IN ('delivered', 'retrying', 'failed')),
    response_status integer,
    duration_ms     integer NOT NULL,
    error           text,
    attempted_at    timestamptz NOT NULL
);
CREATE INDEX webhook_attempts_endpoint_idx ON webhook_attempts (endpoint_id, attempted_at DESC, id DESC);
CREATE INDEX webhook_attempts_delivery_idx ON webhook_attempts (delivery_id);
