import { describe, expect, it } from 'vitest';
import type { Row } from './childSpec';
import { readFileSync } from 'node:fs';
import { gristShare, hopOrder, mashWater, specs } from './recipeSpecs';
import { DEFAULT_PREFERENCES } from '../api/extra';
import type { Schemas } from '../api/client';

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

describe('mash water', () => {
  const step = (id: string, type: string): Row => ({ id, name: id, sort_order: 0, type });
  const water = (id: string, w: Partial<Schemas['MashStepWater']>): Schemas['MashStepWater'] => ({
    mash_step_id: id,
    impossible: false,
    infusion_volume_liters: null,
    infusion_temperature_c: null,
    decoction_volume_liters: null,
    ...w,
  });
  const stats = {
    mash_steps: [
      water('a', {}),
      water('b', { infusion_volume_liters: 4.62, infusion_temperature_c: 100 }),
      water('c', { infusion_volume_liters: 3.5, infusion_temperature_c: 80 }),
      water('d', { decoction_volume_liters: 5.22 }),
      water('e', { impossible: true, infusion_temperature_c: 70 }),
    ],
  } as Schemas['StatsReport'];
  const us = { ...DEFAULT_PREFERENCES, amounts: 'us', temperature: 'f' } as const;
  it('says what the API says each step adds, in the person’s units', () => {
    expect(mashWater(step('b', 'infusion'), stats, DEFAULT_PREFERENCES)).toBe('Add 4.62 L of boiling water');
    expect(mashWater(step('c', 'infusion'), stats, DEFAULT_PREFERENCES)).toBe('Add 3.5 L of water at 80 °C');
    expect(mashWater(step('c', 'infusion'), stats, us)).toBe('Add 0.92 gal of water at 176 °F');
    expect(mashWater(step('b', 'infusion'), stats, us)).toBe('Add 1.22 gal of boiling water');
    expect(mashWater(step('d', 'decoction'), stats, us)).toBe('Pull 1.38 gal of thick mash');
    expect(mashWater(step('e', 'infusion'), stats, DEFAULT_PREFERENCES)).toBe('No infusion can reach this rest');
  });
  it('is a dash for the strike, and before the statistics know the step', () => {
    expect(mashWater(step('a', 'infusion'), stats, DEFAULT_PREFERENCES)).toBe('—');
    expect(mashWater(step('new', 'infusion'), stats, DEFAULT_PREFERENCES)).toBe('—');
    expect(mashWater(step('b', 'infusion'), undefined, DEFAULT_PREFERENCES)).toBe('—');
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
