ALTER TABLE inventory_items DROP COLUMN catalog_id;
ALTER TABLE miscs DROP COLUMN catalog_id;
ALTER TABLE yeasts DROP COLUMN catalog_id;
ALTER TABLE hops DROP COLUMN catalog_id;
ALTER TABLE fermentables DROP COLUMN catalog_id;
DROP TABLE catalog_seed;
DROP TABLE catalog_items;
-- pg_trgm stays: other objects of the database may have come to use it.
