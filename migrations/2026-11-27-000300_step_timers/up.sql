-- A checklist step's timer lives on the server, so every device shows the same countdown and a
-- reload never restarts it. `done` is not stored by an action: a running timer whose ends_at has
-- passed reads as done. A paused timer keeps the seconds it had left.
ALTER TABLE brew_steps
    ADD COLUMN timer_state text NOT NULL DEFAULT 'idle'
        CHECK (timer_state IN ('idle', 'running', 'paused', 'done')),
    ADD COLUMN timer_started_at timestamptz,
    ADD COLUMN timer_ends_at timestamptz,
    ADD COLUMN timer_remaining_seconds double precision
        CHECK (timer_remaining_seconds IS NULL OR timer_remaining_seconds >= 0);
