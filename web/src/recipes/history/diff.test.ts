import { describe, expect, it } from 'vitest';
import { DEFAULT_PREFERENCES, type Preferences } from '../../api/extra';
import type { ChildChange } from './api';
import { childLine, compareChildLine, formatValue, groupChildren, recipeFieldLine, versionName } from './diff';

const metric = DEFAULT_PREFERENCES;
const us: Preferences = { ...DEFAULT_PREFERENCES, amounts: 'us', temperature: 'f' };

describe('version names', () => {
  it('are the name given, else the number', () => {
    expect(versionName({ number: 3, message: 'Less crystal' })).toBe('Less crystal');
    expect(versionName({ number: 3, message: null })).toBe('Version 3');
    expect(versionName({ number: 4, message: '  ' })).toBe('Version 4');
  });
});

describe("the recipe's own fields", () => {
  it('show quantities in the account units', () => {
    expect(recipeFieldLine({ path: ['efficiency'], before: 0.72, after: 0.75 }, metric)).toBe('Efficiency: 72 % → 75 %');
    expect(recipeFieldLine({ path: ['batch_size_liters'], before: 20, after: 23 }, metric)).toBe('Batch size: 20 L → 23 L');
    expect(recipeFieldLine({ path: ['batch_size_liters'], before: 18.92705892, after: 20 }, us)).toBe('Batch size: 5 gal → 5.28 gal');
    expect(recipeFieldLine({ path: ['boil_time_minutes'], before: 60, after: 90 }, metric)).toBe('Boil time: 60 min → 90 min');
  });
  it('show words and choices as they are read', () => {
    expect(recipeFieldLine({ path: ['name'], before: 'Pale', after: 'Citra Pale' }, metric)).toBe('Name: Pale → Citra Pale');
    expect(recipeFieldLine({ path: ['type'], before: 'all_grain', after: 'partial_mash' }, metric)).toBe('Type: All grain → Partial mash');
    expect(recipeFieldLine({ path: ['notes'], before: null, after: 'Mash high' }, metric)).toBe('Notes: — → Mash high');
  });
  it('say a reference was set, changed or removed (its id means nothing to read)', () => {
    expect(recipeFieldLine({ path: ['equipment_id'], before: null, after: 'a1b2' }, metric)).toBe('Equipment profile set');
    expect(recipeFieldLine({ path: ['equipment_id'], before: 'a1b2', after: 'c3d4' }, metric)).toBe('Equipment profile changed');
    expect(recipeFieldLine({ path: ['water_profile_id'], before: 'a1b2', after: null }, metric)).toBe('Source water removed');
  });
  it('name a field they do not know by its path, its values raw', () => {
    expect(recipeFieldLine({ path: ['carbonation_volumes'], before: 2.4, after: 2.6 }, metric)).toBe('Carbonation volumes: 2.4 → 2.6');
    expect(recipeFieldLine({ path: ['water', 'ph'], before: 5.4, after: 5.3 }, metric)).toBe('Water ph: 5.4 → 5.3');
  });
});

describe('values', () => {
  it('shorten long text and show other values plainly', () => {
    expect(formatValue('x'.repeat(100), {}, metric)).toBe(`${'x'.repeat(59)}…`);
    expect(formatValue(true, {}, metric)).toBe('yes');
    expect(formatValue(0.1 + 0.2, {}, metric)).toBe('0.3');
    expect(formatValue(['a'], {}, metric)).toBe('["a"]');
    expect(formatValue(undefined, {}, metric)).toBe('—');
  });
});

const citra: ChildChange = {
  kind: 'hop',
  id: 'h1',
  change: 'added',
  fields: [
    { path: ['name'], before: null, after: 'Citra' },
    { path: ['amount_grams'], before: null, after: 30 },
  ],
};

