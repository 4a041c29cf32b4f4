import { describe, expect, it } from 'vitest';
import { DEFAULT_PREFERENCES } from '../api/extra';
import { fillFrom, hintFor, itemBodyFrom } from './fill';
import type { CatalogItems } from './types';

const citra: CatalogItems['hops'] = {
  id: 'h1',
  source: 'builtin',
  name: 'Citra',
  aliases: [],
  alpha_acid: 12,
  beta_acid: 4,
  origin: 'United States',
  purpose: 'aroma',
};
const pale: CatalogItems['fermentables'] = {
  id: 'f1',
  source: 'builtin',
  name: 'Maris Otter',
  aliases: [],
  type: 'grain',
  color_srm: 3,
  yield_percent: 81,
  origin: 'United Kingdom',
  supplier: 'Simpsons',
  diastatic_power_lintner: 120,
};
const us05: CatalogItems['yeasts'] = {
  id: 'y1',
  source: 'builtin',
  name: 'Safale American',
  aliases: ['US-05'],
  lab: 'Fermentis',
  product_id: 'US-05',
  type: 'ale',
  form: 'dry',
  attenuation: 80,
  attenuation_min: 78,
  attenuation_max: 82,
  min_temp_c: 18,
  max_temp_c: 26,
  flocculation: 'medium',
};

describe('catalogue hints', () => {
  it('name alpha acid and origin for a hop', () => {
    expect(hintFor('hops', citra, DEFAULT_PREFERENCES)).toBe('12 % AA · United States');
  });
  it('give a malt its colour in the person\u2019s unit and its maltster', () => {
    expect(hintFor('fermentables', pale, DEFAULT_PREFERENCES)).toBe('3 SRM · Simpsons');
    expect(hintFor('fermentables', pale, { ...DEFAULT_PREFERENCES, color: 'ebc' })).toBe('5.9 EBC · Simpsons');
  });
  it('give a yeast its lab, product and attenuation range', () => {
    expect(hintFor('yeasts', us05, DEFAULT_PREFERENCES)).toBe('Fermentis US-05 · 78–82 %');
    expect(hintFor('yeasts', { ...us05, attenuation_min: null, attenuation_max: null }, DEFAULT_PREFERENCES)).toBe('Fermentis US-05 · 80 %');
  });
});

describe('filling a row from the catalogue', () => {
  it('takes the descriptive numbers, not the name or the amounts', () => {
    expect(fillFrom('fermentables', pale)).toEqual({ type: 'grain', color_srm: 3, yield_percent: 81, origin: 'United Kingdom' });
    expect(fillFrom('hops', citra)).toEqual({ alpha_acid: 12 });
    expect(fillFrom('yeasts', us05)).toEqual({
      lab: 'Fermentis',
      product_id: 'US-05',
      type: 'ale',
      form: 'dry',
      attenuation: 80,
      min_temp_c: 18,
      max_temp_c: 26,
    });
  });
  it('sends a row\u2019s descriptive fields that are set to the catalogue', () => {
    expect(itemBodyFrom('hops', { id: 'x', name: 'Citra', alpha_acid: 13, amount_grams: 30, use: 'boil', form: 'pellet' })).toEqual({
      name: 'Citra',
      alpha_acid: 13,
    });
    expect(itemBodyFrom('yeasts', { name: 'House ale', lab: null, type: 'ale', form: '', attenuation: 76 })).toEqual({
      name: 'House ale',
      type: 'ale',
      attenuation: 76,
    });
  });
});
