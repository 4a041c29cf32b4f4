// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubFetch, testClientModule } from './fakeApi';
import type { Schemas } from '../../api/client';
import { keys } from '../../api/keys';
import { DEFAULT_PREFERENCES } from '../../api/extra';
import type { RecipeDiff, RecipeVersion } from './api';
import { HistoryPanel } from './HistoryPanel';

vi.mock('../../api/client', (original) => testClientModule(original as () => Promise<typeof import('../../api/client')>));

const recipe = {
  id: 'r1',
  name: 'Citra Pale',
  fermentables: [{ id: 'f1', name: 'Pale malt', amount_kg: 5 }],
  hops: [],
  yeasts: [],
  miscs: [],
  mash_steps: [],
  water_additions: [],
  fermentation_steps: [],
} as unknown as Schemas['RecipeDetail'];

const v = (number: number, message: string | null, current = false): RecipeVersion => ({
  number,
  message,
  current,
  summary: current ? '2 changes' : 'First version',
  created_at: '2026-12-07T10:00:00Z',
  updated_at: '2026-12-07T10:05:00Z',
});

const diff: RecipeDiff = {
  fields: [{ path: ['efficiency'], before: 0.72, after: 0.75 }],
  children: [
    { kind: 'fermentable', id: 'f1', change: 'changed', fields: [{ path: ['amount_kg'], before: 4.5, after: 5 }] },
    { kind: 'hop', id: 'h9', change: 'added', fields: [{ path: ['name'], before: null, after: 'Citra' }] },
  ],
};

