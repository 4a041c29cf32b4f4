ALTER TABLE hops DROP COLUMN temperature_c;
