-- The temperature of the water a step mash's infusion adds, when the brewer chooses it (water
-- from a hot liquor tank at 85 °C, say). NULL means boiling water, or, when the step sets its
-- volume, the temperature that volume needs: the domain computes it on read.
--
-- A nullable column with no default is a catalogue change only: no row is rewritten.
ALTER TABLE mash_steps ADD COLUMN infuse_temperature_c double precision;
