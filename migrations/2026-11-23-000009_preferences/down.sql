ALTER TABLE users
    DROP COLUMN pref_amounts,
    DROP COLUMN pref_gravity,
    DROP COLUMN pref_color,
    DROP COLUMN pref_temperature;
