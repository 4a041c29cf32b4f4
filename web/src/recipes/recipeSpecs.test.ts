import { describe, expect, it } from 'vitest';
import type { Row } from './childSpec';
import { readFileSync } from 'node:fs';
import { gristShare, hopOrder, specs } from './recipeSpecs';

const hop = (id: string, use: string, time: number, sort = 0): Row => ({ id, name: id, sort_order: sort, use, time_minutes: time });

describe('hop order', () => {
  it('is brew-day order: first wort, boil by time, whirlpool, dry hop', () => {
    const rows = [
      hop('dry', 'dry_hop', 4320),
      hop('b10', 'boil', 10),
      hop('wp', 'whirlpool', 20),
      hop('b60', 'boil', 60),
      hop('fw', 'first_wort', 60),
      hop('flame', 'aroma', 0),
    ];
    expect(hopOrder(rows).map((r) => r.id)).toEqual(['fw', 'b60', 'b10', 'flame', 'wp', 'dry']);
  });
  it('keeps the API order for equal additions and leaves the rows as they are', () => {
    const rows = [hop('a', 'boil', 15, 0), hop('b', 'boil', 15, 1)];
    expect(hopOrder(rows).map((r) => r.id)).toEqual(['a', 'b']);
    expect(rows.map((r) => r.sort_order)).toEqual([0, 1]);
  });
});

describe('grist share', () => {
  const rows: Row[] = [
    { id: 'a', name: 'Maris Otter', sort_order: 0, amount_kg: 5.5 },
    { id: 'b', name: 'Crystal 40', sort_order: 1, amount_kg: 0.3 },
  ];
  it('is each fermentable’s share of the mass', () => {
    expect(gristShare(rows[0]!, rows)).toBe('94.8 %');
    expect(gristShare(rows[1]!, rows)).toBe('5.2 %');
  });
  it('is a dash with no mass at all', () => {
    expect(gristShare({ ...rows[0]!, amount_kg: 0 }, [{ ...rows[0]!, amount_kg: 0 }])).toBe('—');
  });
});

// The API's entity of each table (its schema in the OpenAPI snapshot the typed client is generated from).
const entities = {
  fermentables: 'Fermentable',
  hops: 'Hop',
  yeasts: 'Yeast',
  miscs: 'Misc',
  mash_steps: 'MashStep',
  water_additions: 'WaterAddition',
  fermentation_steps: 'FermentationStep',
} as const;

describe('child tables', () => {
  it('edit only fields the API answers for their kind, by the same names', () => {
    const doc = JSON.parse(readFileSync(new URL('../../../api/openapi.json', import.meta.url), 'utf8')) as {
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
    };
    for (const { key, spec } of specs) {
      const properties = Object.keys(doc.components.schemas[entities[key]]?.properties ?? {});
      expect(properties.length, key).toBeGreaterThan(0);
      for (const col of spec.cols) expect(properties, `${key}.${col.key}`).toContain(col.key);
    }
  });
});
