DROP TABLE recipe_shares;
ALTER TABLE brew_sessions DROP COLUMN recipe_version;
DROP INDEX recipes_parent;
ALTER TABLE recipes DROP COLUMN source_url;
ALTER TABLE recipes DROP COLUMN parent_version;
ALTER TABLE recipes DROP COLUMN parent_recipe_id;
DROP TABLE recipe_versions;
