-- Recipes and their five kinds of children. Every row carries its owner's user_id and every query
-- filters on it, so ownership is enforced in SQL (and the schema can be distributed by account).
-- Statistics and est_color_srm are computed on read and never stored.

CREATE TABLE recipes (
    id                uuid PRIMARY KEY,
    user_id           uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name              text NOT NULL,
    style             text NOT NULL,
    type              text NOT NULL CHECK (type IN ('all_grain', 'extract', 'partial_mash')),
    batch_size_liters double precision NOT NULL,
    boil_time_minutes double precision NOT NULL,
    efficiency        double precision NOT NULL,
    notes             text,
    created_at        timestamptz NOT NULL,
    updated_at        timestamptz NOT NULL
);
-- The default list order (-updated_at, id) and the other sorts, all within one account.
CREATE INDEX recipes_user_updated_idx ON recipes (user_id, updated_at DESC, id);
CREATE INDEX recipes_user_created_idx ON recipes (user_id, created_at, id);
CREATE INDEX recipes_user_name_idx ON recipes (user_id, lower(name), id);

CREATE TABLE fermentables (
    id            uuid PRIMARY KEY,
    user_id       uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    recipe_id     uuid NOT NULL REFERENCES recipes (id) ON DELETE CASCADE,
    name          text NOT NULL,
    type          text NOT NULL,
    amount_kg     double precision NOT NULL,
    color_srm     double precision NOT NULL,
    yield_percent double precision NOT NULL,
    origin        text,
    notes         text,
    sort_order    integer NOT NULL,
    created_at    timestamptz NOT NULL
);
CREATE INDEX fermentables_recipe_idx ON fermentables (recipe_id, sort_order, created_at, id);

CREATE TABLE hops (
    id           uuid PRIMARY KEY,
    user_id      uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    recipe_id    uuid NOT NULL REFERENCES recipes (id) ON DELETE CASCADE,
    name         text NOT NULL,
    alpha_acid   double precision NOT NULL,
    amount_grams double precision NOT NULL,
    time_minutes double precision NOT NULL,
    use          text NOT NULL,
    sort_order   integer NOT NULL,
    created_at   timestamptz NOT NULL
);
CREATE INDEX hops_recipe_idx ON hops (recipe_id, sort_order, created_at, id);

CREATE TABLE yeasts (
    id          uuid PRIMARY KEY,
    user_id     uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    recipe_id   uuid NOT NULL REFERENCES recipes (id) ON DELETE CASCADE,
    name        text NOT NULL,
    lab         text,
    product_id  text,
    type        text NOT NULL,
    form        text,
    attenuation double precision,
    min_temp_c  double precision,
    max_temp_c  double precision,
    amount      double precision,
    amount_unit text,
    notes       text,
    sort_order  integer NOT NULL,
    created_at  timestamptz NOT NULL
);
CREATE INDEX yeasts_recipe_idx ON yeasts (recipe_id, sort_order, created_at, id);

CREATE TABLE miscs (
    id           uuid PRIMARY KEY,
    user_id      uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    recipe_id    uuid NOT NULL REFERENCES recipes (id) ON DELETE CASCADE,
    name         text NOT NULL,
    type         text NOT NULL,
    use          text NOT NULL,
    amount       double precision NOT NULL,
    amount_unit  text NOT NULL,
    time_minutes double precision NOT NULL,
    notes        text,
    sort_order   integer NOT NULL,
    created_at   timestamptz NOT NULL
);
CREATE INDEX miscs_recipe_idx ON miscs (recipe_id, sort_order, created_at, id);

CREATE TABLE mash_steps (
    id                   uuid PRIMARY KEY,
    user_id              uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    recipe_id            uuid NOT NULL REFERENCES recipes (id) ON DELETE CASCADE,
    name                 text NOT NULL,
    type                 text NOT NULL,
    temperature_c        double precision NOT NULL,
    duration_minutes     double precision NOT NULL,
    infuse_amount_liters double precision,
    ramp_minutes         double precision,
    sort_order           integer NOT NULL,
    created_at           timestamptz NOT NULL
);
CREATE INDEX mash_steps_recipe_idx ON mash_steps (recipe_id, sort_order, created_at, id);
