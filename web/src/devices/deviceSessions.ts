// The brew sessions a device can be assigned to. Pure: unit-tested in deviceSessions.test.ts.
import type { Schemas } from '../api/client';
import { statusLabel } from '../sessions/sessionStatus';

export type Session = Schemas['BrewSession'];

/** Whether a device's posts are stored in this session (the API stores them while it is neither completed nor abandoned). */
export function isOpen(s: Pick<Session, 'status'>): boolean {
  return s.status !== 'completed' && s.status !== 'abandoned';
}

/**
 * The select's choices: the open sessions, newest brew day first, and the session the device is
 * assigned to now even when it is closed (so the select shows it, marked as taking no readings).
 */
export function sessionOptions(
  sessions: readonly Pick<Session, 'id' | 'name' | 'status' | 'brew_date'>[],
  current: string | null | undefined,
): [string, string][] {
  const shown = sessions.filter((s) => isOpen(s) || s.id === current);
  shown.sort((a, b) => (a.brew_date < b.brew_date ? 1 : a.brew_date > b.brew_date ? -1 : a.name.localeCompare(b.name)));
  const out: [string, string][] = shown.map((s) => [
    s.id,
    `${s.name} (${statusLabel[s.status].toLowerCase()}, brew day ${s.brew_date})${isOpen(s) ? '' : ': takes no readings'}`,
  ]);
  if (current && !shown.some((s) => s.id === current)) out.unshift([current, 'The assigned brew session']);
  return out;
}
