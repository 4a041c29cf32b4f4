import { describe, expect, it } from 'vitest';
import { DEFAULT_PREFERENCES, type Preferences } from '../api/extra';
import {
  alertText,
  defaultTexts,
  fieldLabel,
  minutesText,
  ruleBody,
  ruleFields,
  ruleIssueText,
  ruleText,
  ruleTexts,
  sessionChoices,
  type AlertRule,
} from './alerts';

const metric: Preferences = DEFAULT_PREFERENCES;
const us: Preferences = { ...DEFAULT_PREFERENCES, amounts: 'us', temperature: 'f' };
const plato: Preferences = { ...DEFAULT_PREFERENCES, gravity: 'plato' };

function rule(over: Partial<AlertRule>): AlertRule {
  return {
    id: 'r1',
    kind: 'temperature_outside',
    enabled: true,
    session_id: null,
    created_at: '2026-12-01T00:00:00Z',
    updated_at: '2026-12-01T00:00:00Z',
    ...over,
  };
}

const band = rule({ kind: 'temperature_outside', min_c: 18, max_c: 21 });

describe('alertText', () => {
  it('says a temperature in °C or °F, against the edge it crossed', () => {
    expect(alertText({ kind: 'temperature_outside', value: 22.4 }, metric, band)).toBe('Temperature 22.4 °C is above 21 °C');
    expect(alertText({ kind: 'temperature_outside', value: 22.4 }, us, band)).toBe('Temperature 72.3 °F is above 69.8 °F');
    expect(alertText({ kind: 'temperature_outside', value: 16 }, us, band)).toBe('Temperature 60.8 °F is below 64.4 °F');
    // The rule deleted: the value alone.
    expect(alertText({ kind: 'temperature_outside', value: 16 }, metric, null)).toBe('Temperature 16 °C is outside the range');
  });

  it('says a gravity in the account’s gravity unit', () => {
    const mark = rule({ kind: 'gravity_below', gravity: 1.016 });
    expect(alertText({ kind: 'gravity_below', value: 1.015 }, metric, mark)).toBe('Gravity 1.015 is below 1.016');
    expect(alertText({ kind: 'gravity_below', value: 1.015 }, us, mark)).toBe('Gravity 1.015 is below 1.016');
    expect(alertText({ kind: 'gravity_above', value: 1.05 }, metric)).toBe('Gravity 1.050 is above the mark');
    expect(alertText({ kind: 'gravity_below', value: 1.015 }, plato, mark)).toBe('Gravity 3.8 °P is below 4.1 °P');
  });

  it('says a stall in points and a silent device in hours and minutes', () => {
    expect(alertText({ kind: 'stalled', value: 0.5 }, us, rule({ kind: 'stalled', points: 1, hours: 48 }))).toBe(
      'Fermentation stalled: gravity moved 0.5 points in 2 days',
    );
    expect(alertText({ kind: 'stalled', value: 1 }, metric)).toBe('Fermentation stalled: gravity moved only 1 point');
    expect(alertText({ kind: 'device_silent', value: 95 }, metric)).toBe('A device has not posted for 1 h 35 min');
  });
});

describe('minutesText', () => {
  it('reads as people say it', () => {
    expect(minutesText(45)).toBe('45 min');
    expect(minutesText(120)).toBe('2 h');
    expect(minutesText(1440)).toBe('1 day');
    expect(minutesText(10080)).toBe('7 days');
    expect(minutesText(1500)).toBe('1 day 1 h');
  });
});

describe('ruleText', () => {
  it('says each kind in the account’s units', () => {
    expect(ruleText(band, metric)).toBe('Temperature outside 18–21 °C');
    expect(ruleText(band, us)).toBe('Temperature outside 64.4–69.8 °F');
    expect(ruleText(rule({ kind: 'gravity_above', gravity: 1.02 }), metric)).toBe('Gravity above 1.020');
    expect(ruleText(rule({ kind: 'stalled', points: 1, hours: 24 }), metric)).toBe('Stalled: gravity moves less than 1 point in 1 day');
    expect(ruleText(rule({ kind: 'device_silent', minutes: 60 }), metric)).toBe('Device silent for 1 h');
  });
});

