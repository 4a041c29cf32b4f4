// The tools' forms: what the person typed, in their units, as the API's metric query.
import type { Preferences } from '../api/extra';
import { fromInput, roundDefault, toInput, type Kind, type RoundDefault } from '../units';

export interface NumberInput {
  key: string;
  label: string;
  kind: Kind;
  /** The value the form starts with, metric / SG as the API takes it, or round numbers by
   * display unit (`{ L: 20, gal: 5 }`). */
  start: number | RoundDefault;
  /** Shown after the field when the unit is not the person's (°Bx, volumes…). */
  symbol?: string;
  hint?: string;
}

export interface ChoiceInput {
  key: string;
  label: string;
  options: readonly (readonly [string, string])[];
  start: string;
  /** A choice of the form only (which of two inputs to give), not sent to the API. */
  formOnly?: boolean;
}

/** A day, `YYYY-MM-DD` as a date input gives it and the API takes it. */
export interface DateInput {
  key: string;
  label: string;
  date: true;
  /** The day the form starts with ('' for none). */
  start: string;
  /** Empty is left out of the query (the API's default applies). */
  optional?: boolean;
  hint?: string;
}

/** An input the form shows only when its other inputs say so (a production date instead of a viability). */
export type ToolInput = (NumberInput | ChoiceInput | DateInput) & { when?: (texts: Record<string, string>) => boolean };

export const isChoice = (i: ToolInput): i is ChoiceInput => 'options' in i;
export const isDate = (i: ToolInput): i is DateInput => 'date' in i;

/** The inputs the form shows for what has been typed and chosen so far. */
export function shownInputs(inputs: readonly ToolInput[], texts: Record<string, string>): ToolInput[] {
  return inputs.filter((i) => !i.when || i.when(texts));
}

/** `YYYY-MM-DD` of the local day `daysAgo` days before `now`. */
export function isoDay(now: Date, daysAgo = 0): string {
  const d = new Date(now.getFullYear(), now.getMonth(), now.getDate() - daysAgo);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** The form's first texts: each start value in the person's units. */
export function startTexts(inputs: readonly ToolInput[], p: Preferences): Record<string, string> {
  return Object.fromEntries(
    inputs.map((i) => [
      i.key,
      isChoice(i) || isDate(i) ? i.start : toInput(typeof i.start === 'number' ? i.start : roundDefault(i.kind, i.start, p), i.kind, p),
    ]),
  );
}

/**
 * The query for the API, or the fields that are not numbers (or days) yet. Only the inputs shown
 * are sent; numbers are converted from the person's units to metric and SG; bounds are the API's
 * to check (its 422 names the field).
 */
export function toolQuery(
  inputs: readonly ToolInput[],
  texts: Record<string, string>,
  p: Preferences,
): { query: Record<string, string | number> } | { missing: string[] } {
  const query: Record<string, string | number> = {};
  const missing: string[] = [];
  for (const input of shownInputs(inputs, texts)) {
    const text = texts[input.key] ?? '';
    if (isChoice(input)) {
      if (!input.formOnly) query[input.key] = text;
      continue;
    }
    if (isDate(input)) {
      if (/^\d{4}-\d{2}-\d{2}$/.test(text)) query[input.key] = text;
      else if (text !== '' || !input.optional) missing.push(input.key);
      continue;
    }
    const value = fromInput(text, input.kind, p);
    if (value == null || Number.isNaN(value)) missing.push(input.key);
    else query[input.key] = value;
  }
  return missing.length ? { missing } : { query };
}
