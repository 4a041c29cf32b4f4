-- Brew sessions, their brew-day checklist and fermentation readings. A session keeps a snapshot of
-- its recipe; deleting the recipe only clears recipe_id.

CREATE TABLE brew_sessions (
    id                         uuid PRIMARY KEY,
    user_id                    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    recipe_id                  uuid REFERENCES recipes (id) ON DELETE SET NULL,
    name                       text NOT NULL,
    brew_date                  date NOT NULL,
    status                     text NOT NULL CHECK (status IN
        ('planned', 'brewing', 'fermenting', 'conditioning', 'completed', 'abandoned')),
    measured_og                double precision,
    measured_fg                double precision,
    measured_batch_size_liters double precision,
    notes                      text,
    recipe_snapshot            jsonb NOT NULL,
    brewing_started_at         timestamptz,
    fermenting_started_at      timestamptz,
    conditioning_started_at    timestamptz,
    completed_at               timestamptz,
    abandoned_at               timestamptz,
    created_at                 timestamptz NOT NULL,
    updated_at                 timestamptz NOT NULL
);
-- The list order (-brew_date, -created_at) within one account.
CREATE INDEX brew_sessions_user_date_idx ON brew_sessions (user_id, brew_date DESC, created_at DESC, id DESC);
CREATE INDEX brew_sessions_recipe_idx ON brew_sessions (recipe_id);

CREATE TABLE brew_steps (
    id               uuid PRIMARY KEY,
    user_id          uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    session_id       uuid NOT NULL REFERENCES brew_sessions (id) ON DELETE CASCADE,
    title            text NOT NULL,
    description      text,
    sort_order       integer NOT NULL,
    duration_minutes double precision,
    completed        boolean NOT NULL DEFAULT false,
    completed_at     timestamptz,
    created_at       timestamptz NOT NULL
);
CREATE INDEX brew_steps_session_idx ON brew_steps (session_id, sort_order, created_at, id);

CREATE TABLE fermentation_logs (
    id            uuid PRIMARY KEY,
    user_id       uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    session_id    uuid NOT NULL REFERENCES brew_sessions (id) ON DELETE CASCADE,
    logged_at     timestamptz NOT NULL,
    gravity       double precision,
    gravity_unit  text NOT NULL CHECK (gravity_unit IN ('sg', 'plato', 'brix')),
    temperature_c double precision,
    ph            double precision,
    notes         text,
    created_at    timestamptz NOT NULL
);
-- A time range of one session's readings is an index range scan, however many readings it has.
CREATE INDEX fermentation_logs_session_time_idx ON fermentation_logs (session_id, logged_at, id);
