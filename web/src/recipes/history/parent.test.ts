import { describe, expect, it } from 'vitest';
import type { LineageRecipe } from './api';
import { parentOf } from './parent';

const recipe = (id: string, parent: string | null): LineageRecipe => ({
  id,
  name: id,
  parent_recipe_id: parent,
  parent_version: parent ? 1 : null,
  created_at: '2026-12-01T10:00:00Z',
});

describe('the parent among the ancestors', () => {
  const root = recipe('root', null);
  const middle = recipe('middle', 'root');
  it('is the one the recipe names', () => {
    expect(parentOf([root, middle], 'root')).toBe(root);
    expect(parentOf([root, middle], 'gone')).toBeUndefined();
  });
  it('is the nearest one when the recipe does not say, in either order', () => {
    expect(parentOf([root, middle], undefined)).toBe(middle);
    expect(parentOf([middle, root], null)).toBe(middle);
    expect(parentOf([root], null)).toBe(root);
    expect(parentOf([], null)).toBeUndefined();
  });
});
