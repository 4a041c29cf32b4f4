-- Every account's own ingredients share catalog_items with the shipped catalogue. The indexes
-- covered all rows alike, so a search, a list or an import's name match read every account's
-- items that matched and only then kept the caller's: their cost grew with the number of
-- accounts (at 100,000 accounts that each keep a "Citra (2024 harvest)", a search for "citra"
-- read 100,000 rows). Now the shipped items have partial indexes of their own, and an
-- account's own items are reached through user_id first, so what a request reads is the
-- shipped catalogue plus the caller's own items, whatever the others keep.
CREATE INDEX catalog_items_builtin_search_idx ON catalog_items
    USING gin (search_text gin_trgm_ops) WHERE user_id IS NULL;
CREATE INDEX catalog_items_builtin_names_idx ON catalog_items
    USING gin (folded_names) WHERE user_id IS NULL;
CREATE INDEX catalog_items_builtin_list_idx ON catalog_items (kind, lower(name), id)
    WHERE user_id IS NULL;
CREATE INDEX catalog_items_own_idx ON catalog_items (user_id, kind, lower(name), id)
    WHERE user_id IS NOT NULL;
DROP INDEX catalog_items_search_idx;
DROP INDEX catalog_items_names_idx;
DROP INDEX catalog_items_list_idx;
DROP INDEX catalog_items_user_idx;

-- The search's candidates: shipped items through their trigram index, the account's own by
-- user_id (a few hundred at most), each tested directly. Sequential scans stay off for the
-- reason the first version of this function gives (a trigram test of every shipped row costs
-- 4–7 ms; the index, under 1 ms).
CREATE OR REPLACE FUNCTION catalog_search_ids(p_kind text, p_user uuid, p_query text)
RETURNS SETOF uuid
LANGUAGE sql STABLE
SET enable_seqscan = off
AS $$
    SELECT id FROM catalog_items
     WHERE user_id IS NULL
       AND kind || '' = p_kind
       AND (search_text LIKE '%' || p_query || '%' OR p_query <% search_text)
    UNION ALL
    SELECT id FROM catalog_items
     WHERE user_id = p_user
       AND kind = p_kind
       AND (search_text LIKE '%' || p_query || '%' OR p_query <% search_text)
$$;
