import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { request } from '../api/client';
import { keys } from '../api/keys';
import type { CatalogItems, CatalogKind } from './types';

/** How many suggestions a name field shows. */
export const SUGGESTIONS = 8;

/** The catalogue's matches for what was typed in a name field (built-in and own items). */
export const catalogSearchQuery = <K extends CatalogKind>(kind: K, q: string) =>
  queryOptions({
    queryKey: keys.catalog.search(kind, q),
    queryFn: () => request<CatalogItems[K][]>('GET', `/v1/catalog/${kind}?q=${encodeURIComponent(q)}&limit=${SUGGESTIONS}`),
    enabled: q !== '',
    // The catalogue changes only when the person saves an item (which invalidates it).
    staleTime: 5 * 60_000,
    // The list keeps the previous matches while the next ones load: no flicker as one types.
    placeholderData: keepPreviousData,
  });
