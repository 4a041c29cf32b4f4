// The inventory's queries and writes: a page of items, adding, adjusting, editing, deleting.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { client, unwrap, unwrapPage, type Schemas } from '../api/client';
import { keys } from '../api/keys';

/** A page of items (`size` a page); the last page stays while the next loads. */
export function useInventoryPage(page: number, size: number) {
  return useQuery({
    queryKey: keys.inventory.page(page, size),
    queryFn: () => unwrapPage(client.GET('/v1/inventory', { params: { query: { limit: size, offset: page * size } } })),
    placeholderData: keepPreviousData,
  });
}

export function useAddItem(onAdded: () => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: Schemas['CreateInventoryRequest']) => unwrap(client.POST('/v1/inventory', { body })),
    onSuccess: () => {
      onAdded();
      void qc.invalidateQueries({ queryKey: keys.inventory.lists() });
    },
  });
}

/**
 * An item's stock and its edits. `adjust.mutate(sign)` sends `delta(sign)`, the change in the
 * item's own unit (it throws, failing the adjust, when nothing usable was typed). Each write
 * refreshes the lists after its own reaction.
 */
export function useItemWrites(id: string, delta: (sign: 1 | -1) => number, handlers: { onAdjusted: () => void; onSaved: () => void; onDeleted: () => void }) {
  const qc = useQueryClient();
  const refresh = () => qc.invalidateQueries({ queryKey: keys.inventory.lists() });
  const adjust = useMutation({
    mutationFn: (sign: 1 | -1) => unwrap(client.POST('/v1/inventory/{id}/adjust', { params: { path: { id } }, body: { delta: delta(sign) } })),
    onSuccess: () => {
      handlers.onAdjusted();
      void refresh();
    },
  });
  const save = useMutation({
    mutationFn: (body: Schemas['UpdateInventoryRequest']) => unwrap(client.PATCH('/v1/inventory/{id}', { params: { path: { id } }, body })),
    onSuccess: () => {
      handlers.onSaved();
      void refresh();
    },
  });
  const del = useMutation({
    mutationFn: () => unwrap(client.DELETE('/v1/inventory/{id}', { params: { path: { id } } })),
    onSuccess: () => {
      handlers.onDeleted();
      void refresh();
    },
  });
  return { adjust, save, del };
}
