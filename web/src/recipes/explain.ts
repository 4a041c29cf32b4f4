// The words around the API's explanations (`/stats?explain=true`): which figure, which parts, and
// a value as the formula has it. The numbers are the API's, in the formula's own units.
import type { Figure } from '../components/Stats';
import { formatNumber } from '../units';

/** Each figure as a sentence names it, and whether it is plural ("calories are"). */
const names: Record<Figure, [name: string, plural?: true]> = {
  og: ['OG'],
  fg: ['FG'],
  abv: ['ABV'],
  ibu: ['IBU'],
  srm: ['the colour (SRM)'],
  ebc: ['the colour (EBC)'],
  attenuation: ['the attenuation'],
  calories: ['the calories', true],
  calories_per_liter: ['the calories per litre', true],
  bu_gu: ['BU:GU'],
};

/** The button's name: "How is OG computed?", "How are the calories computed?". */
export function explainQuestion(figure: Figure): string {
  const [name, plural] = names[figure];
  return `How ${plural ? 'are' : 'is'} ${name} computed?`;
}

/** The panel's heading: "How OG is computed", "How the calories are computed". */
export function explainTitle(figure: Figure): string {
  const [name, plural] = names[figure];
  return `How ${name} ${plural ? 'are' : 'is'} computed`;
}

/** What the parts of a figure are: fermentables for gravity and colour, hops for bitterness. */
export function partsTitle(figure: Figure): string {
  return figure === 'ibu' ? 'Per hop' : 'Per fermentable';
}

/** A value of the working as the API gives it (up to 4 decimals) with the unit it names. */
export function explainedValue(value: number | null | undefined, unit = ''): string {
  if (value == null) return '—';
  const n = formatNumber(value, 4);
  return unit ? `${n} ${unit}` : n;
}
