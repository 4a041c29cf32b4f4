import type { Schemas } from '../api/client';
import { usePrefs } from '../prefs';
import { display, formatNumber, srmToRgb } from '../units';

/** A figure of the statistics that the API can explain (`explain` in `/stats?explain=true`). */
export type Figure = keyof Schemas['StatsExplanation'];

/** The statistics the API computed (`/stats`); nothing here is computed in the browser. `explain`
 * puts a control beside each figure (the recipe page's "How is OG computed?"). */
export function StatsList({ stats, explain }: { stats: Schemas['RecipeStats']; explain?: (figure: Figure) => React.ReactNode }) {
  const prefs = usePrefs();
  const ebc = prefs.color === 'ebc';
  const color = ebc ? `${formatNumber(stats.ebc, 1)} EBC` : `${formatNumber(stats.srm, 1)} SRM`;
  const items: [string, React.ReactNode, Figure][] = [
    ['OG', display(stats.og, 'gravity', prefs), 'og'],
    ['FG', display(stats.fg, 'gravity', prefs), 'fg'],
    ['ABV', `${formatNumber(stats.abv, 2)} %`, 'abv'],
    ['IBU', formatNumber(stats.ibu, 1), 'ibu'],
    [
      'Colour',
      <span className="color-value" key="c">
        <span className="swatch" role="img" aria-label={`Colour swatch, ${color}`} style={{ backgroundColor: srmToRgb(stats.srm) }} />
        {color}
      </span>,
      ebc ? 'ebc' : 'srm',
    ],
    ['Attenuation', `${formatNumber(stats.attenuation, 1)} %`, 'attenuation'],
    // The API's serving is a 12 US fl oz can (354.9 mL, written 355 mL in metric).
    [prefs.amounts === 'us' ? 'Calories (12 fl oz)' : 'Calories (355 mL)', `${stats.calories} kcal`, 'calories'],
    ['BU:GU', stats.bu_gu == null ? '—' : formatNumber(stats.bu_gu, 2), 'bu_gu'],
  ];
  return (
    <dl className={explain ? 'stats explained' : 'stats'}>
      {items.map(([k, v, figure]) => (
        <div key={k}>
          <dt>{k}</dt>
          {/* The control sits inside the figure's own definition, so the list stays one term and
              one definition per figure; its "?" is drawn by CSS, so the definition's text is the
              figure alone. */}
          <dd>
            {v}
            {explain?.(figure)}
          </dd>
        </div>
      ))}
    </dl>
  );
}
