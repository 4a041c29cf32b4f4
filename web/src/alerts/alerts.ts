// Alerts and alert rules in words, in the account's units; the rule form's fields per kind and the
// body it sends. Pure functions: unit-tested in alerts.test.ts. The API owns every rule about
// alerts (bounds, which fields a kind takes); this file only says them and converts units.
import type { Schemas } from '../api/client';
import { allOf } from '../api/enums';
import type { Preferences } from '../api/extra';
import { display, formatNumber, fromInput, toInput, unitFor, type Kind as UnitKind } from '../units';

export type Alert = Schemas['Alert'];
export type AlertRule = Schemas['AlertRule'];
export type AlertKind = Schemas['AlertKind'];
export type RuleBody = Schemas['CreateAlertRuleRequest'];

/** What each kind watches, in words. Checked against the API's list: a kind the API adds fails the
 * build until it is here. */
export const alertKinds = allOf<AlertKind>()([
  ['temperature_outside', 'Temperature outside a range'],
  ['gravity_below', 'Gravity below a mark'],
  ['gravity_above', 'Gravity above a mark'],
  ['stalled', 'Fermentation stalled'],
  ['device_silent', 'Device silent'],
] as const);

export function kindLabel(kind: AlertKind): string {
  return alertKinds.find(([k]) => k === kind)?.[1] ?? kind;
}

/** A duration in minutes as people say it: "45 min", "2 h", "1 h 30 min", "2 days 3 h". */
export function minutesText(minutes: number): string {
  const m = Math.round(minutes);
  if (m < 60) return `${m} min`;
  const days = Math.floor(m / 1440);
  const h = Math.floor((m % 1440) / 60);
  const rest = m % 60;
  const parts = [days ? `${days} ${days === 1 ? 'day' : 'days'}` : '', h ? `${h} h` : '', rest && !days ? `${rest} min` : ''];
  return parts.filter(Boolean).join(' ');
}

function pointsText(points: number): string {
  const n = formatNumber(points, 1);
  return `${n} ${n === '1' ? 'point' : 'points'}`;
}

/**
 * The alert in words, in the account's units, from its `kind` and `value` (the API's `message` is
 * metric). The rule that raised it adds its mark when it is still there.
 */
export function alertText(alert: Pick<Alert, 'kind' | 'value'>, p: Preferences, rule?: AlertRule | null): string {
  const v = alert.value;
  switch (alert.kind) {
    case 'temperature_outside': {
      const t = display(v, 'temperature', p);
      if (rule?.max_c != null && v > rule.max_c) return `Temperature ${t} is above ${display(rule.max_c, 'temperature', p)}`;
      if (rule?.min_c != null && v < rule.min_c) return `Temperature ${t} is below ${display(rule.min_c, 'temperature', p)}`;
      return `Temperature ${t} is outside the range`;
    }
    case 'gravity_below':
      return rule?.gravity != null
        ? `Gravity ${display(v, 'gravity', p)} is below ${display(rule.gravity, 'gravity', p)}`
        : `Gravity ${display(v, 'gravity', p)} is below the mark`;
    case 'gravity_above':
      return rule?.gravity != null
        ? `Gravity ${display(v, 'gravity', p)} is above ${display(rule.gravity, 'gravity', p)}`
        : `Gravity ${display(v, 'gravity', p)} is above the mark`;
    case 'stalled':
      return rule?.hours != null
        ? `Fermentation stalled: gravity moved ${pointsText(v)} in ${minutesText(rule.hours * 60)}`
        : `Fermentation stalled: gravity moved only ${pointsText(v)}`;
    case 'device_silent':
      return `A device has not posted for ${minutesText(v)}`;
  }
}

/** What a rule watches, in words and the account's units: "Temperature outside 64.4–69.8 °F". */
export function ruleText(rule: AlertRule, p: Preferences): string {
  switch (rule.kind) {
    case 'temperature_outside': {
      const u = unitFor('temperature', p);
      const lo = rule.min_c != null ? formatNumber(u.to(rule.min_c), u.decimals) : '?';
      const hi = rule.max_c != null ? formatNumber(u.to(rule.max_c), u.decimals) : '?';
      return `Temperature outside ${lo}–${hi} ${u.symbol}`;
    }
    case 'gravity_below':
      return `Gravity below ${display(rule.gravity, 'gravity', p)}`;
    case 'gravity_above':
      return `Gravity above ${display(rule.gravity, 'gravity', p)}`;
    case 'stalled':
      return `Stalled: gravity moves less than ${pointsText(rule.points ?? 0)} in ${minutesText((rule.hours ?? 0) * 60)}`;
    case 'device_silent':
      return `Device silent for ${minutesText(rule.minutes ?? 0)}`;
  }
}

/** A number field of the rule form: the API's field, its label, and the unit it is typed in. */
export interface RuleField {
  name: 'gravity' | 'min_c' | 'max_c' | 'points' | 'hours' | 'minutes';
  label: string;
  unit: UnitKind;
  hint?: string;
}

