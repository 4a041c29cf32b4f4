DROP INDEX recipes_user_updated_idx;
CREATE INDEX recipes_user_updated_idx ON recipes (user_id, updated_at DESC, id);
