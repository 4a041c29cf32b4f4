-- The brewing model: equipment profiles, a recipe's profile and BJCP style, and
-- the hop form.
CREATE TABLE equipment_profiles (
    id                             uuid PRIMARY KEY,
    user_id                        uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name                           text NOT NULL,
    batch_size_liters              double precision NOT NULL CHECK (batch_size_liters > 0),
    boil_off_liters_per_hour       double precision NOT NULL CHECK (boil_off_liters_per_hour >= 0),
    trub_chiller_loss_liters       double precision NOT NULL CHECK (trub_chiller_loss_liters >= 0),
    mash_tun_deadspace_liters      double precision NOT NULL CHECK (mash_tun_deadspace_liters >= 0),
    grain_absorption_liters_per_kg double precision NOT NULL CHECK (grain_absorption_liters_per_kg >= 0),
    top_up_water_liters            double precision NOT NULL CHECK (top_up_water_liters >= 0),
    fermenter_loss_liters          double precision NOT NULL CHECK (fermenter_loss_liters >= 0),
    hop_utilization_percent        double precision NOT NULL
        CHECK (hop_utilization_percent BETWEEN 0 AND 200),
    notes                          text,
    created_at                     timestamptz NOT NULL,
    updated_at                     timestamptz NOT NULL,
    -- The target of recipes' (equipment_id, user_id): a recipe can only name its own account's.
    UNIQUE (id, user_id)
);
-- The list order: name ignoring case, then id.
CREATE INDEX equipment_profiles_user_name_idx ON equipment_profiles (user_id, lower(name), id);

-- NO ACTION (checked at the end of the statement) rather than RESTRICT, so that deleting an
-- account, which cascades to both tables in one statement, is not refused; deleting a profile a
-- recipe still names is.
ALTER TABLE recipes
    ADD COLUMN equipment_id uuid,
    ADD COLUMN style_id text,
    ADD CONSTRAINT recipes_equipment_fkey FOREIGN KEY (equipment_id, user_id)
        REFERENCES equipment_profiles (id, user_id);
-- "Which recipes use this profile?" when one is deleted.
CREATE INDEX recipes_equipment_idx ON recipes (equipment_id) WHERE equipment_id IS NOT NULL;

ALTER TABLE hops
    ADD COLUMN form text CHECK (form IN ('pellet', 'plug', 'leaf', 'extract'));
