// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubFetch, testClientModule } from './fakeApi';
import type { Schemas } from '../../api/client';
import CopyShared from './CopyShared';
import { ShareButton } from './ShareDialog';

vi.mock('../../api/client', (original) => testClientModule(original as () => Promise<typeof import('../../api/client')>));

const recipe = { id: 'r1', name: 'Citra Pale' } as unknown as Schemas['RecipeDetail'];
const link = { token: 'tok1', url: '/shared/tok1', include_notes: false, created_at: '2026-12-07T10:00:00Z' };

function wrap(ui: React.ReactNode, path = '/') {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={qc}>
      <MemoryRouter initialEntries={[path]} future={{ v7_startTransition: true, v7_relativeSplatPath: true }}>
        {ui}
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
    this.open = true;
  };
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the Share dialog', () => {
  it('creates a link, updates its notes, and stops sharing', async () => {
    let live: typeof link | null = null;
    const calls = stubFetch((method, _path, body) => {
      if (method === 'GET') return live ? { status: 200, body: live } : { status: 404, body: { error: 'Not found' } };
      if (method === 'POST') {
        const created = !live;
        live = { ...link, include_notes: (body as { include_notes: boolean }).include_notes };
        return { status: created ? 201 : 200, body: live };
      }
      live = null;
      return { status: 204 };
    });
    wrap(<ShareButton recipe={recipe} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Share' }));
    const dialog = screen.getByRole('dialog', { name: 'Share “Citra Pale”' });
    expect(dialog.textContent).toContain('Anyone with the link can see this recipe, and nothing else of your account.');
    expect((await within(dialog).findByRole('status')).textContent).toBe('Not shared.');

    await user.click(within(dialog).getByRole('button', { name: 'Create link' }));
    const field = await within(dialog).findByLabelText<HTMLInputElement>('Share link');
    expect(field.value).toBe(`${window.location.origin}/shared/tok1`);
    expect(field.readOnly).toBe(true);
    expect(within(dialog).getByRole('button', { name: 'Copy link' })).toBeTruthy();

    await user.click(within(dialog).getByLabelText('Include notes'));
    expect(calls).toContain('POST /v1/recipes/r1/share {"include_notes":true}');

    await user.click(within(dialog).getByRole('button', { name: 'Stop sharing' }));
    expect(await within(dialog).findByText('Not shared: the link no longer works.')).toBeTruthy();
    expect(within(dialog).queryByLabelText('Share link')).toBeNull();
    expect(calls).toContain('DELETE /v1/recipes/r1/share');

    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('copying a shared recipe', () => {
  const routes = (
    <Routes>
      <Route path="/copy/:token" element={<CopyShared />} />
      <Route path="/recipes/:id" element={<h1>The copy</h1>} />
    </Routes>
  );

  it('copies it and opens the copy', async () => {
    const calls = stubFetch(() => ({ status: 201, body: { id: 'new1', name: 'Citra Pale' } }));
    wrap(routes, '/copy/tok1');
    expect(screen.getByRole('heading', { name: 'Copy a shared recipe' })).toBeTruthy();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Copy to my recipes' }));
    expect(await screen.findByRole('heading', { name: 'The copy' })).toBeTruthy();
    expect(calls).toEqual(['POST /v1/shared/tok1/copy']);
  });

  it('says when the link is no longer shared', async () => {
    stubFetch(() => ({ status: 404, body: { error: 'Not found' } }));
    wrap(routes, '/copy/gone');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Copy to my recipes' }));
    expect((await screen.findByRole('alert')).textContent).toBe('This link is no longer shared.');
  });
});
