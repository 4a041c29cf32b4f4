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
}

export type ToolInput = NumberInput | ChoiceInput;

export const isChoice = (i: ToolInput): i is ChoiceInput => 'options' in i;

/** The form's first texts: each start value in the person's units. */
export function startTexts(inputs: readonly ToolInput[], p: Preferences): Record<string, string> {
  return Object.fromEntries(
    inputs.map((i) => [i.key, isChoice(i) ? i.start : toInput(typeof i.start === 'number' ? i.start : roundDefault(i.kind, i.start, p), i.kind, p)]),
  );
}

/**
 * The query for the API, or the fields that are not numbers yet. Numbers are converted from the
 * person's units to metric and SG; bounds are the API's to check (its 422 names the field).
 */
export function toolQuery(
  inputs: readonly ToolInput[],
  texts: Record<string, string>,
  p: Preferences,
): { query: Record<string, string | number> } | { missing: string[] } {
  const query: Record<string, string | number> = {};
  const missing: string[] = [];
  for (const input of inputs) {
    const text = texts[input.key] ?? '';
    if (isChoice(input)) {
      query[input.key] = text;
      continue;
    }
    const value = fromInput(text, input.kind, p);
    if (value == null || Number.isNaN(value)) missing.push(input.key);
    else query[input.key] = value;
  }
  return missing.length ? { missing } : { query };
}
