import type { Schemas } from '../api/client';
import type { ChildSpec } from './ChildTable';
import { enumOptions } from '../components/Field';

export const fermentableTypes = ['grain', 'adjunct', 'sugar', 'extract', 'dry_extract', 'fruit', 'juice', 'honey', 'other'] as const;
export const hopUses = ['boil', 'dry_hop', 'mash', 'first_wort', 'whirlpool', 'aroma'] as const;
export const hopForms = ['pellet', 'plug', 'leaf', 'extract'] as const satisfies readonly Schemas['HopForm'][];
export const yeastTypes = ['ale', 'lager', 'hybrid', 'wheat', 'wine', 'champagne', 'kveik', 'brett', 'lacto', 'other'] as const;
export const yeastForms = ['liquid', 'dry', 'slant', 'culture'] as const;
export const miscTypes = ['spice', 'fining', 'water_agent', 'herb', 'flavor', 'wood', 'other'] as const;
export const miscUses = ['mash', 'sparge', 'boil', 'whirlpool', 'primary', 'secondary', 'bottling'] as const;
export const mashTypes = ['infusion', 'temperature', 'decoction'] as const;
export const recipeTypes = [
  ['all_grain', 'All grain'],
  ['extract', 'Extract'],
  ['partial_mash', 'Partial mash'],
] as const;

export const specs: { key: 'fermentables' | 'hops' | 'yeasts' | 'miscs' | 'mash_steps'; spec: ChildSpec }[] = [
  {
    key: 'fermentables',
    spec: {
      path: 'fermentables',
      singular: 'fermentable',
      title: 'Fermentables',
      cols: [
        { key: 'name', label: 'Name', type: 'text', def: '' },
        { key: 'type', label: 'Kind', type: 'select', options: enumOptions(fermentableTypes), def: 'grain' },
        { key: 'amount_kg', label: 'Amount', type: 'number', unit: 'mass_kg', def: 1 },
        { key: 'color_srm', label: 'Colour', type: 'number', unit: 'color', def: 3 },
        { key: 'yield_percent', label: 'Yield', type: 'number', unit: 'percent', def: 80 },
      ],
    },
  },
  {
    key: 'hops',
    spec: {
      path: 'hops',
      singular: 'hop',
      title: 'Hops',
      cols: [
        { key: 'name', label: 'Name', type: 'text', def: '' },
        { key: 'use', label: 'Use', type: 'select', options: enumOptions(hopUses), def: 'boil' },
        { key: 'alpha_acid', label: 'Alpha acid', type: 'number', unit: 'percent', def: 5 },
        { key: 'amount_grams', label: 'Amount', type: 'number', unit: 'mass_g', def: 25 },
        { key: 'time_minutes', label: 'Time', type: 'number', unit: 'minutes', def: 60 },
        // Pellets give Tinseth's utilisation × 1.10, plugs × 1.02 (the API's rule; the column only names the form).
        { key: 'form', label: 'Form', type: 'select', options: enumOptions(hopForms), nullable: true, def: '' },
      ],
    },
  },
  {
    key: 'yeasts',
    spec: {
      path: 'yeasts',
      singular: 'yeast',
      title: 'Yeasts',
      cols: [
        { key: 'name', label: 'Name', type: 'text', def: '' },
        { key: 'lab', label: 'Lab', type: 'text', nullable: true, def: '' },
        { key: 'type', label: 'Kind', type: 'select', options: enumOptions(yeastTypes), def: 'ale' },
        { key: 'form', label: 'Form', type: 'select', options: enumOptions(yeastForms), nullable: true, def: '' },
        { key: 'attenuation', label: 'Attenuation', type: 'number', unit: 'percent', nullable: true, def: 75 },
      ],
    },
  },
  {
    key: 'miscs',
    spec: {
      path: 'miscs',
      singular: 'other ingredient',
      title: 'Other ingredients',
      cols: [
        { key: 'name', label: 'Name', type: 'text', def: '' },
        { key: 'type', label: 'Kind', type: 'select', options: enumOptions(miscTypes), def: 'other' },
        { key: 'use', label: 'Use', type: 'select', options: enumOptions(miscUses), def: 'boil' },
        { key: 'amount', label: 'Amount', type: 'number', unit: 'plain', def: 1 },
        { key: 'amount_unit', label: 'Unit', type: 'text', def: 'g' },
        { key: 'time_minutes', label: 'Time', type: 'number', unit: 'minutes', def: 0 },
      ],
    },
  },
  {
    key: 'mash_steps',
    spec: {
      path: 'mash-steps',
      singular: 'mash step',
      title: 'Mash steps',
      cols: [
        { key: 'name', label: 'Name', type: 'text', def: '' },
        { key: 'type', label: 'Kind', type: 'select', options: enumOptions(mashTypes), def: 'infusion' },
        { key: 'temperature_c', label: 'Temperature', type: 'number', unit: 'temperature', def: 66 },
        { key: 'duration_minutes', label: 'Duration', type: 'number', unit: 'minutes', def: 60 },
      ],
    },
  },
];
