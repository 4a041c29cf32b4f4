-- The ingredient catalogue: built-in items (user_id NULL, seeded from the data shipped with wort
-- when it migrates) and each account's own. The descriptive fields differ by kind and are never
-- filtered or sorted on, so they are one jsonb object written and read by the domain; what is
-- searched and sorted has its own columns.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE catalog_items (
    id           uuid PRIMARY KEY,
    user_id      uuid REFERENCES users (id) ON DELETE CASCADE,
    kind         text NOT NULL CHECK (kind IN ('fermentable', 'hop', 'yeast', 'misc')),
    name         text NOT NULL,
    aliases      text[] NOT NULL DEFAULT '{}',
    details      jsonb NOT NULL DEFAULT '{}',
    notes        text,
    -- Name and aliases folded (lower case, no accents or punctuation): an imported ingredient
    -- links to the one item whose folded name or alias is its own.
    folded_name  text NOT NULL,
    folded_names text[] NOT NULL,
    -- Folded names plus word runs written together, compared with the folded query by trigrams.
    search_text  text NOT NULL,
    created_at   timestamptz NOT NULL,
    updated_at   timestamptz NOT NULL
);
CREATE INDEX catalog_items_search_idx ON catalog_items USING gin (search_text gin_trgm_ops);
CREATE INDEX catalog_items_names_idx ON catalog_items USING gin (folded_names);
-- The list without a search, and counting an account's own items.
CREATE INDEX catalog_items_list_idx ON catalog_items (kind, lower(name), id);
CREATE INDEX catalog_items_user_idx ON catalog_items (user_id, kind) WHERE user_id IS NOT NULL;

-- What the built-in rows were last seeded from; an unchanged fingerprint skips the seed.
CREATE TABLE catalog_seed (
    singleton   boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    fingerprint text NOT NULL,
    seeded_at   timestamptz NOT NULL
);

-- A recipe child or inventory item remembers the item it was filled from; the link goes when
-- the item does, the values stay.
ALTER TABLE fermentables ADD COLUMN catalog_id uuid REFERENCES catalog_items (id) ON DELETE SET NULL;
ALTER TABLE hops ADD COLUMN catalog_id uuid REFERENCES catalog_items (id) ON DELETE SET NULL;
ALTER TABLE yeasts ADD COLUMN catalog_id uuid REFERENCES catalog_items (id) ON DELETE SET NULL;
ALTER TABLE miscs ADD COLUMN catalog_id uuid REFERENCES catalog_items (id) ON DELETE SET NULL;
ALTER TABLE inventory_items ADD COLUMN catalog_id uuid REFERENCES catalog_items (id) ON DELETE SET NULL;
-- A delete of an item finds its links by index.
CREATE INDEX fermentables_catalog_idx ON fermentables (catalog_id) WHERE catalog_id IS NOT NULL;
CREATE INDEX hops_catalog_idx ON hops (catalog_id) WHERE catalog_id IS NOT NULL;
CREATE INDEX yeasts_catalog_idx ON yeasts (catalog_id) WHERE catalog_id IS NOT NULL;
CREATE INDEX miscs_catalog_idx ON miscs (catalog_id) WHERE catalog_id IS NOT NULL;
CREATE INDEX inventory_items_catalog_idx ON inventory_items (catalog_id) WHERE catalog_id IS NOT NULL;
