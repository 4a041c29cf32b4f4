import { queryOptions } from '@tanstack/react-query';
import { client, unwrap, unwrapPage } from '../api/client';
import { keys } from '../api/keys';

/** The account's devices, by name (a brewery has a handful; the API's largest page). */
export const deviceListQuery = queryOptions({
  queryKey: keys.devices.list(),
  queryFn: () => unwrapPage(client.GET('/v1/devices', { params: { query: { limit: 200 } } })),
});

export const deviceQuery = (id: string) =>
  queryOptions({
    queryKey: keys.devices.detail(id),
    queryFn: () => unwrap(client.GET('/v1/devices/{id}', { params: { path: { id } } })),
  });
