import { queryOptions } from '@tanstack/react-query';
import { client, unwrap, unwrapPage } from '../api/client';
import { keys } from '../api/keys';

/** The account's webhooks, oldest first. */
export const webhookListQuery = queryOptions({
  queryKey: keys.webhooks.list(),
  queryFn: () => unwrapPage(client.GET('/v1/webhooks', { params: { query: { limit: 200 } } })),
});

export const webhookQuery = (id: string) =>
  queryOptions({
    queryKey: keys.webhooks.detail(id),
    queryFn: () => unwrap(client.GET('/v1/webhooks/{id}', { params: { path: { id } } })),
  });

/** One page of a webhook's delivery attempts, newest first, with the `X-Total-Count`. */
export const deliveriesQuery = (id: string, page: number, size: number) =>
  queryOptions({
    queryKey: keys.webhooks.deliveryPage(id, page),
    queryFn: () => unwrapPage(client.GET('/v1/webhooks/{id}/deliveries', { params: { path: { id }, query: { limit: size, offset: page * size } } })),
  });
