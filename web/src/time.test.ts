import { describe, expect, it } from 'vitest';
import { absoluteTime, relativeTime, seenText, untilTime } from './time';

const now = Date.parse('2026-11-24T12:00:00Z');
const ago = (s: number) => new Date(now - s * 1000).toISOString();

describe('relative time', () => {
  it('says "just now" for the last seconds and for a clock a little ahead', () => {
    expect(relativeTime(ago(0), now)).toBe('just now');
    expect(relativeTime(ago(44), now)).toBe('just now');
    expect(relativeTime(ago(-30), now)).toBe('just now');
  });
  it('minutes, hours, days, months, years', () => {
    expect(relativeTime(ago(60), now)).toBe('1 min ago');
    expect(relativeTime(ago(59 * 60), now)).toBe('59 min ago');
    expect(relativeTime(ago(3 * 3600), now)).toBe('3 h ago');
    expect(relativeTime(ago(26 * 3600), now)).toBe('yesterday');
    expect(relativeTime(ago(5 * 86400), now)).toBe('5 days ago');
    expect(relativeTime(ago(90 * 86400), now)).toBe('3 months ago');
    expect(relativeTime(ago(400 * 86400), now)).toBe('a year ago');
    expect(relativeTime(ago(3 * 365 * 86400), now)).toBe('3 years ago');
  });
  it('is empty for what is not a time', () => {
    expect(relativeTime('not a date', now)).toBe('');
  });
});

describe('last seen', () => {
  it('"never" without an instant', () => {
    expect(seenText(null, now)).toBe('never');
    expect(seenText(undefined, now, 'Never')).toBe('Never');
  });
  it('relative, then the date and time in the given zone', () => {
    const iso = ago(300);
    expect(absoluteTime(iso, 'en-GB', 'UTC')).toBe('24 Nov 2026, 11:55');
    expect(seenText(iso, now, 'never', 'en-GB', 'UTC')).toBe('5 min ago · 24 Nov 2026, 11:55');
  });
});

describe('time until', () => {
  it('minutes, hours, days; "now" once it has come', () => {
    expect(untilTime(ago(-10 * 60), now)).toBe('in 10 min');
    expect(untilTime(ago(-5 * 3600), now)).toBe('in 5 h');
    expect(untilTime(ago(-30 * 3600), now)).toBe('tomorrow');
    expect(untilTime(ago(-3 * 86400), now)).toBe('in 3 days');
    expect(untilTime(ago(60), now)).toBe('now');
  });
});
