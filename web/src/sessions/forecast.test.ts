import { describe, expect, it } from 'vitest';
import type { Preferences } from '../api/extra';
import { forecastText } from './forecast';
import { forecastSeries } from './FermentationChart';

const metric = { amounts: 'metric', gravity: 'sg', color: 'srm', temperature: 'c' } as Preferences;
const plato = { ...metric, gravity: 'plato' } as Preferences;
const time = (iso: string) => iso.slice(5, 10);

const forecast = {
  predicted_fg: 1.0104,
  predicted_fg_low: 1.0082,
  predicted_fg_high: 1.0131,
  finish_at: '2026-12-12T14:00:00Z',
  finish_at_low: '2026-12-10T08:00:00Z',
  finish_at_high: '2026-12-14T20:00:00Z',
  method: 'logistic-4p (Speers, Rogers & Smith 2003)',
  readings_used: 96,
  reason: null,
};

describe('the forecast in words', () => {
  it('says the FG, its interval and the finish in the account units', () => {
    expect(forecastText(forecast, metric, time)).toBe('FG 1.010 (80 %: 1.008 to 1.013), reached about 12-12 (between 12-10 and 12-14).');
    expect(forecastText(forecast, plato, time)).toMatch(/^FG 2\.\d °P \(80 %: 2\.\d °P to 3\.\d °P\)/);
  });
  it("gives the API's reason while there is none", () => {
    const none = { predicted_fg: null, predicted_fg_low: null, predicted_fg_high: null, reason: 'Needs at least 6 gravity readings' };
    expect(forecastText(none, metric, time)).toBe('Needs at least 6 gravity readings');
  });
});

describe('the forecast on the chart', () => {
  it('runs from the last reading to the later end of the finish interval', () => {
    const last = Date.parse('2026-12-09T00:00:00Z') / 1000;
    expect(forecastSeries(forecast, last)).toEqual({ from: last, to: Date.parse('2026-12-14T20:00:00Z') / 1000, fg: 1.0104, low: 1.0082, high: 1.0131 });
    expect(forecastSeries({ ...forecast, predicted_fg: null }, last)).toBeNull();
    // A finish already past: nothing ahead to draw.
    expect(forecastSeries(forecast, Date.parse('2026-12-20T00:00:00Z') / 1000)).toBeNull();
  });
});
