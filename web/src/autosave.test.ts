import { QueryClient, QueryObserver, type QueryKey } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from './api/client';
import { keys } from './api/keys';
import { fieldSaver } from './autosave';

type Recipe = { id: string; name: string; hops: string[] };

/** A query with an observer, so an invalidation refetches it; counts its fetches. */
function watched(qc: QueryClient, queryKey: QueryKey) {
  const fetches = { n: 0 };
  const unsubscribe = new QueryObserver(qc, { queryKey, queryFn: () => ++fetches.n, staleTime: Infinity }).subscribe(() => undefined);
  return { fetches, unsubscribe };
}

describe('fieldSaver', () => {
  it('sends one field, keeps the answer, refreshes what depends on it', async () => {
    const qc = new QueryClient();
    qc.setQueryData<Recipe>(keys.recipes.detail('r1'), { id: 'r1', name: 'Old', hops: ['Saaz'] });
    const stats = watched(qc, keys.recipes.stats('r1'));
    const list = watched(qc, keys.recipes.lists());
    const other = watched(qc, keys.recipes.stats('r2'));
    await vi.waitFor(() => expect(stats.fetches.n + list.fetches.n + other.fetches.n).toBe(3));

    const patch = vi.fn(async (body: { name?: string }) => ({ id: 'r1', name: body.name ?? '' }));
    const save = fieldSaver(qc, {
      patch,
      detail: keys.recipes.detail('r1'),
      merge: (cached: Recipe, answer) => ({ ...cached, ...answer }),
      awaited: [keys.recipes.stats('r1')],
      refresh: [keys.recipes.lists()],
    });
    await save('name')('New');

    expect(patch).toHaveBeenCalledWith({ name: 'New' });
    // The answer is merged: the children the PATCH does not return stay.
    expect(qc.getQueryData(keys.recipes.detail('r1'))).toEqual({ id: 'r1', name: 'New', hops: ['Saaz'] });
    // The statistics are fresh when the save resolves; the list follows.
    expect(qc.getQueryData(keys.recipes.stats('r1'))).toBe(2);
    await vi.waitFor(() => expect(list.fetches.n).toBe(2));
    expect(other.fetches.n).toBe(1);
    for (const w of [stats, list, other]) w.unsubscribe();
  });

  it('puts a whole answer in place without merge', async () => {
    const qc = new QueryClient();
    qc.setQueryData(keys.devices.detail('d1'), { id: 'd1', name: 'Old' });
    await fieldSaver(qc, { patch: async (b: { name?: string }) => ({ id: 'd1', name: b.name }), detail: keys.devices.detail('d1') })('name')('Tilt');
    expect(qc.getQueryData(keys.devices.detail('d1'))).toEqual({ id: 'd1', name: 'Tilt' });
  });

  it('lets a refusal through and changes nothing', async () => {
    const qc = new QueryClient();
    qc.setQueryData(keys.equipment.detail('e1'), { id: 'e1', batch_size_liters: 20 });
    const list = watched(qc, keys.equipment.list());
    await vi.waitFor(() => expect(list.fetches.n).toBe(1));
    const refused = new ApiError(422, 'Validation failed', [{ code: 'too_small', path: ['batch_size_liters'], message: 'Must be at least 1 L' }]);
    const save = fieldSaver(qc, {
      patch: async (_: { batch_size_liters?: number | null }) => {
        throw refused;
      },
      detail: keys.equipment.detail('e1'),
      refresh: [keys.equipment.list()],
    });
    await expect(save('batch_size_liters')(0)).rejects.toBe(refused);
    expect(qc.getQueryData(keys.equipment.detail('e1'))).toEqual({ id: 'e1', batch_size_liters: 20 });
    expect(list.fetches.n).toBe(1);
    list.unsubscribe();
  });
});
