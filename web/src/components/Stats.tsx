import type { Schemas } from '../api/client';
import { usePrefs } from '../prefs';
import { display, formatNumber, srmToRgb } from '../units';

/** The statistics the API computed (`/stats`); nothing here is computed in the browser. */
export function StatsList({ stats }: { stats: Schemas['RecipeStats'] }) {
  const prefs = usePrefs();
  const color = prefs.color === 'ebc' ? `${formatNumber(stats.ebc, 1)} EBC` : `${formatNumber(stats.srm, 1)} SRM`;
  const items: [string, React.ReactNode][] = [
    ['OG', display(stats.og, 'gravity', prefs)],
    ['FG', display(stats.fg, 'gravity', prefs)],
    ['ABV', `${formatNumber(stats.abv, 2)} %`],
    ['IBU', formatNumber(stats.ibu, 1)],
    [
      'Colour',
      <span className="color-value" key="c">
        <span className="swatch" role="img" aria-label={`Colour swatch, ${color}`} style={{ backgroundColor: srmToRgb(stats.srm) }} />
        {color}
      </span>,
    ],
    ['Attenuation', `${formatNumber(stats.attenuation, 1)} %`],
    // The API's serving is a 12 US fl oz can (354.9 mL, written 355 mL in metric).
    [prefs.amounts === 'us' ? 'Calories (12 fl oz)' : 'Calories (355 mL)', `${stats.calories} kcal`],
    ['BU:GU', stats.bu_gu == null ? '—' : formatNumber(stats.bu_gu, 2)],
  ];
  return (
    <dl className="stats">
      {items.map(([k, v]) => (
        <div key={k}>
          <dt>{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}
