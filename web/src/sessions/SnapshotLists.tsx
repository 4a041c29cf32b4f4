// The recipe as it was when the session was planned: its ingredient lists.
import { type Schemas } from '../api/client';
import { usePrefs } from '../prefs';
import { display, formatNumber } from '../units';

/** Sessions created by earlier versions of wort may lack fields added to recipes since. */
export type Snapshot = Partial<Schemas['RecipeSnapshot']>;

export function SnapshotLists({ snap }: { snap: Snapshot }) {
  const prefs = usePrefs();
  return (
    <ul className="plain-list small">
      {(snap.fermentables ?? []).map((f) => (
        <li key={f.id}>
          {display(f.amount_kg, 'mass_kg', prefs)} {f.name}
        </li>
      ))}
      {(snap.hops ?? []).map((h) => (
        <li key={h.id}>
          {display(h.amount_grams, 'mass_g', prefs)} {h.name} ({h.use.replace('_', ' ')},{' '}
          {/* A dry hop's time is its contact time: days read better than 4320 min. */}
          {h.use === 'dry_hop' ? `${formatNumber(h.time_minutes / 1440, 1)} days` : `${h.time_minutes} min`})
        </li>
      ))}
      {(snap.yeasts ?? []).map((y) => (
        <li key={y.id}>Yeast: {y.name}</li>
      ))}
    </ul>
  );
}
