-- The temperatures cleared were ignored by every calculation: nothing to put back.
SELECT 1;
