ALTER TABLE equipment_profiles
    DROP COLUMN mash_tun_volume_liters,
    DROP COLUMN mash_method;