function renderPanel() {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  qc.setQueryData(keys.me.preferences(), DEFAULT_PREFERENCES);
  const invalidated: unknown[] = [];
  const invalidate = qc.invalidateQueries.bind(qc);
  vi.spyOn(qc, 'invalidateQueries').mockImplementation((filters, options) => {
    invalidated.push(filters?.queryKey);
    return invalidate(filters, options);
  });
  render(
    <QueryClientProvider client={qc}>
      <MemoryRouter future={{ v7_startTransition: true, v7_relativeSplatPath: true }}>
        <HistoryPanel recipe={recipe} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { invalidated };
}

beforeEach(() => {
  // jsdom has <dialog> without its modal methods.
  HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
    this.open = true;
  };
  HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
    this.open = false;
  };
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the History panel', () => {
  it('asks for nothing until opened, then shows the timeline and a version’s changes', async () => {
    const calls = stubFetch((_m, path) => {
      if (path.startsWith('/v1/recipes/r1/versions?')) return { status: 200, body: [v(2, null, true), v(1, 'First brew')], total: 2 };
      if (path === '/v1/recipes/r1/versions/2/diff') return { status: 200, body: diff };
      if (path === '/v1/recipes/r1/lineage') return { status: 200, body: { ancestors: [], descendants: [] } };
      return { status: 404, body: { error: 'Not found' } };
    });
    renderPanel();
    expect(calls).toEqual([]);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'History' }));
    const list = await screen.findByRole('list', { name: 'Versions' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]?.textContent).toContain('Version 2');
    expect(items[0]?.textContent).toContain('Current');
    expect(items[1]?.textContent).toContain('First brew · Version 1');
    expect(items[1]?.textContent).not.toContain('Current');

    await user.click(within(items[0]!).getByRole('button', { name: 'Show changes in version 2' }));
    expect(await within(items[0]!).findByText('Efficiency: 72 % → 75 %')).toBeTruthy();
    expect(within(items[0]!).getByRole('list', { name: 'Fermentables' })?.textContent).toContain('Fermentable Pale malt changed: amount 4.5 kg → 5 kg');
    expect(within(items[0]!).getByRole('list', { name: 'Hops' })?.textContent).toContain('Hop Citra added');
    // The current version is the recipe: nothing to restore.
    expect(within(items[0]!).queryByRole('button', { name: /Restore/ })).toBeNull();
  });

  it('names the open version, and restores an older one after a confirm', async () => {
    const posted: unknown[] = [];
    stubFetch((method, path, body) => {
      if (path.startsWith('/v1/recipes/r1/versions?')) return { status: 200, body: [v(2, null, true), v(1, 'First brew')], total: 2 };
      if (path === '/v1/recipes/r1/lineage') return { status: 200, body: { ancestors: [], descendants: [] } };
      if (method === 'POST' && path === '/v1/recipes/r1/versions') {
        posted.push(body);
        return { status: 201, body: v(2, 'Dry hopped') };
      }
      if (method === 'POST' && path === '/v1/recipes/r1/versions/1/restore') return { status: 201, body: v(3, 'Restored version 1', true) };
      return { status: 404, body: { error: 'Not found' } };
    });
    const { invalidated } = renderPanel();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'History' }));
    await user.type(screen.getByLabelText('Version name'), 'Dry hopped');
    await user.click(screen.getByRole('button', { name: 'Save version' }));
    expect(await screen.findByText('Saved as “Dry hopped”.')).toBeTruthy();
    expect(posted).toEqual([{ message: 'Dry hopped' }]);
    expect(screen.getByLabelText<HTMLInputElement>('Version name').value).toBe('');

    const first = within(await screen.findByRole('list', { name: 'Versions' })).getAllByRole('listitem')[1]!;
    await user.click(within(first).getByRole('button', { name: 'Show changes in version 1' }));
    expect(within(first).getByText('The first version: nothing came before it.')).toBeTruthy();
    await user.click(within(first).getByRole('button', { name: 'Restore version 1' }));
    invalidated.length = 0;
    const dialog = screen.getByRole('dialog', { name: 'Restore version 1?' });
    await user.click(within(dialog).getByRole('button', { name: 'Restore' }));
    expect(await screen.findByText(/Restored version 1: the recipe is as it was then \(now version 3\)\./)).toBeTruthy();
    // The recipe with its children, and its stats with everything under them (the versions too).
    expect(invalidated).toEqual(expect.arrayContaining([keys.recipes.detail('r1'), keys.recipes.stats('r1')]));
    expect(keys.recipes.history('r1').slice(0, 3)).toEqual([...keys.recipes.stats('r1')]);
  });

  it('compares the recipe with another one only once it is chosen', async () => {
    const calls = stubFetch((_m, path) => {
      if (path.startsWith('/v1/recipes/r1/versions?')) return { status: 200, body: [v(1, null, true)], total: 1 };
      if (path === '/v1/recipes/r1/lineage') return { status: 200, body: { ancestors: [], descendants: [] } };
      if (path.startsWith('/v1/recipes?'))
        return {
          status: 200,
          body: [
            { id: 'r1', name: 'Citra Pale' },
            { id: 'r2', name: 'West Coast' },
            { id: 'r3', name: 'Twin Pale' },
          ],
          total: 3,
        };
      if (path === '/v1/recipes/r1/diff?against_recipe=r2')
        return {
          status: 200,
          body: {
            fields: [{ path: ['efficiency'], before: 0.72, after: 0.75 }],
            children: [
              { kind: 'fermentable', id: 'f1', against_id: 'f9', change: 'changed', fields: [{ path: ['amount_kg'], before: 4.5, after: 5 }] },
              { kind: 'hop', id: null, against_id: 'h9', change: 'removed', fields: [{ path: ['name'], before: 'Simcoe', after: null }] },
            ],
          },
        };
      if (path === '/v1/recipes/r1/diff?against_recipe=r3') return { status: 200, body: { fields: [], children: [] } };
      return { status: 404, body: { error: 'Not found' } };
    });
    renderPanel();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'History' }));
    const select = await screen.findByLabelText<HTMLSelectElement>('Compare with');
    // The other recipes only, and nothing compared yet.
    expect([...select.options].map((o) => o.text)).toEqual(['Choose a recipe…', 'West Coast', 'Twin Pale']);
    expect(calls.some((c) => c.includes('/diff'))).toBe(false);

    await user.selectOptions(select, 'r2');
    const form = screen.getByRole('form', { name: 'Compare with another recipe' });
    expect(await within(form).findByRole('heading', { name: 'Differences from West Coast' })).toBeTruthy();
    expect(within(form).getByRole('list', { name: 'Recipe' }).textContent).toBe('Efficiency: 72 % → 75 %');
    expect(within(form).getByRole('list', { name: 'Fermentables' }).textContent).toBe('Fermentable Pale malt differs: amount 4.5 kg → 5 kg');
    expect(within(form).getByRole('list', { name: 'Hops' }).textContent).toBe('Hop Simcoe: only in West Coast');

    await user.selectOptions(select, 'r3');
    expect(await within(form).findByText('No differences.')).toBeTruthy();
    expect(within(form).getByRole('heading', { name: 'Differences from Twin Pale' })).toBeTruthy();
  });

  it('says where the recipe was copied from and lists its copies', async () => {
    stubFetch((_m, path) => {
      if (path.startsWith('/v1/recipes/r1/versions?')) return { status: 200, body: [v(1, null, true)], total: 1 };
      if (path === '/v1/recipes/r1/lineage')
        return {
          status: 200,
          body: {
            ancestors: [{ id: 'p1', name: 'Mother Pale', parent_recipe_id: null, parent_version: null, created_at: '2026-12-01T10:00:00Z' }],
            descendants: [{ id: 'c1', name: 'Daughter Pale', parent_recipe_id: 'r1', parent_version: 1, created_at: '2026-12-06T10:00:00Z' }],
          },
        };
      return { status: 404, body: { error: 'Not found' } };
    });
    renderPanel();
    await userEvent.setup().click(screen.getByRole('button', { name: 'History' }));
    const parent = await screen.findByRole('link', { name: 'Mother Pale' });
    expect(parent.getAttribute('href')).toBe('/recipes/p1');
    expect(parent.closest('p')?.textContent).toContain('Copied from Mother Pale.');
    const copies = screen.getByRole('list', { name: 'Copies' });
    expect(within(copies).getByRole('link', { name: 'Daughter Pale' }).getAttribute('href')).toBe('/recipes/c1');
    expect(copies?.textContent).toContain('from version 1');
  });
});
