import { client, unwrapPage } from '../api/client';

/** The account's brew sessions (the session list and the devices' session choices share it). */
export const sessionListQuery = {
  queryKey: ['sessions'],
  queryFn: () => unwrapPage(client.GET('/v1/sessions', { params: { query: { limit: 200 } } })),
};