describe('the rule form’s fields', () => {
  it('are exactly the fields the kind takes', () => {
    expect(ruleFields('temperature_outside').map((f) => f.name)).toEqual(['min_c', 'max_c']);
    expect(ruleFields('gravity_below').map((f) => f.name)).toEqual(['gravity']);
    expect(ruleFields('gravity_above').map((f) => f.name)).toEqual(['gravity']);
    expect(ruleFields('stalled').map((f) => f.name)).toEqual(['points', 'hours']);
    expect(ruleFields('device_silent').map((f) => f.name)).toEqual(['minutes']);
  });

  it('are labelled in the account’s units', () => {
    const [lo] = ruleFields('temperature_outside');
    expect(fieldLabel(lo!, us)).toBe('Lowest temperature (°F)');
    expect(fieldLabel(lo!, metric)).toBe('Lowest temperature (°C)');
    expect(fieldLabel(ruleFields('gravity_below')[0]!, metric)).toBe('Gravity (SG)');
    expect(fieldLabel(ruleFields('device_silent')[0]!, metric)).toBe('Minutes');
  });

  it('start from round numbers in those units', () => {
    expect(defaultTexts('temperature_outside', us)).toEqual({ min_c: '64', max_c: '70' });
    expect(defaultTexts('temperature_outside', metric)).toEqual({ min_c: '18', max_c: '21' });
    expect(defaultTexts('gravity_below', metric)).toEqual({ gravity: '1.010' });
  });
});

describe('ruleBody', () => {
  it('sends °C for what a US account typed in °F, and only the kind’s fields', () => {
    const body = ruleBody('temperature_outside', { min_c: '64.4', max_c: '69.8', gravity: '1.010' }, us);
    expect(Object.keys(body)).toEqual(['min_c', 'max_c']);
    expect(body.min_c).toBeCloseTo(18, 9);
    expect(body.max_c).toBeCloseTo(21, 9);
  });

  it('sends SG and plain numbers as typed', () => {
    expect(ruleBody('gravity_below', { gravity: '1,012' }, metric)).toEqual({ gravity: 1.012 });
    expect(ruleBody('stalled', { points: '2', hours: '36' }, us)).toEqual({ points: 2, hours: 36 });
  });

  it('leaves the checking to the API: empty is null, not a number is the text', () => {
    expect(ruleBody('device_silent', { minutes: '' }, metric)).toEqual({ minutes: null });
    expect(ruleBody('device_silent', { minutes: 'soon' }, metric)).toEqual({ minutes: 'soon' });
  });

  it('keeps an untouched value exactly as stored (no drift through °F)', () => {
    const odd = rule({ kind: 'temperature_outside', min_c: 18.3, max_c: 20.9 });
    const texts = ruleTexts(odd, us);
    expect(texts).toEqual({ min_c: '64.9', max_c: '69.6' });
    expect(ruleBody('temperature_outside', texts, us, odd)).toEqual({ min_c: 18.3, max_c: 20.9 });
  });
});

describe('sessionChoices', () => {
  const sessions = [
    { id: 'a', name: 'Pale', status: 'fermenting' as const, brew_date: '2026-11-20' },
    { id: 'b', name: 'Stout', status: 'completed' as const, brew_date: '2026-10-01' },
    { id: 'c', name: 'Lager', status: 'conditioning' as const, brew_date: '2026-11-25' },
  ];
  it('offers every fermenting session first, then the open sessions, newest first', () => {
    expect(sessionChoices(sessions, null)).toEqual([
      ['', 'Every fermenting session'],
      ['c', 'Lager (brew day 2026-11-25)'],
      ['a', 'Pale (brew day 2026-11-20)'],
    ]);
  });
  it('keeps the watched session even when it is closed', () => {
    expect(sessionChoices(sessions, 'b').map(([id]) => id)).toEqual(['', 'c', 'a', 'b']);
    expect(sessionChoices([], 'x')).toEqual([
      ['', 'Every fermenting session'],
      ['x', 'The brew session it watches'],
    ]);
  });
});

describe('ruleIssueText', () => {
  const band = 'max_c must be at least 1 °C above min_c, so that an alert can clear';
  it('names the fields as the form does, and a difference in °F on a °F account', () => {
    expect(ruleIssueText(band, metric)).toBe('The highest temperature must be at least 1 °C above the lowest temperature, so that an alert can clear');
    expect(ruleIssueText(band, us)).toBe('The highest temperature must be at least 1.8 °F above the lowest temperature, so that an alert can clear');
  });
  it('leaves other messages as the API wrote them', () => {
    expect(ruleIssueText('A device_silent rule needs minutes', us)).toBe('A device_silent rule needs minutes');
    expect(ruleIssueText('Must be at most 248 °F', us)).toBe('Must be at most 248 °F');
  });
});
