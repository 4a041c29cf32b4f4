-- The boil's step carries the timer the boil additions are due against; each addition says how
-- many minutes before the end of the boil it goes in (0 at flame-out). Both are set when the
-- checklist is generated, so the web app need not work the schedule out again from the recipe.
ALTER TABLE brew_steps
    ADD COLUMN boil boolean NOT NULL DEFAULT false,
    ADD COLUMN boil_addition_at double precision
        CHECK (boil_addition_at IS NULL OR boil_addition_at >= 0);

-- Sessions planned before this change: recognise the generated titles, which are fixed English
-- text ("Bring to a boil", "Add 28 g Cascade at 60 min", "At flame-out: add 30 g Citra").
UPDATE brew_steps SET boil = true WHERE title = 'Bring to a boil';
UPDATE brew_steps
   SET boil_addition_at = (regexp_match(title, ' at ([0-9]+(\.[0-9]+)?) min$'))[1]::double precision
 WHERE title ~ '^Add .* at [0-9]+(\.[0-9]+)? min$'
   AND title NOT LIKE '%first-wort%';
UPDATE brew_steps SET boil_addition_at = 0 WHERE title LIKE 'At flame-out: add %';
