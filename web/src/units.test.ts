import { describe, expect, it } from 'vitest';
import { DEFAULT_PREFERENCES, type Preferences } from './api/extra';
import { display, formatNumber, fromInput, parseNumber, platoToSg, roundDefault, sgToPlato, toInput } from './units';

const metric = DEFAULT_PREFERENCES;
const us: Preferences = { amounts: 'us', gravity: 'plato', color: 'ebc', temperature: 'f' };
const brix: Preferences = { ...metric, gravity: 'brix' };

/** What a person sees after typing `text`, the app saving it, and the page showing it again. */
function roundTrip(text: string, kind: Parameters<typeof toInput>[1], p: Preferences): string {
  const api = fromInput(text, kind, p);
  if (api == null || Number.isNaN(api)) throw new Error(`not a number: ${text}`);
  return toInput(api, kind, p);
}

describe('round trips do not drift', () => {
  it('1.050 SG shows 1.050 again', () => {
    expect(roundTrip('1.050', 'gravity', metric)).toBe('1.050');
    expect(fromInput('1.050', 'gravity', metric)).toBe(1.05);
  });
  it('5 gal stays 5 gal', () => {
    expect(roundTrip('5', 'volume', us)).toBe('5');
    const litres = fromInput('5', 'volume', us)!;
    expect(litres).toBeCloseTo(18.927, 3);
  });
  it('many values in every unit come back as typed', () => {
    const cases: [string, Parameters<typeof toInput>[1], Preferences][] = [
      ['12.5', 'gravity', us],
      ['1.0', 'gravity', us],
      ['20.3', 'gravity', brix],
      ['10.25', 'mass_kg', us],
      ['1.5', 'mass_g', us],
      ['152', 'temperature', us],
      ['-3.5', 'temperature', us],
      ['7.9', 'color', us],
      ['72', 'fraction', metric],
      ['23.5', 'volume', metric],
      ['4.535', 'mass_kg', metric],
    ];
    for (const [text, kind, p] of cases) expect(roundTrip(text, kind, p)).toBe(text);
  });
  it('repeated saves of a shown value never move it', () => {
    let api = fromInput('5', 'volume', us)!;
    for (let i = 0; i < 50; i++) api = fromInput(toInput(api, 'volume', us), 'volume', us, api)!;
    expect(toInput(api, 'volume', us)).toBe('5');
    let g = 1.0483;
    const start = g;
    for (let i = 0; i < 50; i++) g = fromInput(toInput(g, 'gravity', us), 'gravity', us, g)!;
    expect(g).toBe(start);
  });
});

describe('conversions', () => {
  it('Plato and SG are inverse', () => {
    for (let p = 0; p <= 30; p += 0.7) expect(sgToPlato(platoToSg(p))).toBeCloseTo(p, 10);
    expect(sgToPlato(1.04)).toBeCloseTo(9.99, 1);
    expect(platoToSg(12)).toBeCloseTo(1.0484, 3);
  });
  it('known values', () => {
    expect(toInput(20, 'volume', us)).toBe('5.28');
    expect(toInput(1, 'mass_kg', us)).toBe('2.2');
    expect(toInput(28.349523125, 'mass_g', us)).toBe('1');
    expect(toInput(66.66666666, 'temperature', us)).toBe('152');
    expect(toInput(10, 'color', us)).toBe('19.7');
    expect(toInput(0.72, 'fraction', metric)).toBe('72');
  });
  it('boil-off rates follow the volume unit; grain absorption is qt/lb in US amounts', () => {
    expect(display(3.785411784, 'volume_rate', us)).toBe('1 gal/h');
    expect(display(4, 'volume_rate', metric)).toBe('4 L/h');
    expect(roundTrip('1.25', 'volume_rate', us)).toBe('1.25');
    expect(fromInput('1', 'volume_rate', us)).toBeCloseTo(3.785, 3);
    expect(display(1.04, 'absorption', metric)).toBe('1.04 L/kg');
    expect(fromInput('0.8', 'absorption', metric)).toBe(0.8);
    // 1 L/kg = (1 / 0.946352946 qt) / (1 / 0.45359237 lb) = 0.4793 qt/lb.
    expect(display(1, 'absorption', us)).toBe('0.48 qt/lb');
    expect(fromInput('0.5', 'absorption', us)).toBeCloseTo(1.0432, 4);
    expect(roundTrip('0.5', 'absorption', us)).toBe('0.5');
    expect(roundTrip('0.13', 'absorption', us)).toBe('0.13');
  });
});

describe('round defaults', () => {
  const batch = { L: 20, gal: 5 };
  it('reads as a round number in the unit shown', () => {
    expect(toInput(roundDefault('volume', batch, metric), 'volume', metric)).toBe('20');
    expect(toInput(roundDefault('volume', batch, us), 'volume', us)).toBe('5');
    expect(toInput(roundDefault('temperature', { '°C': 66, '°F': 152 }, us), 'temperature', us)).toBe('152');
    expect(toInput(roundDefault('mass_g', { g: 25, oz: 1 }, us), 'mass_g', us)).toBe('1');
    expect(toInput(roundDefault('mass_kg', { kg: 1, lb: 1 }, us), 'mass_kg', us)).toBe('1');
  });
  it('is in API units', () => {
    expect(roundDefault('volume', batch, metric)).toBe(20);
    expect(roundDefault('volume', batch, us)).toBeCloseTo(18.927, 3);
  });
  it('falls back to the first entry, in API units, for a unit it does not name', () => {
    expect(roundDefault('color', { SRM: 3 }, us)).toBe(3);
  });
});

describe('formatting', () => {
  it('gravity keeps its trailing zero', () => {
    expect(display(1.05, 'gravity', metric)).toBe('1.050');
    expect(display(1.0521, 'gravity', metric)).toBe('1.052');
  });
  it('units are shown', () => {
    expect(display(20, 'volume', metric)).toBe('20 L');
    expect(display(65, 'temperature', metric)).toBe('65 °C');
    expect(display(null, 'volume', metric)).toBe('—');
  });
  it('numbers', () => {
    expect(formatNumber(1.5, 2)).toBe('1.5');
    expect(formatNumber(-0.0001, 2)).toBe('0');
    expect(formatNumber(3, 1, true)).toBe('3.0');
  });
  it('parses what people type', () => {
    expect(parseNumber(' 1,050 ')).toBe(1.05);
    expect(parseNumber('')).toBeNull();
    expect(parseNumber('abc')).toBeNaN();
    expect(parseNumber('.5')).toBe(0.5);
  });
});
