DROP INDEX session_fermentation_steps_met_early_idx;
ALTER TABLE session_fermentation_steps
    DROP COLUMN min_days_after_previous,
    DROP COLUMN due_at_gravity_from,
    DROP COLUMN condition_met_early,
    DROP COLUMN due_by,
    DROP COLUMN due_gravity;
ALTER TABLE fermentation_steps DROP COLUMN min_days;
