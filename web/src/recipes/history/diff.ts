// The words of a version's diff: "Efficiency: 72 % → 75 %", "Hop Citra added", "Fermentable
// Pale malt changed: amount 4.5 kg → 5 kg". The API says what changed; this only names the fields
// and shows their values in the account's units; a comparison with another recipe is said in the
// same words, its children as "only in this recipe" or "only in <other>". Unit-tested in diff.test.ts.
import type { Preferences } from '../../api/extra';
import { words } from '../../components/Field';
import { display, formatNumber, type Kind } from '../../units';
import { unitOf, type Col } from '../childSpec';
import { recipeTypes, specs } from '../recipeSpecs';
import type { ChildChange, ChildKind, FieldChange, RecipeVersion } from './api';

/** The name of a version: its name, or "Version n". */
export function versionName(v: Pick<RecipeVersion, 'number' | 'message'>): string {
  return v.message?.trim() ? v.message : `Version ${v.number}`;
}

interface FieldInfo {
  label: string;
  unit?: Kind;
  options?: readonly (readonly [string, string])[];
  /** A reference to another record (an equipment profile): said as set, changed or removed. */
  ref?: true;
}

/** The recipe's own fields, labelled as the recipe page labels them. */
const recipeFields: Record<string, FieldInfo> = {
  name: { label: 'Name' },
  style: { label: 'Style' },
  type: { label: 'Type', options: recipeTypes },
  batch_size_liters: { label: 'Batch size', unit: 'volume' },
  boil_time_minutes: { label: 'Boil time', unit: 'minutes' },
  efficiency: { label: 'Efficiency', unit: 'fraction' },
  equipment_id: { label: 'Equipment profile', ref: true },
  style_id: { label: 'BJCP guideline' },
  notes: { label: 'Notes' },
  water_profile_id: { label: 'Source water', ref: true },
  target_water_profile_id: { label: 'Target water', ref: true },
};

/** Each kind of child: its word in a sentence and its table's columns. */
const childKinds: Record<ChildKind, { word: string; title: string; key: (typeof specs)[number]['key'] }> = {
  fermentable: { word: 'Fermentable', title: 'Fermentables', key: 'fermentables' },
  hop: { word: 'Hop', title: 'Hops', key: 'hops' },
  yeast: { word: 'Yeast', title: 'Yeasts', key: 'yeasts' },
  misc: { word: 'Other ingredient', title: 'Other ingredients', key: 'miscs' },
  mash_step: { word: 'Mash step', title: 'Mash steps', key: 'mash_steps' },
  water_addition: { word: 'Water addition', title: 'Water additions', key: 'water_additions' },
  fermentation_step: { word: 'Fermentation step', title: 'Fermentation steps', key: 'fermentation_steps' },
};

export const childKindOrder = Object.keys(childKinds) as ChildKind[];

/** A kind the page knows; one a newer server adds is shown under its own name. */
function kindInfo(kind: string) {
  return Object.hasOwn(childKinds, kind) ? childKinds[kind as ChildKind] : undefined;
}

function columns(kind: string): Col[] {
  const key = kindInfo(kind)?.key;
  return specs.find((s) => s.key === key)?.spec.cols ?? [];
}

const MAX_TEXT = 60;

