ALTER TABLE hops DROP COLUMN form;
DROP INDEX recipes_equipment_idx;
ALTER TABLE recipes
    DROP CONSTRAINT recipes_equipment_fkey,
    DROP COLUMN style_id,
    DROP COLUMN equipment_id;
DROP TABLE equipment_profiles;
