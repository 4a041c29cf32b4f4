import { partialMatchKey, type QueryKey } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { keys } from './keys';

type Factory = (...args: never[]) => QueryKey;

/** Every key the factory makes, by group, with sample arguments. */
function everyKey(): [group: string, name: string, key: QueryKey][] {
  // Extra arguments are ignored by the factories that take none.
  const samples: Record<string, unknown[]> = {
    list: [{ q: 'ipa', sort: 'name', page: 2 }],
    page: [1, 50],
    deliveryPage: ['id-1', 3],
    versions: ['id-1', 20],
    diff: ['id-1', 2],
    compare: ['id-1', 'id-2'],
  };
  return Object.entries(keys).flatMap(([group, fns]) =>
    Object.entries(fns as Record<string, Factory>).map(([name, fn]) => {
      const args = (samples[name] ?? (fn.length ? ['id-1'] : [])) as never[];
      return [group, name, fn(...args)] as [string, string, QueryKey];
    }),
  );
}

const prefixOf = (a: QueryKey, b: QueryKey) => partialMatchKey(b, a);

describe('query keys', () => {
  it('give each group one root, and no root is a prefix of another', () => {
    const roots = new Map<string, string>();
    for (const [group, , key] of everyKey()) {
      const root = String(key[0]);
      expect(roots.get(group) ?? root, `${group} has one root`).toBe(root);
      roots.set(group, root);
    }
    const all = [...roots.values()];
    expect(new Set(all).size).toBe(all.length);
    for (const a of all) for (const b of all) if (a !== b) expect(b.startsWith(a), `${a} / ${b}`).toBe(false);
  });

  it('never let a key of one group match a key of another', () => {
    const all = everyKey();
    for (const [ga, na, a] of all) for (const [gb, nb, b] of all) if (ga !== gb) expect(prefixOf(a, b), `${ga}.${na} ⊂ ${gb}.${nb}`).toBe(false);
  });

  it('keep the signed-in session apart from a brew session', () => {
    expect(prefixOf(keys.auth.session(), keys.brewSessions.detail('s1'))).toBe(false);
    expect(prefixOf(keys.brewSessions.list(), keys.brewSessions.detail('s1'))).toBe(false);
  });

  it('refresh the lists without the item pages', () => {
    expect(prefixOf(keys.recipes.lists(), keys.recipes.list({ q: '', sort: 'name', page: 0 }))).toBe(true);
    expect(prefixOf(keys.recipes.lists(), keys.recipes.names())).toBe(true);
    expect(prefixOf(keys.recipes.lists(), keys.recipes.detail('r1'))).toBe(false);
    expect(prefixOf(keys.recipes.lists(), keys.recipes.stats('r1'))).toBe(false);
    expect(prefixOf(keys.recipes.allStats(), keys.recipes.stats('r1'))).toBe(true);
    expect(prefixOf(keys.recipes.stats('r1'), keys.recipes.explain('r1'))).toBe(true);
    expect(prefixOf(keys.recipes.stats('r1'), keys.recipes.versions('r1', 20))).toBe(true);
    expect(prefixOf(keys.recipes.history('r1'), keys.recipes.diff('r1', 3))).toBe(true);
    expect(prefixOf(keys.recipes.history('r1'), keys.recipes.compare('r1', 'r2'))).toBe(true);
    expect(prefixOf(keys.recipes.history('r2'), keys.recipes.compare('r1', 'r2'))).toBe(false);
    expect(prefixOf(keys.recipes.history('r1'), keys.recipes.explain('r1'))).toBe(false);
    expect(prefixOf(keys.recipes.detail('r1'), keys.recipes.share('r1'))).toBe(false);
    expect(prefixOf(keys.inventory.lists(), keys.inventory.page(3, 50))).toBe(true);
    expect(prefixOf(keys.webhooks.deliveries('w1'), keys.webhooks.deliveryPage('w1', 2))).toBe(true);
    expect(prefixOf(keys.webhooks.list(), keys.webhooks.detail('w1'))).toBe(false);
    expect(prefixOf(keys.devices.list(), keys.devices.detail('d1'))).toBe(false);
    expect(prefixOf(keys.equipment.list(), keys.equipment.detail('e1'))).toBe(false);
  });
});
