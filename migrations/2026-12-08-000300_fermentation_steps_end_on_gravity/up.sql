-- Fermentation steps end on gravity with a time fallback: `days` is a step's most time, its
-- gravity or attenuation condition ends it earlier, but not before `min_days`.
--
-- Nullable columns with no default, and one boolean with a constant default, are catalogue
-- changes only: no row is rewritten.
ALTER TABLE fermentation_steps ADD COLUMN min_days double precision;

-- On a session's schedule, the row of the step after carries the step's end:
-- `min_days_after_previous` and `due_at_gravity_from` (when the condition starts to count),
-- `condition_met_early` (a reading met it before it counted: the clock looks again then),
-- `due_by` (which condition made the row due, so which ended the step before) and
-- `due_gravity` (the gravity that did).
ALTER TABLE session_fermentation_steps
    ADD COLUMN min_days_after_previous double precision,
    ADD COLUMN due_at_gravity_from timestamptz,
    ADD COLUMN condition_met_early boolean NOT NULL DEFAULT false,
    ADD COLUMN due_by text,
    ADD COLUMN due_gravity double precision;

-- Steps that became due before this migration keep `due_by` null: the application infers it
-- where the old rule leaves no doubt (a time, or one condition), so that no row is rewritten
-- here (an UPDATE of every due step took 12 s on 400,000 of them).

-- The periodic check also reads the steps whose condition was met early, once it counts.
CREATE INDEX session_fermentation_steps_met_early_idx
    ON session_fermentation_steps (due_at_gravity_from)
    WHERE became_due_at IS NULL AND condition_met_early;
