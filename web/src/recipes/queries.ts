import { client, unwrap } from '../api/client';

/** Query options shared by the pages and the start-up prefetch (same keys, same functions). */
export const recipeQuery = (id: string) => ({
  queryKey: ['recipe', id],
  queryFn: () => unwrap(client.GET('/v1/recipes/{id}', { params: { path: { id } } })),
});

export const statsQuery = (id: string) => ({
  queryKey: ['stats', id],
  queryFn: () => unwrap(client.GET('/v1/recipes/{id}/stats', { params: { path: { id } } })),
  staleTime: 0,
});

/** The BJCP 2021 styles: fixed data, loaded once. */
export const stylesQuery = {
  queryKey: ['styles'],
  queryFn: () => unwrap(client.GET('/v1/styles')),
  staleTime: Infinity,
};
