import type { Schemas } from '../api/client';
import { allOf } from '../api/enums';
import type { ChildSpec, Prefs, Row } from './childSpec';
import { enumOptions } from '../components/Field';
import { display, formatNumber, symbolFor, type Kind } from '../units';

export const fermentableTypes = allOf<Schemas['FermentableType']>()([
  'grain',
  'adjunct',
  'sugar',
  'extract',
  'dry_extract',
  'fruit',
  'juice',
  'honey',
  'other',
]);
export const fermentableAdditions = allOf<Schemas['FermentableAddition']>()(['mash', 'boil', 'late_boil', 'fermenter']);
export const hopUses = allOf<Schemas['HopUse']>()(['boil', 'dry_hop', 'mash', 'first_wort', 'whirlpool', 'aroma']);
export const hopForms = allOf<Schemas['HopForm']>()(['pellet', 'plug', 'leaf', 'extract']);
export const yeastTypes = allOf<Schemas['YeastType']>()(['ale', 'lager', 'hybrid', 'wheat', 'wine', 'champagne', 'kveik', 'brett', 'lacto', 'other']);
export const yeastForms = allOf<Schemas['YeastForm']>()(['liquid', 'dry', 'slant', 'culture']);
export const miscTypes = allOf<Schemas['MiscType']>()(['spice', 'fining', 'water_agent', 'herb', 'flavor', 'wood', 'other']);
export const miscUses = allOf<Schemas['MiscUse']>()(['mash', 'sparge', 'boil', 'whirlpool', 'primary', 'secondary', 'bottling']);
export const mashTypes = allOf<Schemas['MashStepType']>()(['infusion', 'temperature', 'decoction']);
export const waterAgents = allOf<Schemas['WaterAgent']>()([
  'gypsum',
  'calcium_chloride',
  'epsom_salt',
  'table_salt',
  'baking_soda',
  'chalk',
  'slaked_lime',
  'lactic_acid',
  'phosphoric_acid',
  'acidulated_malt',
]);
export const waterSteps = allOf<Schemas['WaterStep']>()(['mash', 'sparge']);
export const recipeTypes = allOf<Schemas['RecipeType']>()([
  ['all_grain', 'All grain'],
  ['extract', 'Extract'],
  ['partial_mash', 'Partial mash'],
]);

