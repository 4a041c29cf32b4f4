// The recipe page's first two queries, shared by its hooks (api.ts) and the start-up prefetch
// (main.tsx): same keys, same functions. Kept apart from api.ts so that the first script holds
// these two and not every recipe hook.
import { queryOptions } from '@tanstack/react-query';
import { client, unwrap } from '../api/client';
import { keys } from '../api/keys';

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