describe('children', () => {
  it('say what was added or removed, by name', () => {
    expect(childLine(citra, metric)).toBe('Hop Citra added');
    const removed: ChildChange = { kind: 'misc', id: 'm1', change: 'removed', fields: [{ path: ['name'], before: 'Irish moss', after: null }] };
    expect(childLine(removed, metric)).toBe('Other ingredient Irish moss removed');
  });
  it('list the fields of a change in the account units', () => {
    const pale: ChildChange = { kind: 'fermentable', id: 'f1', change: 'changed', fields: [{ path: ['amount_kg'], before: 4.5, after: 5 }] };
    expect(childLine(pale, metric, 'Pale malt')).toBe('Fermentable Pale malt changed: amount 4.5 kg → 5 kg');
    expect(childLine(pale, us, 'Pale malt')).toBe('Fermentable Pale malt changed: amount 9.92 lb → 11.02 lb');
    const hop: ChildChange = {
      kind: 'hop',
      id: 'h1',
      change: 'changed',
      fields: [
        { path: ['use'], before: 'boil', after: 'dry_hop' },
        { path: ['temperature_c'], before: null, after: 80 },
      ],
    };
    expect(childLine(hop, metric, 'Citra')).toBe('Hop Citra changed: use Boil → Dry hop; stand temperature — → 80 °C');
  });
  it('take the new name from the change, and do without one', () => {
    const renamed: ChildChange = { kind: 'yeast', id: 'y1', change: 'changed', fields: [{ path: ['name'], before: 'US-05', after: 'S-04' }] };
    expect(childLine(renamed, metric, 'US-05')).toBe('Yeast S-04 changed: name US-05 → S-04');
    const step: ChildChange = { kind: 'mash_step', id: null, change: 'changed', fields: [{ path: ['duration_minutes'], before: 60, after: 75 }] };
    expect(childLine(step, metric)).toBe('A mash step changed: duration 60 min → 75 min');
  });
  it('say a child moved rather than its position', () => {
    const moved: ChildChange = { kind: 'hop', id: 'h1', change: 'changed', fields: [{ path: ['sort_order'], before: 0, after: 2 }] };
    expect(childLine(moved, metric, 'Citra')).toBe('Hop Citra changed: moved');
  });
  it('name a water addition by its agent', () => {
    const salt: ChildChange = {
      kind: 'water_addition',
      id: 'w1',
      change: 'added',
      fields: [
        { path: ['agent'], before: null, after: 'calcium_chloride' },
        { path: ['amount'], before: null, after: 2 },
      ],
    };
    expect(childLine(salt, metric)).toBe('Water addition Calcium chloride added');
  });
  it('say how they differ from another recipe: only here, only there, or the other’s value first', () => {
    expect(compareChildLine(citra, metric, 'West Coast')).toBe('Hop Citra: only in this recipe');
    const theirs: ChildChange = {
      kind: 'misc',
      id: null,
      against_id: 'm9',
      change: 'removed',
      fields: [{ path: ['name'], before: 'Irish moss', after: null }],
    };
    expect(compareChildLine(theirs, metric, 'West Coast')).toBe('Other ingredient Irish moss: only in West Coast');
    const pale: ChildChange = { kind: 'fermentable', id: 'f1', against_id: 'f9', change: 'changed', fields: [{ path: ['amount_kg'], before: 4.5, after: 5 }] };
    expect(compareChildLine(pale, metric, 'West Coast', 'Pale malt')).toBe('Fermentable Pale malt differs: amount 4.5 kg → 5 kg');
    const moved: ChildChange = { kind: 'hop', id: 'h1', against_id: 'h9', change: 'changed', fields: [{ path: ['sort_order'], before: 0, after: 2 }] };
    expect(compareChildLine(moved, metric, 'West Coast', 'Citra')).toBe('Hop Citra differs: in another place in the list');
    expect(compareChildLine({ ...moved, fields: [] }, metric, 'West Coast')).toBe('A hop differs');
  });
  it('are grouped by kind in the order of the recipe page', () => {
    const yeast: ChildChange = { kind: 'yeast', id: 'y1', change: 'removed', fields: [] };
    const malt: ChildChange = { kind: 'fermentable', id: 'f1', change: 'added', fields: [] };
    expect(groupChildren([yeast, citra, malt]).map((g) => [g.title, g.changes.length])).toEqual([
      ['Fermentables', 1],
      ['Hops', 1],
      ['Yeasts', 1],
    ]);
  });
});
