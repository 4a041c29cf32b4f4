-- The temperature of a whirlpool (hop stand) steep, in °C. Null keeps the fixed whirlpool rule;
-- with a temperature the stand's bitterness follows the hop-stand model (docs/calculations.md).
ALTER TABLE hops
    ADD COLUMN temperature_c double precision
        CHECK (temperature_c IS NULL OR (temperature_c >= 0 AND temperature_c <= 100));
