import { client, unwrap, unwrapPage } from '../api/client';

/** The account's devices, by name (a brewery has a handful; the API's largest page). */
export const deviceListQuery = {
  queryKey: ['devices'],
  queryFn: () => unwrapPage(client.GET('/v1/devices', { params: { query: { limit: 200 } } })),
};

export const deviceQuery = (id: string) => ({
  queryKey: ['device', id],
  queryFn: () => unwrap(client.GET('/v1/devices/{id}', { params: { path: { id } } })),
});
