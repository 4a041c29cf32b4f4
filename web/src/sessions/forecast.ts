// The forecast in words, under the fermentation chart: the API fits the model and sets the
// interval; this only says it in the account's units.
import type { Schemas } from '../api/client';
import type { Preferences } from '../api/extra';
import { display } from '../units';
import { absoluteTime } from '../time';

type Forecast = Schemas['FermentationForecast'];

/** "FG 1.010 (80 %: 1.008 to 1.013), reached about 12 Dec 14:00 (between … and …)", or the
 * API's reason when there is no forecast yet. */
export function forecastText(f: Forecast, prefs: Preferences, time: (iso: string) => string = (iso) => absoluteTime(iso)): string {
  if (f.predicted_fg == null || f.predicted_fg_low == null || f.predicted_fg_high == null) {
    return f.reason ?? 'No forecast yet.';
  }
  const fg = display(f.predicted_fg, 'gravity', prefs);
  const low = display(f.predicted_fg_low, 'gravity', prefs);
  const high = display(f.predicted_fg_high, 'gravity', prefs);
  let text = `FG ${fg} (80 %: ${low} to ${high})`;
  if (f.finish_at) {
    text += `, reached about ${time(f.finish_at)}`;
    if (f.finish_at_low && f.finish_at_high) text += ` (between ${time(f.finish_at_low)} and ${time(f.finish_at_high)})`;
  }
  return `${text}.`;
}
