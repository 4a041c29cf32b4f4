-- Notes on a brew session's fermentation chart: a text at an instant. They go with their
-- session (deleted with it) and, like every account's row, carry their account.
CREATE TABLE session_notes (
    id          uuid PRIMARY KEY,
    user_id     uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    session_id  uuid NOT NULL REFERENCES brew_sessions (id) ON DELETE CASCADE,
    at          timestamptz NOT NULL,
    text        text NOT NULL,
    created_at  timestamptz NOT NULL,
    updated_at  timestamptz NOT NULL
);
-- One session's notes in the order the list and the chart read them.
CREATE INDEX session_notes_session_at_idx ON session_notes (session_id, at, created_at, id);
