-- X-Total-Count of an account's unfiltered recipe list, kept per account. COUNT(*) over the
-- account's recipes grows with the account (3 ms for 10,000 recipes, two thirds of the cost of a
-- page: docs/benchmarks-log.md, "Fixed: the recipe list counted the whole account"); this
-- counter makes the page cost the same whatever the account's size. Filtered lists (q, type)
-- still count their matches.
--
-- Statement-level triggers with transition tables keep it right for every writer (the API, a
-- copy, a cascade, a bulk load) at one UPDATE per statement and account, not per row.
ALTER TABLE users ADD COLUMN recipe_count bigint NOT NULL DEFAULT 0;

UPDATE users u
SET recipe_count = counted.n
FROM (SELECT user_id, count(*) AS n FROM recipes GROUP BY user_id) AS counted
WHERE u.id = counted.user_id;

CREATE FUNCTION recipes_counted_in() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE users u
    SET recipe_count = u.recipe_count + added.n
    FROM (SELECT user_id, count(*) AS n FROM added_recipes GROUP BY user_id) AS added
    WHERE u.id = added.user_id;
    RETURN NULL;
END
$$;

CREATE FUNCTION recipes_counted_out() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE users u
    SET recipe_count = u.recipe_count - removed.n
    FROM (SELECT user_id, count(*) AS n FROM removed_recipes GROUP BY user_id) AS removed
    WHERE u.id = removed.user_id;
    RETURN NULL;
END
$$;

CREATE TRIGGER recipes_count_inserts AFTER INSERT ON recipes
    REFERENCING NEW TABLE AS added_recipes
    FOR EACH STATEMENT EXECUTE FUNCTION recipes_counted_in();

CREATE TRIGGER recipes_count_deletes AFTER DELETE ON recipes
    REFERENCING OLD TABLE AS removed_recipes
    FOR EACH STATEMENT EXECUTE FUNCTION recipes_counted_out();
