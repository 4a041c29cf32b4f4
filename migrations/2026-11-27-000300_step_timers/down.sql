ALTER TABLE brew_steps
    DROP COLUMN timer_remaining_seconds,
    DROP COLUMN timer_ends_at,
    DROP COLUMN timer_started_at,
    DROP COLUMN timer_state;
