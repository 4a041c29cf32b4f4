// Instants as people read them: "3 min ago" beside the date and time. Unit-tested in time.test.ts.

/** How long ago `iso` was, in words ("just now", "5 min ago", "3 h ago", "2 days ago"). */
export function relativeTime(iso: string, now: number = Date.now()): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '';
  const s = Math.round((now - t) / 1000);
  // A clock a little ahead of this one: still "just now", never "in 2 s".
  if (s < 45) return 'just now';
  const min = Math.round(s / 60);
  if (min < 60) return `${min} min ago`;
  const h = Math.round(s / 3600);
  if (h < 24) return `${h} h ago`;
  const d = Math.round(s / 86400);
  if (d < 45) return d === 1 ? 'yesterday' : `${d} days ago`;
  const months = Math.round(d / 30.44);
  if (months < 12) return `${months} months ago`;
  const years = Math.round(d / 365.25);
  return years === 1 ? 'a year ago' : `${years} years ago`;
}

/** How long until `iso`, in words ("in 5 min", "in 3 h", "in 2 days"); "now" once it has come. */
export function untilTime(iso: string, now: number = Date.now()): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '';
  const s = Math.round((t - now) / 1000);
  if (s < 45) return 'now';
  const min = Math.round(s / 60);
  if (min < 60) return `in ${min} min`;
  const h = Math.round(s / 3600);
  if (h < 24) return `in ${h} h`;
  const d = Math.round(s / 86400);
  return d === 1 ? 'tomorrow' : `in ${d} days`;
}

/** The date and time in the person's locale and time zone. */
export function absoluteTime(iso: string, locale?: string, timeZone?: string): string {
  return new Date(iso).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone });
}

/** "5 min ago · 24 Nov 2026, 03:50", or `never` when there is no instant. */
export function seenText(iso: string | null | undefined, now: number = Date.now(), never = 'never', locale?: string, timeZone?: string): string {
  if (!iso) return never;
  return `${relativeTime(iso, now)} · ${absoluteTime(iso, locale, timeZone)}`;
}