const FIELDS: Record<AlertKind, readonly RuleField[]> = {
  temperature_outside: [
    { name: 'min_c', label: 'Lowest temperature', unit: 'temperature' },
    { name: 'max_c', label: 'Highest temperature', unit: 'temperature' },
  ],
  gravity_below: [{ name: 'gravity', label: 'Gravity', unit: 'gravity', hint: 'An alert when the latest gravity is below this.' }],
  gravity_above: [{ name: 'gravity', label: 'Gravity', unit: 'gravity', hint: 'An alert when the latest gravity is above this.' }],
  stalled: [
    { name: 'points', label: 'Gravity points', unit: 'plain', hint: '1 point is 0.001 SG. An alert when gravity moves less than this…' },
    { name: 'hours', label: 'Hours', unit: 'plain', hint: '…over this many hours, while still above the predicted FG.' },
  ],
  device_silent: [{ name: 'minutes', label: 'Minutes', unit: 'plain', hint: 'An alert when a device feeding the session has not posted for this long.' }],
};

/** The fields the form shows for `kind`: exactly the ones the API takes for it. */
export function ruleFields(kind: AlertKind): readonly RuleField[] {
  return FIELDS[kind];
}

/** The unit a field's API value is converted with (for a 422's bounds too). */
export const fieldUnits: Record<string, UnitKind> = { gravity: 'gravity', min_c: 'temperature', max_c: 'temperature' };

/** The label of a field with its unit symbol: "Lowest temperature (°F)". */
export function fieldLabel(f: RuleField, p: Preferences): string {
  if (f.unit === 'plain') return f.label;
  const symbol = unitFor(f.unit, p).symbol;
  return symbol ? `${f.label} (${symbol})` : f.label;
}

export type RuleTexts = Partial<Record<RuleField['name'], string>>;

/** Starting values of a new rule of `kind`, typed in the account's units (round in those units). */
export function defaultTexts(kind: AlertKind, p: Preferences): RuleTexts {
  const f = p.temperature === 'f';
  switch (kind) {
    case 'temperature_outside':
      return f ? { min_c: '64', max_c: '70' } : { min_c: '18', max_c: '21' };
    case 'gravity_below':
    case 'gravity_above':
      return { gravity: toInput(1.01, 'gravity', p) };
    case 'stalled':
      return { points: '1', hours: '48' };
    case 'device_silent':
      return { minutes: '60' };
  }
}

/** A rule's values as the form's texts, in the account's units. */
export function ruleTexts(rule: AlertRule, p: Preferences): RuleTexts {
  const out: RuleTexts = {};
  for (const f of ruleFields(rule.kind)) out[f.name] = toInput(rule[f.name] ?? null, f.unit, p);
  return out;
}

/**
 * The body the form sends: the kind's fields only, converted to the API's units (°C, SG). A field
 * left empty is sent as `null` and one that is not a number as the text, so the API's `422` says
 * what is wrong at that field; the web app checks nothing the API checks.
 */
export function ruleBody(kind: AlertKind, texts: RuleTexts, p: Preferences, current?: AlertRule | null): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const f of ruleFields(kind)) {
    const text = texts[f.name] ?? '';
    const v = fromInput(text, f.unit, p, current?.[f.name] ?? null);
    body[f.name] = v == null ? null : Number.isNaN(v) ? text : v;
  }
  return body;
}

/** Whether the alert's condition still holds (not cleared yet). */
export function isActive(a: Pick<Alert, 'cleared_at'>): boolean {
  return a.cleared_at == null;
}

type SessionLike = Pick<Schemas['BrewSession'], 'id' | 'name' | 'status' | 'brew_date'>;

/**
 * The rule form's session choices: "Every fermenting session" first, then the sessions a rule can
 * watch (not completed or abandoned), newest brew day first, and the rule's own session even when
 * it is closed now.
 */
export function sessionChoices(sessions: readonly SessionLike[], current: string | null | undefined): [string, string][] {
  const shown = sessions.filter((s) => (s.status !== 'completed' && s.status !== 'abandoned') || s.id === current);
  shown.sort((a, b) => (a.brew_date < b.brew_date ? 1 : a.brew_date > b.brew_date ? -1 : a.name.localeCompare(b.name)));
  const out: [string, string][] = [['', 'Every fermenting session'], ...shown.map((s): [string, string] => [s.id, `${s.name} (brew day ${s.brew_date})`])];
  if (current && !shown.some((s) => s.id === current)) out.push([current, 'The brew session it watches']);
  return out;
}

const FIELD_WORDS: Record<string, string> = { min_c: 'the lowest temperature', max_c: 'the highest temperature' };

/**
 * A rule's `422` message as the form says it: the API's words, with its field names as the form's
 * labels and a temperature difference in °F on a °F account ("max_c must be at least 1 °C above
 * min_c" reads "The highest temperature must be at least 1.8 °F above the lowest temperature").
 */
export function ruleIssueText(message: string, p: Preferences): string {
  let out = message.replace(/\b(min_c|max_c)\b/g, (m) => FIELD_WORDS[m] ?? m);
  if (p.temperature === 'f')
    out = out.replace(/(\d+(?:\.\d+)?) °C (above|below|apart)/g, (_, n: string, w: string) => `${formatNumber(Number(n) * 1.8, 1)} °F ${w}`);
  return out.charAt(0).toUpperCase() + out.slice(1);
}
