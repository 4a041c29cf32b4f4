-- All-in-one systems and brew-in-a-bag: an equipment profile mashes with all its water
-- (`full_volume`) or splits it into strike and sparge water (`sparge`, as every profile did so
-- far), and may say how much its mash tun holds. Constant defaults: no table rewrite.
ALTER TABLE equipment_profiles
    ADD COLUMN mash_method text NOT NULL DEFAULT 'sparge'
        CHECK (mash_method IN ('sparge', 'full_volume')),
    ADD COLUMN mash_tun_volume_liters double precision
        CHECK (mash_tun_volume_liters > 0);
