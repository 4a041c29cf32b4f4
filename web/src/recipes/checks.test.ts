import { describe, expect, it } from 'vitest';
import { hasField } from './checks';

describe('where a check is shown', () => {
  it('beside a recipe field or a child row field', () => {
    expect(hasField(['efficiency'])).toBe(true);
    expect(hasField(['equipment_id'])).toBe(true);
    expect(hasField(['hops', '0193a0c2-1111-7000-8000-000000000000', 'time_minutes'])).toBe(true);
    expect(hasField(['mash_steps', '0193a0c2-1111-7000-8000-000000000000', 'temperature_c'])).toBe(true);
  });
  it('in the list at the top for a whole list, the water or anything unknown', () => {
    expect(hasField(['hops'])).toBe(false);
    expect(hasField(['yeasts'])).toBe(false);
    expect(hasField(['water_additions'])).toBe(false);
    expect(hasField([])).toBe(false);
    expect(hasField(['recipes', 'x', 'y'])).toBe(false);
  });
});
