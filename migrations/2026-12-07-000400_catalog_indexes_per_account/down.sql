CREATE OR REPLACE FUNCTION catalog_search_ids(p_kind text, p_user uuid, p_query text)
RETURNS SETOF uuid
LANGUAGE sql STABLE
SET enable_seqscan = off
AS $$
    SELECT id FROM catalog_items
     WHERE kind || '' = p_kind
       AND (user_id IS NULL OR user_id = p_user)
       AND (search_text LIKE '%' || p_query || '%' OR p_query <% search_text)
$$;
CREATE INDEX catalog_items_search_idx ON catalog_items USING gin (search_text gin_trgm_ops);
CREATE INDEX catalog_items_names_idx ON catalog_items USING gin (folded_names);
CREATE INDEX catalog_items_list_idx ON catalog_items (kind, lower(name), id);
CREATE INDEX catalog_items_user_idx ON catalog_items (user_id, kind) WHERE user_id IS NOT NULL;
DROP INDEX catalog_items_builtin_search_idx;
DROP INDEX catalog_items_builtin_names_idx;
DROP INDEX catalog_items_builtin_list_idx;
DROP INDEX catalog_items_own_idx;
