ALTER TABLE fermentables DROP COLUMN added;
