ALTER TABLE mash_steps DROP COLUMN infuse_temperature_c;
