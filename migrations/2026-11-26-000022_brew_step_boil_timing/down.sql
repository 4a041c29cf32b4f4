ALTER TABLE brew_steps DROP COLUMN boil_addition_at, DROP COLUMN boil;
