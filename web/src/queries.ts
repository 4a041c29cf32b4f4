import { client, unwrap } from './api/client';
import { DEFAULT_PREFERENCES, type Preferences } from './api/extra';

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

export const prefsQuery = {
  queryKey: ['prefs'],
  queryFn: async (): Promise<Preferences> => ({ ...DEFAULT_PREFERENCES, ...(await unwrap(client.GET('/v1/me/preferences'))) }),
  staleTime: 300_000,
};
