ALTER TABLE brew_steps DROP COLUMN quantities;
