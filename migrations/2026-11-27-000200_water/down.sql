ALTER TABLE brew_sessions DROP COLUMN predicted_mash_ph, DROP COLUMN measured_mash_ph;
DROP TABLE water_additions;
ALTER TABLE recipes DROP COLUMN target_water_profile_id, DROP COLUMN water_profile_id;
DROP TABLE water_profiles;
