-- The fermentation autopilot's alert rules and the alerts they raise (docs/alerts.md).

CREATE TABLE alert_rules (
    id         uuid PRIMARY KEY,
    user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind       text NOT NULL
        CHECK (kind IN ('gravity_below', 'gravity_above', 'temperature_outside', 'stalled',
                        'device_silent')),
    -- Null: every session of the account while it is fermenting.
    session_id uuid,
    enabled    boolean NOT NULL,
    gravity    double precision,
    min_c      double precision,
    max_c      double precision,
    points     double precision,
    hours      double precision,
    minutes    integer,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    -- A rule watches only its own account's session, and goes with it.
    CONSTRAINT alert_rules_session_fkey FOREIGN KEY (session_id, user_id)
        REFERENCES brew_sessions (id, user_id) ON DELETE CASCADE
);
CREATE INDEX alert_rules_user_idx ON alert_rules (user_id, created_at, id);
CREATE INDEX alert_rules_session_idx ON alert_rules (session_id) WHERE session_id IS NOT NULL;

CREATE TABLE alerts (
    id              uuid PRIMARY KEY,
    user_id         uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    -- Null once the rule is deleted: the alert stays in the history.
    rule_id         uuid REFERENCES alert_rules (id) ON DELETE SET NULL,
    kind            text NOT NULL,
    session_id      uuid NOT NULL,
    -- The silent device; no foreign key, so the history keeps it after the device is deleted.
    device_id       uuid,
    raised_at       timestamptz NOT NULL,
    cleared_at      timestamptz,
    acknowledged_at timestamptz,
    value           double precision NOT NULL,
    message         text NOT NULL,
    CONSTRAINT alerts_session_fkey FOREIGN KEY (session_id, user_id)
        REFERENCES brew_sessions (id, user_id) ON DELETE CASCADE
);
-- Never two active alerts of one watch (a rule on a session, and a device for `device_silent`):
-- a raise is an insert that does nothing when one is active, so concurrent judges raise once.
CREATE UNIQUE INDEX alerts_one_active_idx ON alerts
    (rule_id, session_id, COALESCE(device_id, '00000000-0000-0000-0000-000000000000'::uuid))
    WHERE cleared_at IS NULL;
-- The list, newest first; and the active ones (the header's count, the clock's pass).
CREATE INDEX alerts_user_raised_idx ON alerts (user_id, raised_at DESC, id DESC);
CREATE INDEX alerts_active_idx ON alerts (user_id, raised_at DESC, id DESC) WHERE cleared_at IS NULL;
CREATE INDEX alerts_session_idx ON alerts (session_id, raised_at DESC);
