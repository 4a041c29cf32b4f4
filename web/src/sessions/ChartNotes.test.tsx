// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubFetch, testClientModule } from '../recipes/history/fakeApi';
import type { Schemas } from '../api/client';
import { useSessionNotes } from './api';
import { chartMarks, noteMarks, stepMarks } from './chartMarks';
import { ChartMarkList, NoteForm } from './ChartNotes';

vi.mock('../api/client', (original) => testClientModule(original as () => Promise<typeof import('../api/client')>));

type Note = Schemas['SessionNote'];

const primary = {
  id: 'st1',
  session_id: 's1',
  kind: 'rest',
  name: 'Primary',
  temperature_c: 19,
  amount_grams: null,
  due_at: null,
  due_at_gravity: null,
  due_at_attenuation_percent: null,
  days_after_previous: null,
  due: true,
  became_due_at: '2026-12-01T09:00:00.000Z',
  sort_order: 0,
} satisfies Schemas['ScheduledStep'];

/** The notes as the session page wires them: the API's notes and a schedule change, marked. */
function Notes() {
  const notes = useSessionNotes('s1');
  const marks = chartMarks(
    noteMarks(notes.data ?? []),
    stepMarks(
      [primary],
      (c) => `${c} °C`,
      (g) => `${g} g`,
    ),
  );
  return (
    <>
      <NoteForm sessionId="s1" />
      <ChartMarkList sessionId="s1" marks={marks} />
    </>
  );
}

function wrap() {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={qc}>
      <Notes />
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const stored = (over: Partial<Note>): Note => ({
  id: 'n1',
  session_id: 's1',
  at: '2026-12-02T08:00:00.000Z',
  text: 'Krausen up',
  created_at: '2026-12-02T08:00:00.000Z',
  updated_at: '2026-12-02T08:00:00.000Z',
  ...over,
});

describe('notes on the chart', () => {
  it('adds a note at the time given, lists it after the schedule change, and edits its text', async () => {
    let notes: Note[] = [stored({})];
    const calls = stubFetch((method, _path, body) => {
      if (method === 'GET') return { status: 200, body: notes, total: notes.length };
      if (method === 'POST') {
        const b = body as { at: string; text: string };
        const note = stored({ id: 'n2', at: b.at, text: b.text });
        notes = [...notes, note];
        return { status: 201, body: note };
      }
      const b = body as { text: string };
      const note = { ...notes[0]!, text: b.text };
      notes = [note, ...notes.slice(1)];
      return { status: 200, body: note };
    });
    wrap();
    const user = userEvent.setup();
    const list = await screen.findByRole('list', { name: 'On the chart' });
    expect(await within(list).findByText('Krausen up')).toBeTruthy();
    // The schedule's change comes first (it is earlier) and cannot be edited; the note can.
    const items = within(list).getAllByRole('listitem');
    expect(items[0]!.textContent).toContain('Primary · 19 °C');
    expect(within(items[0]!).queryByRole('button')).toBeNull();
    expect(within(items[1]!).getByRole('button', { name: /^Edit the note of/ })).toBeTruthy();

    const time = screen.getByLabelText<HTMLInputElement>('Note time');
    expect(time.value).not.toBe('');
    await user.clear(time);
    await user.type(time, '2026-12-05T07:30');
    await user.type(screen.getByLabelText('Note text'), 'Dry hopped');
    await user.click(screen.getByRole('button', { name: 'Add note' }));
    expect(await within(list).findByText('Dry hopped')).toBeTruthy();
    const post = calls.find((c) => c.startsWith('POST /v1/sessions/s1/notes'));
    expect(JSON.parse(post!.slice(post!.indexOf('{')))).toEqual({ at: new Date('2026-12-05T07:30').toISOString(), text: 'Dry hopped' });
    expect(screen.getByLabelText<HTMLTextAreaElement>('Note text').value).toBe('');

    await user.click(within(list).getAllByRole('button', { name: /^Edit the note of/ })[0]!);
    const editor = screen.getByRole('form', { name: /^Edit the note of/ });
    const text = within(editor).getByLabelText<HTMLTextAreaElement>('Note text');
    await user.clear(text);
    await user.type(text, 'Krausen fell');
    await user.click(within(editor).getByRole('button', { name: 'Save' }));
    expect(await within(list).findByText('Krausen fell')).toBeTruthy();
    // The time was not touched: only the text is sent, so the stored instant stays exact.
    const patch = calls.find((c) => c.startsWith('PATCH /v1/notes/n1'));
    expect(patch).toBe('PATCH /v1/notes/n1 {"text":"Krausen fell"}');
  });

  it('sends no time when the default (now) was left alone, so the server stamps it exactly', async () => {
    const calls = stubFetch((method, _path, body) =>
      method === 'GET'
        ? { status: 200, body: [], total: 0 }
        : { status: 201, body: stored({ id: 'n3', at: '2026-12-07T10:00:00.123Z', text: (body as { text: string }).text }) },
    );
    wrap();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Note text'), 'Smells of pear');
    await user.click(screen.getByRole('button', { name: 'Add note' }));
    expect(await screen.findByText('Smells of pear')).toBeTruthy();
    expect(calls).toContain('POST /v1/sessions/s1/notes {"text":"Smells of pear"}');
  });

  it("shows the API's refusal next to the field it names and keeps what was typed", async () => {
    stubFetch((method) =>
      method === 'GET'
        ? { status: 200, body: [], total: 0 }
        : {
            status: 422,
            body: {
              error: 'Validation failed',
              details: [
                {
                  code: 'too_big',
                  path: ['at'],
                  message: 'A note cannot be placed more than 5 minutes in the future',
                  maximum: 0,
                  inclusive: true,
                  type: 'date',
                },
              ],
            },
          },
    );
    wrap();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Note text'), 'Bottled');
    await user.click(screen.getByRole('button', { name: 'Add note' }));
    expect(await screen.findByText('A note cannot be placed more than 5 minutes in the future')).toBeTruthy();
    expect(screen.getByLabelText('Note time').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText<HTMLTextAreaElement>('Note text').value).toBe('Bottled');
  });
});
