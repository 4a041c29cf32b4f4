-- Recipes naming a target by beer stop naming it (ON DELETE SET NULL).
DELETE FROM water_profiles WHERE user_id IS NULL AND kind = 'target';
ALTER TABLE water_profiles DROP COLUMN kind;
