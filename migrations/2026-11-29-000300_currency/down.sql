ALTER TABLE users DROP COLUMN pref_currency;
