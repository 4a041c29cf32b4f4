DROP TABLE inventory_deductions;
ALTER TABLE inventory_items DROP COLUMN best_before, DROP COLUMN price_per_unit;
