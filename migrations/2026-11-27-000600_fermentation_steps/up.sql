-- A recipe's fermentation plan: rests held for a number of days, or until a gravity or an
-- apparent attenuation is reached. A recipe child like mash steps.
CREATE TABLE fermentation_steps (
    id                        uuid PRIMARY KEY,
    user_id                   uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    recipe_id                 uuid NOT NULL REFERENCES recipes (id) ON DELETE CASCADE,
    name                      text NOT NULL,
    temperature_c             double precision NOT NULL,
    days                      double precision,
    until_gravity             double precision,
    until_attenuation_percent double precision,
    sort_order                integer NOT NULL,
    created_at                timestamptz NOT NULL
);
CREATE INDEX fermentation_steps_recipe_idx
    ON fermentation_steps (recipe_id, sort_order, created_at, id);
