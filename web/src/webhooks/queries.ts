import { client, unwrap, unwrapPage } from '../api/client';

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
