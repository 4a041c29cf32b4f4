import { describe, expect, it } from 'vitest';
import type { Schemas } from './client';
import { allOf } from './enums';

type HopForm = Schemas['HopForm'];

describe('allOf', () => {
  it('returns the list itself', () => {
    const list = ['pellet', 'plug', 'leaf', 'extract'] as const;
    expect(allOf<HopForm>()(list)).toBe(list);
  });

  // The rest is checked by `tsc` (npm run typecheck): each @ts-expect-error must meet its error.
  it('refuses, at compile time, a list that misses a member or names a stranger', () => {
    const complete = [
      allOf<HopForm>()(['pellet', 'plug', 'leaf', 'extract']),
      allOf<HopForm>()([
        ['pellet', 'Pellet'],
        ['plug', 'Plug'],
        ['leaf', 'Leaf'],
        ['extract', 'Extract'],
      ]),
      allOf<HopForm>()([{ type: 'pellet' }, { type: 'plug' }, { type: 'leaf' }, { type: 'extract' }]),
    ];
    // @ts-expect-error 'extract' is missing
    const missing = allOf<HopForm>()(['pellet', 'plug', 'leaf']);
    // @ts-expect-error 'extract' is missing
    const missingPair = allOf<HopForm>()([
      ['pellet', 'Pellet'],
      ['plug', 'Plug'],
      ['leaf', 'Leaf'],
    ]);
    // @ts-expect-error 'cone' is not a HopForm
    const stranger = allOf<HopForm>()(['pellet', 'plug', 'leaf', 'extract', 'cone']);
    expect([complete.length, missing.length, missingPair.length, stranger.length]).toEqual([3, 3, 3, 5]);
  });
});
