// Beside the statistics: the brew-day volumes of the recipe's equipment profile and how the
// recipe sits in its BJCP style's ranges. Every number is the API's (`/stats`).
import type { Schemas } from '../api/client';
import { usePrefs } from '../prefs';
import { useRecipeStats, useStyles } from './api';
import { barGeometry, fitStatus, type FitEntry } from './styleFit';
import { display, formatNumber, type Kind } from '../units';

type Volumes = Schemas['Volumes'];
type StyleFit = Schemas['StyleFit'];

const volumeRows: [keyof Volumes, string, Kind][] = [
  ['strike_water_liters', 'Strike water', 'volume'],
  ['sparge_water_liters', 'Sparge water', 'volume'],
  ['pre_boil_liters', 'Pre-boil volume', 'volume'],
  ['pre_boil_gravity', 'Pre-boil gravity', 'gravity'],
  ['post_boil_liters', 'Post-boil volume', 'volume'],
  ['into_fermenter_liters', 'Into fermenter', 'volume'],
  ['mash_thickness_liters_per_kg', 'Water to grain', 'absorption'],
];

/** Shown when the recipe has an equipment profile (the stats then carry `volumes`). */
export function VolumesPanel({ id }: { id: string }) {
  const stats = useRecipeStats(id);
  const prefs = usePrefs();
  const v = stats.data?.volumes;
  if (!v) return null;
  return (
    <section className="panel stats-panel" aria-labelledby="h-volumes" aria-busy={stats.isFetching}>
      <h2 id="h-volumes">Volumes</h2>
      <dl className="stats">
        {volumeRows.map(([key, label, kind]) => (
          <div key={key}>
            <dt>{label}</dt>
            <dd>{display(v[key], kind, prefs)}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

const fitRows: [keyof StyleFit, string, Kind | 'abv' | 'ibu'][] = [
  ['og', 'OG', 'gravity'],
  ['fg', 'FG', 'gravity'],
  ['ibu', 'IBU', 'ibu'],
  ['color_srm', 'Colour', 'color'],
  ['abv', 'ABV', 'abv'],
];

/** Shown when the recipe names a BJCP style (the stats then carry `style_fit`). */
export function StyleFitPanel({ id, styleId }: { id: string; styleId: string | null }) {
  const stats = useRecipeStats(id);
  const styles = useStyles();
  const fit = stats.data?.style_fit;
  if (!fit) return null;
  const style = styles.data?.find((s) => s.id === styleId);
  return (
    <section className="panel stats-panel" aria-labelledby="h-style-fit" aria-busy={stats.isFetching}>
      <h2 id="h-style-fit">Style fit</h2>
      {styleId && <p className="muted small">{style ? `${style.id} ${style.name}` : styleId} · BJCP 2021</p>}
      <ul className="fit-list">
        {fitRows.map(([key, label, kind]) => (
          <FitRow key={key} label={label} kind={kind} entry={fit[key]} ebc={key === 'color_srm' ? stats.data?.ebc : undefined} />
        ))}
      </ul>
    </section>
  );
}

const statusMark = { 'in range': '✓', below: '↓', above: '↑', 'no range': '–' } as const;

/** `ebc`: the API's own EBC of the recipe, shown as the statistics show it (no second rounding). */
function FitRow({ label, kind, entry, ebc }: { label: string; kind: Kind | 'abv' | 'ibu'; entry: FitEntry; ebc?: number }) {
  const prefs = usePrefs();
  const show = (v: number) => (kind === 'abv' ? `${formatNumber(v, 2)} %` : kind === 'ibu' ? formatNumber(v, 1) : display(v, kind, prefs));
  const status = fitStatus(entry);
  const geom = barGeometry(entry);
  const range = entry.min != null && entry.max != null ? `${show(entry.min)} – ${show(entry.max)}` : null;
  return (
    <li className={`fit ${status.replace(' ', '-')}`}>
      <div className="fit-head">
        <span className="fit-name">{label}</span>
        <span className="fit-value">{ebc != null && prefs.color === 'ebc' ? `${formatNumber(ebc, 1)} EBC` : show(entry.value)}</span>
        <span className="fit-status">
          <span aria-hidden="true">{statusMark[status]} </span>
          {status === 'no range' ? 'no range given' : status}
        </span>
      </div>
      {geom && (
        <div className="fit-bar" aria-hidden="true">
          <span className="fit-range" style={{ left: `${geom.start}%`, width: `${geom.end - geom.start}%` }} />
          <span className={`fit-marker ${geom.clamped ?? ''}`} style={{ left: `${geom.marker}%` }} />
        </div>
      )}
      {range && <p className="fit-range-text muted small">Style range {range}</p>}
    </li>
  );
}
