import { describe, expect, it } from 'vitest';
import { isOpen, sessionOptions } from './deviceSessions';

const s = (id: string, status: 'planned' | 'brewing' | 'fermenting' | 'completed' | 'abandoned', brew_date: string, name = `Batch ${id}`) => ({
  id,
  name,
  status,
  brew_date,
});

describe('sessions a device can post to', () => {
  it('open means not completed and not abandoned', () => {
    expect(isOpen({ status: 'planned' })).toBe(true);
    expect(isOpen({ status: 'fermenting' })).toBe(true);
    expect(isOpen({ status: 'completed' })).toBe(false);
    expect(isOpen({ status: 'abandoned' })).toBe(false);
  });
  it('lists the open sessions, newest brew day first', () => {
    const opts = sessionOptions(
      [s('a', 'fermenting', '2026-10-01'), s('b', 'completed', '2026-11-01'), s('c', 'planned', '2026-11-20'), s('d', 'abandoned', '2026-11-02')],
      null,
    );
    expect(opts.map(([id]) => id)).toEqual(['c', 'a']);
    expect(opts[0]![1]).toBe('Batch c (planned, brew day 2026-11-20)');
  });
  it('keeps the assigned session, marked, even when it is closed or not in the list', () => {
    const closed = sessionOptions([s('a', 'fermenting', '2026-10-01'), s('b', 'completed', '2026-11-01')], 'b');
    expect(closed.map(([id]) => id)).toEqual(['b', 'a']);
    expect(closed[0]![1]).toMatch(/completed, brew day 2026-11-01\): takes no readings$/);
    const missing = sessionOptions([s('a', 'fermenting', '2026-10-01')], 'zzz');
    expect(missing[0]).toEqual(['zzz', 'The assigned brew session']);
  });
});
