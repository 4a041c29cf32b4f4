// The ingredient catalogue's queries and writes: name-field suggestions, the account's own items
// (the Ingredients page) and saving a recipe's row to them.
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, client, request, toApiError, unwrap } from '../api/client';
import { keys } from '../api/keys';
import { itemBodyFrom } from './fill';
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

export function useCatalogSearch(kind: CatalogKind, q: string) {
  return useQuery(catalogSearchQuery(kind, q));
}

/** The matches already fetched for a text, if any (asks nothing). */
export function useCachedCatalogSearch() {
  const qc = useQueryClient();
  return (kind: CatalogKind, q: string) => qc.getQueryData<CatalogItem[]>(keys.catalog.search(kind, q));
}

/** A page of the account's own catalogue items of one kind (`source=mine`: the server leaves the
 * built-in ones out), with the `X-Total-Count`. The kind is chosen at run time, so the path is not
 * one of the typed client's literal paths. */
async function minePage(kind: CatalogKind, q: string, page: number, size: number): Promise<{ items: CatalogItem[]; total: number }> {
  const params = new URLSearchParams({ source: 'mine', limit: String(size), offset: String(page * size) });
  if (q) params.set('q', q);
  let res: Response;
  try {
    res = await fetch(`/v1/catalog/${kind}?${params}`, { credentials: 'same-origin' });
  } catch {
    throw new ApiError(0, 'Network error: the server could not be reached');
  }
  const body: unknown = await res.json().catch(() => undefined);
  if (!res.ok) throw toApiError(res, body);
  return { items: body as CatalogItem[], total: Number(res.headers.get('X-Total-Count') ?? '0') };
}

/** One page (`size` items) of the account's own items of a kind, searched; the last page stays while the next loads. */
export function useMyIngredients(kind: CatalogKind, q: string, page: number, size: number) {
  return useQuery({
    queryKey: keys.catalog.mine(kind, { q, page }),
    queryFn: () => minePage(kind, q, page, size),
    placeholderData: keepPreviousData,
  });
}

/** An own item's field saves and its delete; each refreshes the kind's searches and lists. */
export function useIngredientWrites(kind: CatalogKind, id: string, onDeleted: () => void) {
  const qc = useQueryClient();
  const refresh = () => qc.invalidateQueries({ queryKey: keys.catalog.kind(kind) });
  const save = (field: string) => async (value: string | number | null) => {
    await request('PATCH', `/v1/catalog/${kind}/${id}`, { [field]: value });
    await refresh();
  };
  const del = useMutation({
    mutationFn: () => request('DELETE', `/v1/catalog/${kind}/${id}`),
    onSuccess: async () => {
      onDeleted();
      await refresh();
    },
  });
  return { save, del };
}

/** A recipe's row saved as an own ingredient of `kind` ("☆"); the kind's searches and lists follow. */
export function useSaveToCatalog(kind: CatalogKind | undefined, handlers: { onSuccess: (item: CatalogItem) => void; onError: (e: unknown) => void }) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (row: Record<string, unknown>) => request<CatalogItem>('POST', `/v1/catalog/${kind}`, itemBodyFrom(kind!, row)),
    onSuccess: (item) => {
      handlers.onSuccess(item);
      return qc.invalidateQueries({ queryKey: keys.catalog.kind(kind!) });
    },
    onError: handlers.onError,
  });
}
