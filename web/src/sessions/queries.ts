import { queryOptions } from '@tanstack/react-query';
import { client, unwrapPage } from '../api/client';
import { keys } from '../api/keys';

/** The account's brew sessions (the session list and the devices' session choices share it). */
export const sessionListQuery = queryOptions({
  queryKey: keys.brewSessions.list(),
  queryFn: () => unwrapPage(client.GET('/v1/sessions', { params: { query: { limit: 200 } } })),
});
