-- A hop-stand temperature means something only for a `whirlpool` or `aroma` addition; a
-- temperature stored on another use was ignored by every calculation. Clear those (few rows:
-- only hops that have a temperature are touched) so that no stored temperature is ignored.
UPDATE hops
SET temperature_c = NULL
WHERE temperature_c IS NOT NULL
  AND "use" NOT IN ('whirlpool', 'aroma');
