-- Water chemistry: water profiles (built-in classics with user_id NULL, and each account's own),
-- a recipe's source and target water, water additions (a recipe child kind), and a brew
-- session's measured mash pH with the prediction it is compared against.
CREATE TABLE water_profiles (
    id          uuid PRIMARY KEY,
    -- NULL: a built-in profile, read-only, seen by every account.
    user_id     uuid REFERENCES users (id) ON DELETE CASCADE,
    name        text NOT NULL,
    calcium     double precision NOT NULL CHECK (calcium >= 0),
    magnesium   double precision NOT NULL CHECK (magnesium >= 0),
    sodium      double precision NOT NULL CHECK (sodium >= 0),
    sulfate     double precision NOT NULL CHECK (sulfate >= 0),
    chloride    double precision NOT NULL CHECK (chloride >= 0),
    bicarbonate double precision NOT NULL CHECK (bicarbonate >= 0),
    ph          double precision CHECK (ph BETWEEN 0 AND 14),
    -- Where the figures come from (built-ins); free notes on the account's own.
    source      text,
    created_at  timestamptz NOT NULL,
    updated_at  timestamptz NOT NULL
);
CREATE INDEX water_profiles_user_name_idx ON water_profiles (user_id, lower(name), id);

-- The classic brewing-city profiles (mg/L) as compiled by D. Draper, "Brewing Waters of the
-- World" (Home Brew Digest, 1995), each row from the primary source named in `source`.
INSERT INTO water_profiles
    (id, user_id, name, calcium, magnesium, sodium, sulfate, chloride, bicarbonate, ph, source,
     created_at, updated_at)
VALUES
    ('00000000-0000-7000-8000-00000000a001', NULL, 'Burton-on-Trent', 268, 62, 54, 638, 36, 275, NULL,
     'Hough, Briggs, Stevens and Young, "Malting and Brewing Science" vol. 1, p. 206; compiled in Draper, "Brewing Waters of the World" (1995)',
     '2026-11-27T00:00:00Z', '2026-11-27T00:00:00Z'),
    ('00000000-0000-7000-8000-00000000a002', NULL, 'Dortmund', 225, 40, 60, 120, 60, 221, NULL,
     'G. Noonan, "Brewing Lager Beer" (1986), p. 55; compiled in Draper, "Brewing Waters of the World" (1995)',
     '2026-11-27T00:00:00Z', '2026-11-27T00:00:00Z'),
    ('00000000-0000-7000-8000-00000000a003', NULL, 'Dublin', 119, 4, 12, 53, 19, 156, NULL,
     'Wahl and Henius, "American Handy Book of the Brewing, Malting and Auxiliary Trades" (1902), vol. 2, p. 790; compiled in Draper, "Brewing Waters of the World" (1995)',
     '2026-11-27T00:00:00Z', '2026-11-27T00:00:00Z'),
    ('00000000-0000-7000-8000-00000000a004', NULL, 'Edinburgh', 140, 60, 80, 96, 34, 140, NULL,
     'Westermann and Huige, "Fermentation Technology", p. 13; compiled in Draper, "Brewing Waters of the World" (1995)',
     '2026-11-27T00:00:00Z', '2026-11-27T00:00:00Z'),
    ('00000000-0000-7000-8000-00000000a005', NULL, 'London (well water)', 52, 32, 86, 32, 34, 104, NULL,
     'Westermann and Huige, "Fermentation Technology", p. 13; compiled in Draper, "Brewing Waters of the World" (1995)',
     '2026-11-27T00:00:00Z', '2026-11-27T00:00:00Z'),
    ('00000000-0000-7000-8000-00000000a006', NULL, 'Munich', 75, 18, 2, 10, 2, 148, NULL,
     'G. Noonan, "Brewing Lager Beer" (1986), p. 55; compiled in Draper, "Brewing Waters of the World" (1995)',
     '2026-11-27T00:00:00Z', '2026-11-27T00:00:00Z'),
    ('00000000-0000-7000-8000-00000000a007', NULL, 'Pilsen', 7, 2, 2, 5, 5, 14, NULL,
     'G. Noonan, "Brewing Lager Beer" (1986), p. 55; compiled in Draper, "Brewing Waters of the World" (1995)',
     '2026-11-27T00:00:00Z', '2026-11-27T00:00:00Z'),
    ('00000000-0000-7000-8000-00000000a008', NULL, 'Vienna', 200, 60, 8, 125, 12, 118, NULL,
     'G. Noonan, "Brewing Lager Beer" (1986), p. 55; compiled in Draper, "Brewing Waters of the World" (1995)',
     '2026-11-27T00:00:00Z', '2026-11-27T00:00:00Z'),
    ('00000000-0000-7000-8000-00000000a009', NULL, 'Distilled / RO', 0, 0, 0, 0, 0, 0, 7.0,
     'Pure water by definition (distillation or reverse osmosis leaves next to no ions)',
     '2026-11-27T00:00:00Z', '2026-11-27T00:00:00Z');

-- A profile the recipe names that is deleted is simply no longer named.
ALTER TABLE recipes
    ADD COLUMN water_profile_id uuid REFERENCES water_profiles (id) ON DELETE SET NULL,
    ADD COLUMN target_water_profile_id uuid REFERENCES water_profiles (id) ON DELETE SET NULL;

CREATE TABLE water_additions (
    id              uuid PRIMARY KEY,
    user_id         uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    recipe_id       uuid NOT NULL REFERENCES recipes (id) ON DELETE CASCADE,
    agent           text NOT NULL,
    amount          double precision NOT NULL CHECK (amount >= 0),
    -- Lactic and phosphoric acid: % w/w of the solution. Acidulated malt: % lactic acid.
    strength_percent double precision CHECK (strength_percent > 0 AND strength_percent <= 100),
    acid_percent    double precision CHECK (acid_percent > 0 AND acid_percent <= 100),
    step            text NOT NULL CHECK (step IN ('mash', 'sparge')),
    sort_order      integer NOT NULL,
    created_at      timestamptz NOT NULL
);
CREATE INDEX water_additions_recipe_idx ON water_additions (recipe_id, sort_order, created_at, id);

ALTER TABLE brew_sessions
    ADD COLUMN measured_mash_ph double precision,
    ADD COLUMN predicted_mash_ph double precision;
