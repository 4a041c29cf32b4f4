-- When a fermentable goes in: mash, boil, late_boil or fermenter. NULL is "the default of its
-- type" (mash for grain and adjunct, boil for every other), which the domain applies on read:
-- every existing row keeps exactly the numbers it had, and nothing is rewritten or backfilled.
-- New rows are written with their value.
--
-- A nullable column with no default is a catalogue change only. The CHECK is added NOT VALID so
-- that PostgreSQL does not scan the table to prove it for rows that are all NULL; it holds for
-- every row written from now on (and NULL passes it).
ALTER TABLE fermentables ADD COLUMN added text;
ALTER TABLE fermentables
    ADD CONSTRAINT fermentables_added_check
        CHECK (added IN ('mash', 'boil', 'late_boil', 'fermenter')) NOT VALID;
