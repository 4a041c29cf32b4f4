import { queryOptions } from '@tanstack/react-query';
import { client, unwrap } from '../api/client';
import { keys } from '../api/keys';

/** Query options shared by the pages and the start-up prefetch (same keys, same functions). */
export const recipeQuery = (id: string) =>
  queryOptions({
    queryKey: keys.recipes.detail(id),
    queryFn: () => unwrap(client.GET('/v1/recipes/{id}', { params: { path: { id } } })),
  });

export const statsQuery = (id: string) =>
  queryOptions({
    queryKey: keys.recipes.stats(id),
    queryFn: () => unwrap(client.GET('/v1/recipes/{id}/stats', { params: { path: { id } } })),
    staleTime: 0,
  });

/** What a careful brewer would point out about the recipe, each check naming its field. */
export const checksQuery = (id: string) =>
  queryOptions({
    queryKey: keys.recipes.checks(id),
    queryFn: () => unwrap(client.GET('/v1/recipes/{id}/checks', { params: { path: { id } } })),
    staleTime: 0,
  });

/** The BJCP 2021 styles: fixed data, loaded once. */
export const stylesQuery = queryOptions({
  queryKey: keys.styles.all(),
  queryFn: () => unwrap(client.GET('/v1/styles')),
  staleTime: Infinity,
});