/** A value of the diff as text: numbers in the account's unit when the field has one. */
export function formatValue(value: unknown, info: Omit<FieldInfo, 'label'>, prefs: Preferences): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'number') return info.unit ? display(value, info.unit, prefs) : formatNumber(value, 4);
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'string') {
    const option = info.options?.find(([v]) => v === value);
    if (option) return option[1];
    return value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT - 1)}…` : value;
  }
  return JSON.stringify(value);
}

/** "Label: before → after" (`sep` ': '), or "label before → after" inside a child's sentence (`sep` ' '). */
function change(label: string, f: FieldChange, info: FieldInfo, prefs: Preferences, sep = ': '): string {
  if (info.ref) {
    const what = f.before == null ? 'set' : f.after == null ? 'removed' : 'changed';
    return `${label} ${what}`;
  }
  return `${label}${sep}${formatValue(f.before, info, prefs)} → ${formatValue(f.after, info, prefs)}`;
}

/** One of the recipe's own fields: "Efficiency: 72 % → 75 %". */
export function recipeFieldLine(f: FieldChange, prefs: Preferences): string {
  const key = f.path[f.path.length - 1] ?? '';
  const info = (f.path.length === 1 ? recipeFields[key] : undefined) ?? { label: words(f.path.join(' ')) };
  return change(info.label, f, info, prefs);
}

/** The child's values that the diff knows, after the change (before it, for a removed one). */
function valuesOf(c: ChildChange): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const f of c.fields) if (f.path.length === 1) row[f.path[0]!] = c.change === 'removed' ? f.before : f.after;
  return row;
}

function childField(kind: string, f: FieldChange, row: Record<string, unknown>, prefs: Preferences, moved = 'moved'): string {
  const key = f.path.join('.');
  // Its place in the table: a number that means nothing read alone.
  if (key === 'sort_order') return moved;
  const col = columns(kind).find((c) => c.key === key);
  const info: FieldInfo = col
    ? { label: (col.aria ?? col.label).toLowerCase(), unit: unitOf(col, row), options: col.options }
    : { label: words(key).toLowerCase() };
  return change(info.label, f, info, prefs, ' ');
}

/** The child's name in a sentence: its name, else its kind's choice (a water addition's agent). */
function childName(c: ChildChange, row: Record<string, unknown>, known: string | undefined, prefs: Preferences): string | undefined {
  if (typeof row.name === 'string' && row.name) return row.name;
  if (known) return known;
  const agent = columns(c.kind).find((col) => col.key === 'agent');
  if (agent && typeof row.agent === 'string') return formatValue(row.agent, { options: agent.options }, prefs);
  return undefined;
}

/**
 * One child's change: "Hop Citra added", "Fermentable Pale malt changed: amount 4.5 kg → 5 kg".
 * `known` is the child's name where the diff does not carry it (a change that left it alone).
 */
export function childLine(c: ChildChange, prefs: Preferences, known?: string): string {
  const subject = childSubject(c, prefs, known);
  if (c.change !== 'changed') return `${subject} ${c.change}`;
  const parts = c.fields.map((f) => childField(c.kind, f, valuesOf(c), prefs));
  return parts.length ? `${subject} changed: ${parts.join('; ')}` : `${subject} changed`;
}

/**
 * One child's difference from another recipe (`other`, by name), where "added" means only this
 * recipe has it and "removed" only the other: "Hop Citra: only in this recipe", "Hop Citra: only in
 * West Coast", "Fermentable Pale malt differs: amount 4.5 kg → 5 kg" (the other's value first).
 */
export function compareChildLine(c: ChildChange, prefs: Preferences, other: string, known?: string): string {
  const subject = childSubject(c, prefs, known);
  if (c.change === 'added') return `${subject}: only in this recipe`;
  if (c.change === 'removed') return `${subject}: only in ${other}`;
  const parts = c.fields.map((f) => childField(c.kind, f, valuesOf(c), prefs, 'in another place in the list'));
  return parts.length ? `${subject} differs: ${parts.join('; ')}` : `${subject} differs`;
}

/** "Hop Citra", or "A mash step" when the child has no name. */
function childSubject(c: ChildChange, prefs: Preferences, known: string | undefined): string {
  const word = kindInfo(c.kind)?.word ?? words(c.kind);
  const name = childName(c, valuesOf(c), known, prefs);
  return name ? `${word} ${name}` : `A ${word.toLowerCase()}`;
}

/** The children's changes by kind, in the recipe page's order, each with its table's title; a kind
 * the page does not know yet comes last, titled by its name. */
export function groupChildren(children: readonly ChildChange[]): { kind: string; title: string; changes: ChildChange[] }[] {
  const unknown = [...new Set(children.map((c) => c.kind).filter((k) => !kindInfo(k)))];
  return [...childKindOrder, ...unknown]
    .map((kind) => ({ kind, title: kindInfo(kind)?.title ?? words(kind), changes: children.filter((c) => c.kind === kind) }))
    .filter((g) => g.changes.length > 0);
}

/** The recipe's list of a kind of child, as the diff names its kinds (none for a kind the page does not know). */
export function childListKey(kind: string): (typeof specs)[number]['key'] | undefined {
  return kindInfo(kind)?.key;
}
