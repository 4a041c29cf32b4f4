DROP FUNCTION catalog_search_ids(text, uuid, text);
