-- Ingredients on hand. amount_unit is free text and never converted.
CREATE TABLE inventory_items (
    id            uuid PRIMARY KEY,
    user_id       uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    category      text NOT NULL CHECK (category IN ('fermentable', 'hop', 'yeast', 'misc')),
    name          text NOT NULL,
    amount        double precision NOT NULL CHECK (amount >= 0),
    amount_unit   text NOT NULL,
    type          text,
    form          text,
    origin        text,
    alpha_acid    double precision,
    color_srm     double precision,
    yield_percent double precision,
    attenuation   double precision,
    year          integer,
    notes         text,
    created_at    timestamptz NOT NULL,
    updated_at    timestamptz NOT NULL
);
-- The list order: category in enum order, then name ignoring case, then id.
CREATE INDEX inventory_items_user_order_idx ON inventory_items (
    user_id,
    (array_position(ARRAY['fermentable', 'hop', 'yeast', 'misc']::text[], category)),
    lower(name),
    id
);
