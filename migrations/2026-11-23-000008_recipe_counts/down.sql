DROP TRIGGER recipes_count_deletes ON recipes;
DROP TRIGGER recipes_count_inserts ON recipes;
DROP FUNCTION recipes_counted_out();
DROP FUNCTION recipes_counted_in();
ALTER TABLE users DROP COLUMN recipe_count;
