import { client, unwrap, unwrapPage } from './api/client';
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

/** The account's brew sessions (the session list and the devices' session choices share it). */
export const sessionListQuery = {
  queryKey: ['sessions'],
  queryFn: () => unwrapPage(client.GET('/v1/sessions', { params: { query: { limit: 200 } } })),
};

/** The account's devices, by name (a brewery has a handful; the API's largest page). */
export const deviceListQuery = {
  queryKey: ['devices'],
  queryFn: () => unwrapPage(client.GET('/v1/devices', { params: { query: { limit: 200 } } })),
};

export const deviceQuery = (id: string) => ({
  queryKey: ['device', id],
  queryFn: () => unwrap(client.GET('/v1/devices/{id}', { params: { path: { id } } })),
});

/** The account's webhooks, oldest first. */
export const webhookListQuery = {
  queryKey: ['webhooks'],
  queryFn: () => unwrapPage(client.GET('/v1/webhooks', { params: { query: { limit: 200 } } })),
};

export const webhookQuery = (id: string) => ({
  queryKey: ['webhook', id],
  queryFn: () => unwrap(client.GET('/v1/webhooks/{id}', { params: { path: { id } } })),
});

/** One page of a webhook's delivery attempts, newest first, with the `X-Total-Count`. */
export const deliveriesQuery = (id: string, page: number, size: number) => ({
  queryKey: ['deliveries', id, page],
  queryFn: () => unwrapPage(client.GET('/v1/webhooks/{id}/deliveries', { params: { path: { id }, query: { limit: size, offset: page * size } } })),
});