export const specs: { key: 'fermentables' | 'hops' | 'yeasts' | 'miscs' | 'mash_steps' | 'water_additions' | 'fermentation_steps'; spec: ChildSpec }[] = [
  {
    key: 'fermentables',
    spec: {
      path: 'fermentables',
      singular: 'fermentable',
      title: 'Fermentables',
      catalog: 'fermentables',
      afterChoose: 'amount_kg',
      derived: [{ key: 'grist', label: 'Grist', after: 'amount_kg', value: (r, { rows }) => gristShare(r, rows) }],
      cols: [
        { key: 'name', label: 'Name', type: 'text', def: '' },
        { key: 'type', label: 'Kind', type: 'select', options: enumOptions(fermentableTypes), def: 'grain' },
        { key: 'amount_kg', label: 'Amount', type: 'number', unit: 'mass_kg', def: { kg: 1, lb: 1 } },
        { key: 'color_srm', label: 'Colour', type: 'number', unit: 'color', def: { SRM: 3, EBC: 6 } },
        { key: 'yield_percent', label: 'Yield', type: 'number', unit: 'percent', def: 80 },
        // When it goes in (which gravities count it is the API's rule). Not in the add form: the
        // API's default follows the type (mash for grain and adjunct, boil otherwise); the row's
        // select changes it.
        { key: 'added', label: 'Added', type: 'select', options: enumOptions(fermentableAdditions), add: false },
      ],
    },
  },
  {
    key: 'hops',
    spec: {
      path: 'hops',
      singular: 'hop',
      title: 'Hops',
      catalog: 'hops',
      afterChoose: 'amount_grams',
      order: hopOrder,
      orderNote: 'Hops are listed in the order they go in: first wort, boil by time, whirlpool, dry hop.',
      derived: [
        {
          key: 'ibu',
          label: 'IBU',
          after: 'time_minutes',
          stats: true,
          // The API's Tinseth IBU of this addition (`/stats`), never computed here.
          value: (r, { stats }) => {
            const hit = stats?.ibu_by_hop.find((h) => h.hop_id === r.id);
            return hit ? formatNumber(hit.ibu, 1) : '—';
          },
        },
      ],
      cols: [
        { key: 'name', label: 'Name', type: 'text', def: '' },
        { key: 'use', label: 'Use', type: 'select', options: enumOptions(hopUses), def: 'boil' },
        { key: 'alpha_acid', label: 'Alpha acid', type: 'number', unit: 'percent', def: 5 },
        { key: 'amount_grams', label: 'Amount', type: 'number', unit: 'mass_g', def: { g: 25, oz: 1 } },
        {
          key: 'time_minutes',
          label: 'Time',
          type: 'number',
          unit: 'minutes',
          def: 60,
          defBy: (v) => hopTimeDefaults[v.use ?? 'boil'] ?? 60,
          // A dry hop's contact time is days; the API keeps minutes.
          days: (r) => r.use === 'dry_hop',
        },
        // A hop stand's temperature, for whirlpool and aroma hops only (the API refuses it on others
        // and uses it in the stand's bitterness). Empty: the API's stand without a temperature.
        {
          key: 'temperature_c',
          label: 'Stand temp',
          aria: 'Stand temperature',
          type: 'number',
          unit: 'temperature',
          nullable: true,
          def: '',
          add: false,
          only: (r) => r.use === 'whirlpool' || r.use === 'aroma',
        },
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
      catalog: 'yeasts',
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
      catalog: 'miscs',
      afterChoose: 'amount',
      cols: [
        { key: 'name', label: 'Name', type: 'text', def: '' },
        { key: 'type', label: 'Kind', type: 'select', options: enumOptions(miscTypes), def: 'other' },
        { key: 'use', label: 'Use', type: 'select', options: enumOptions(miscUses), def: 'boil' },
        { key: 'amount', label: 'Amount', type: 'number', unit: 'plain', def: 1 },
        { key: 'amount_unit', label: 'Unit', type: 'text', def: 'g', usDef: 'oz' },
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
      // How a step after the first reaches its rest: the water an infusion adds, the thick mash a
      // decoction pulls (the API's `mash_steps` in `/stats`, never computed here).
      derived: [
        {
          key: 'water',
          label: 'To reach it',
          after: 'infuse_temperature_c',
          stats: true,
          wrap: true,
          only: reachedBy,
          value: (r, { stats, prefs }) => mashWater(r, stats, prefs),
        },
      ],
      cols: [
        { key: 'name', label: 'Name', type: 'text', def: '' },
        { key: 'type', label: 'Kind', type: 'select', options: enumOptions(mashTypes), def: 'infusion' },
        { key: 'temperature_c', label: 'Temperature', type: 'number', unit: 'temperature', def: { '°C': 66, '°F': 152 } },
        { key: 'duration_minutes', label: 'Duration', type: 'number', unit: 'minutes', def: 60 },
        // The infusion's water when the brewer chooses its volume: the API then answers the
        // temperature it needs. On the first step it is the strike water (without an equipment
        // profile, whose volumes decide the strike otherwise).
        {
          key: 'infuse_amount_liters',
          label: 'Infusion volume',
          aria: 'Infusion volume',
          type: 'number',
          unit: 'volume',
          nullable: true,
          def: '',
          add: false,
          only: (r) => r.type === 'infusion',
        },
        // The infusion water's temperature when the brewer chooses it; empty is boiling water (or
        // what a set volume needs). The first step's water is the strike water: not here.
        {
          key: 'infuse_temperature_c',
          label: 'Infusion temp',
          aria: 'Infusion temperature',
          type: 'number',
          unit: 'temperature',
          nullable: true,
          def: '',
          add: false,
          only: (r, rows) => r.type === 'infusion' && afterFirst(r, rows),
        },
      ],
    },
  },
  {
    key: 'water_additions',
    spec: {
      path: 'water-additions',
      singular: 'water addition',
      title: 'Water additions',
      // Salts in g and liquid acids in ml in every setting (as brewers weigh and measure them);
      // acidulated malt in kg, the API's unit for it, shown in lb with US amounts.
      derived: [{ key: 'unit', label: 'Unit', after: 'amount', value: (r, { prefs }) => (waterUnit(r) ? symbolFor('mass_kg', prefs) : String(r.unit ?? '')) }],
      cols: [
        { key: 'agent', label: 'Agent', type: 'select', options: enumOptions(waterAgents), def: 'gypsum' },
        { key: 'amount', label: 'Amount', type: 'number', def: 1, unitBy: waterUnit },
        { key: 'step', label: 'Into', type: 'select', options: enumOptions(waterSteps), def: 'mash', aria: 'water' },
      ],
    },
  },
  {
    key: 'fermentation_steps',
    spec: {
      path: 'fermentation-steps',
      singular: 'fermentation step',
      title: 'Fermentation steps',
      // A rest lasts at most its days, ended earlier by its gravity or attenuation but not before its minimum days
      // (no days: until the condition); the API plans the session's schedule from these.
      cols: [
        { key: 'name', label: 'Name', type: 'text', def: '' },
        { key: 'temperature_c', label: 'Temperature', type: 'number', unit: 'temperature', def: { '°C': 19, '°F': 66 } },
        { key: 'days', label: 'Days', type: 'number', unit: 'plain', nullable: true, def: 14 },
        { key: 'min_days', label: 'At least (days)', type: 'number', unit: 'plain', nullable: true, def: null },
        { key: 'until_gravity', label: 'Until gravity', type: 'number', unit: 'gravity', nullable: true, def: null },
        { key: 'until_attenuation_percent', label: 'Until attenuation', type: 'number', unit: 'percent', nullable: true, def: null },
      ],
    },
  },
];

/** A water addition weighed in kg by the API (acidulated malt): a mass in the person's unit. The
 * add form has no row yet, so its agent says it. */
function waterUnit(r: Record<string, unknown>): Kind | undefined {
  return (r.unit ?? (r.agent === 'acidulated_malt' ? 'kg' : null)) === 'kg' ? 'mass_kg' : undefined;
}

/** Whether a row is not the first of its table (the API's order). */
function afterFirst(r: Record<string, unknown>, rows: readonly Row[]): boolean {
  return rows.findIndex((x) => x.id === r.id) > 0;
}

/** A mash step reached by adding something to the mash: an infusion or a decoction after the first step. */
function reachedBy(r: Record<string, unknown>, rows: readonly Row[]): boolean {
  return (r.type === 'infusion' || r.type === 'decoction') && afterFirst(r, rows);
}

/** What the API says a mash step adds to reach its rest, in the person's units: "Add 4.62 L of
 * boiling water", "Add 1.2 gal of water at 176 °F", "Pull 5.22 L of thick mash". */
export function mashWater(row: Row, stats: Schemas['StatsReport'] | undefined, prefs: Prefs): string {
  const w = stats?.mash_steps.find((m) => m.mash_step_id === row.id);
  if (!w) return '—';
  if (w.impossible) return 'No infusion can reach this rest';
  if (w.infusion_volume_liters != null) {
    const t = w.infusion_temperature_c;
    const water = t == null || t >= 100 ? 'of boiling water' : `of water at ${display(t, 'temperature', prefs)}`;
    return `Add ${display(w.infusion_volume_liters, 'volume', prefs)} ${water}`;
  }
  if (w.decoction_volume_liters != null) return `Pull ${display(w.decoction_volume_liters, 'volume', prefs)} of thick mash`;
  return '—';
}

/** A new hop's time by its use (minutes): a dry hop sits 3 days, a whirlpool 20 minutes. */
const hopTimeDefaults: Record<string, number> = { boil: 60, first_wort: 60, mash: 60, whirlpool: 20, aroma: 0, dry_hop: 3 * 1440 };

/** When a hop goes in, in brew-day order. */
const useRank: Record<string, number> = { mash: 0, first_wort: 1, boil: 2, aroma: 3, whirlpool: 4, dry_hop: 5 };

/** Hops in the order they go in: mash, first wort, boil by time (longest first), flame-out,
 * whirlpool, dry hop; ties keep the API's order. A view order only: `sort_order` is left alone. */
export function hopOrder(rows: Row[]): Row[] {
  return rows
    .map((r, i) => ({ r, i }))
    .sort((a, b) => {
      const ua = useRank[String(a.r.use)] ?? 9;
      const ub = useRank[String(b.r.use)] ?? 9;
      if (ua !== ub) return ua - ub;
      const ta = Number(a.r.time_minutes) || 0;
      const tb = Number(b.r.time_minutes) || 0;
      if (ta !== tb) return tb - ta;
      return a.i - b.i;
    })
    .map(({ r }) => r);
}

/** A fermentable's share of the grist by mass, "91.7 %" (presentation arithmetic over the rows shown). */
export function gristShare(row: Row, rows: Row[]): string {
  const total = rows.reduce((s, r) => s + (Number(r.amount_kg) || 0), 0);
  if (total <= 0) return '—';
  return `${formatNumber(((Number(row.amount_kg) || 0) / total) * 100, 1)} %`;
}
