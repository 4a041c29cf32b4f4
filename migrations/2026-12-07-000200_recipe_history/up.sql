-- Recipe history and sharing.
--
-- A recipe's versions. The newest version of a recipe may be open: its content is the recipe
-- itself (snapshot NULL), and edits within ten minutes of its first edit join it. When a later
-- edit starts a new version, or the brewer names the open one, or a brew session, copy or scale
-- is made from it, the open version is frozen: snapshot holds the recipe with its children and
-- its equipment profile as they were, so its figures can be computed again as they were. A
-- recipe without any row here has one implicit version, number 1, its content the recipe.
CREATE TABLE recipe_versions (
    recipe_id uuid NOT NULL REFERENCES recipes (id) ON DELETE CASCADE,
    number integer NOT NULL CHECK (number >= 1),
    user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    message text,
    -- The recipe (and equipment) as this version left it; NULL while it is the open version.
    snapshot jsonb,
    -- What changed against the version before, written when it is frozen.
    summary text,
    PRIMARY KEY (recipe_id, number)
);
CREATE INDEX recipe_versions_user ON recipe_versions (user_id);

-- Lineage: the recipe (and its version) a copy or a scaled copy was made from, and the shared
-- link a recipe was copied from. A deleted parent leaves the copy without one.
ALTER TABLE recipes ADD COLUMN parent_recipe_id uuid REFERENCES recipes (id) ON DELETE SET NULL;
ALTER TABLE recipes ADD COLUMN parent_version integer;
ALTER TABLE recipes ADD COLUMN source_url text;
CREATE INDEX recipes_parent ON recipes (parent_recipe_id) WHERE parent_recipe_id IS NOT NULL;

-- The version of its recipe a brew session was brewed from.
ALTER TABLE brew_sessions ADD COLUMN recipe_version integer;

-- Share links: at most one live link per recipe. The token is kept as it is (not hashed): it is
-- a link the owner hands out, and a second "share" must answer with the live link. Revoking
-- deletes the row, so a later share makes a new token.
CREATE TABLE recipe_shares (
    recipe_id uuid PRIMARY KEY REFERENCES recipes (id) ON DELETE CASCADE,
    user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    token text NOT NULL UNIQUE,
    include_notes boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL
);
CREATE INDEX recipe_shares_user ON recipe_shares (user_id);
