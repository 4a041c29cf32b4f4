-- The list sorts by (updated_at, id) both ways round: ascending for `sort=updated_at`, and
-- descending in both columns for the default `-updated_at`. The first index,
-- (user_id, updated_at DESC, id), matched neither, so every page of the default list needed an
-- incremental sort (docs/benchmarks-log.md, "Fixed: the default recipe order needed a sort").
-- One ascending index serves both orders, the descending one by scanning it backwards, as
-- recipes_user_created_idx already does for created_at.
DROP INDEX recipes_user_updated_idx;
CREATE INDEX recipes_user_updated_idx ON recipes (user_id, updated_at, id);
