-- The readings retention (WORT_READINGS_RETENTION_DAYS) walks the readings a device posted
-- without a note, oldest first, in batches that each start where the last one ended. Without
-- this index every batch reads the whole table to find the next oldest ones (measured in
-- docs/decisions/0085-readings-retention.md). Its predicate is the retention's own, so hand
-- readings and annotated ones, which it always keeps, take no room in it.
CREATE INDEX fermentation_logs_thinning_idx ON fermentation_logs (logged_at, id)
    WHERE device_id IS NOT NULL AND coalesce(notes, '') = '';
