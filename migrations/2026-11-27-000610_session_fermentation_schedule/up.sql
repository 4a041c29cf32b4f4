-- A brew session's fermentation schedule, planned from its recipe snapshot when it enters
-- `fermenting`: the rests and the dry hops, each due at a time (`due_at`), when a reading meets
-- a gravity condition, or a number of days after the previous rest became due.
CREATE TABLE session_fermentation_steps (
    id                          uuid PRIMARY KEY,
    user_id                     uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    session_id                  uuid NOT NULL REFERENCES brew_sessions (id) ON DELETE CASCADE,
    kind                        text NOT NULL,
    name                        text NOT NULL,
    temperature_c               double precision,
    amount_grams                double precision,
    due_at                      timestamptz,
    due_at_gravity              double precision,
    due_at_attenuation_percent  double precision,
    days_after_previous         double precision,
    became_due_at               timestamptz,
    sort_order                  integer NOT NULL,
    created_at                  timestamptz NOT NULL
);
CREATE INDEX session_fermentation_steps_session_idx
    ON session_fermentation_steps (session_id, sort_order, id);
-- The periodic check reads only the steps still waiting for their time.
CREATE INDEX session_fermentation_steps_waiting_idx
    ON session_fermentation_steps (due_at) WHERE became_due_at IS NULL AND due_at IS NOT NULL;
