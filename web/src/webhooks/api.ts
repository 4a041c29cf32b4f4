// Webhooks' queries and writes: the list, a webhook's settings, its test ping and its delivery log.
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { client, unwrap, unwrapPage, type Schemas } from '../api/client';
import { keys } from '../api/keys';
import type { SubscribableEvent } from './webhooks';

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

export function useWebhookList() {
  return useQuery(webhookListQuery);
}

export function useWebhook(id: string) {
  return useQuery(webhookQuery(id));
}

/** A page of deliveries; the newest page is read again every 30 s while it is shown. */
export function useDeliveries(id: string, page: number, size: number) {
  return useQuery({ ...deliveriesQuery(id, page, size), placeholderData: keepPreviousData, refetchInterval: page === 0 ? 30_000 : false });
}

/** A new webhook; `onCreated` gets the answer, the only one with its signing secret. */
export function useCreateWebhook(onCreated: (w: Schemas['CreatedWebhook']) => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { url: string; events: SubscribableEvent[] }) => unwrap(client.POST('/v1/webhooks', { body })),
    onSuccess: (w) => {
      onCreated(w);
      void qc.invalidateQueries({ queryKey: keys.webhooks.list() });
    },
  });
}

export function useSaveWebhook(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { url?: string; events?: SubscribableEvent[]; active?: boolean }) =>
      unwrap(client.PATCH('/v1/webhooks/{id}', { params: { path: { id } }, body })),
    onSuccess: (updated) => {
      qc.setQueryData(keys.webhooks.detail(id), updated);
      void qc.invalidateQueries({ queryKey: keys.webhooks.list() });
    },
  });
}

/** A test ping; the delivery log and the webhook's state follow, sent or not. */
export function useTestWebhook(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(client.POST('/v1/webhooks/{id}/test', { params: { path: { id } } })),
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: keys.webhooks.deliveries(id) });
      void qc.invalidateQueries({ queryKey: keys.webhooks.detail(id) });
    },
  });
}

export function useDeleteWebhook(id: string, onDeleted: () => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(client.DELETE('/v1/webhooks/{id}', { params: { path: { id } } })),
    onSuccess: () => {
      qc.removeQueries({ queryKey: keys.webhooks.detail(id) });
      qc.removeQueries({ queryKey: keys.webhooks.deliveries(id) });
      void qc.invalidateQueries({ queryKey: keys.webhooks.list() });
      onDeleted();
    },
  });
}
