import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { client, unwrap } from '../api/client';
import { keys } from '../api/keys';
import type { CatalogItem, CatalogKind } from './types';

/** How many suggestions a name field shows. */
export const SUGGESTIONS = 8;

/** `GET /v1/catalog/{kind}?q=…&limit=8`: best match first, the account's own before built-ins. */
function search(kind: CatalogKind, q: string): Promise<CatalogItem[]> {
  const params = { query: { q, limit: SUGGESTIONS } };
  switch (kind) {
    case 'fermentables':
      return unwrap(client.GET('/v1/catalog/fermentables', { params }));
    case 'hops':
      return unwrap(client.GET('/v1/catalog/hops', { params }));
    case 'yeasts':
      return unwrap(client.GET('/v1/catalog/yeasts', { params }));
    case 'miscs':
      return unwrap(client.GET('/v1/catalog/miscs', { params }));
  }
}

/** The catalogue's matches for what was typed in a name field (built-in and own items). */
export const catalogSearchQuery = (kind: CatalogKind, q: string) =>
  queryOptions({
    queryKey: keys.catalog.search(kind, q),
    queryFn: () => search(kind, q),
    enabled: q !== '',
    // The catalogue changes only when the person saves an item (which invalidates it).
    staleTime: 5 * 60_000,
    // The list keeps the previous matches while the next ones load: no flicker as one types.
    placeholderData: keepPreviousData,
  });
