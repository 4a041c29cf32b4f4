import type { Schemas } from '../api/client';

export type StepTimer = Schemas['StepTimer'];

/** How far the server's clock is ahead of this device's (ms), learnt from a running timer's
 * answer: the server said `remaining_seconds` at `ends_at − remaining`, and it arrived at
 * `receivedAt` here. 0 until a running timer has been seen. */
export function skewOf(timer: StepTimer | null | undefined, receivedAt: number): number | null {
  if (!timer || timer.state !== 'running' || !timer.ends_at) return null;
  return Date.parse(timer.ends_at) - timer.remaining_seconds * 1000 - receivedAt;
}

/** What a step's timer shows at `now` (ms since the epoch on this device). The server holds the
 * countdown; a running timer counts down locally to its `ends_at`, read on the server's clock
 * (`skew`: how far it is ahead of this device's), so a device whose clock is off still shows the
 * server's countdown. */
export function timerView(timer: StepTimer, now: number, skew = 0): { state: StepTimer['state']; left: number } {
  if ((timer.state === 'running' || timer.state === 'done') && timer.ends_at) {
    const left = Math.max(0, (Date.parse(timer.ends_at) - (now + skew)) / 1000);
    return { state: left > 0 ? 'running' : 'done', left };
  }
  return { state: timer.state, left: Math.max(0, timer.remaining_seconds) };
}

/** A timer that ended this long ago still sounds when the page opens (a reload just after the
 * end); an older one only shows "Time is up". */
export const ALARM_GRACE_MS = 60_000;

/** Whether a timer that is done at `now` should sound now: it ended within the grace. */
export function shouldAlarm(timer: StepTimer, now: number, skew = 0): boolean {
  if (!timer.ends_at || timerView(timer, now, skew).state !== 'done') return false;
  return now + skew - Date.parse(timer.ends_at) <= ALARM_GRACE_MS;
}

/** The timer buttons a state offers: the server's state machine decides; these are its moves. */
export function timerActions(state: StepTimer['state']): Schemas['StepTimerRequest']['action'][] {
  switch (state) {
    case 'idle':
      return ['start'];
    case 'running':
      return ['pause', 'reset'];
    case 'paused':
      return ['resume', 'reset'];
    case 'done':
      return ['reset'];
  }
}

/** A `datetime-local` value (local time, to the minute) for an instant. */
export function toLocalInput(iso: string | number | Date): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The instant a `datetime-local` value means, as RFC 3339 UTC; null when empty or invalid. */
export function fromLocalInput(value: string): string | null {
  if (!value) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/**
 * What a timer will look like once the server has taken `action`, for a device that is offline
 * and queued it: shown until the server's answer (sent when the network returns) replaces it.
 * The server decides for real; an action it refuses then shows as not saved.
 */
export function expectedTimer(timer: StepTimer, action: Schemas['StepTimerRequest']['action'], now: number, totalSeconds: number): StepTimer {
  const { left } = timerView(timer, now);
  const at = (ms: number) => new Date(ms).toISOString();
  switch (action) {
    case 'start':
      return { state: 'running', started_at: at(now), ends_at: at(now + totalSeconds * 1000), remaining_seconds: totalSeconds };
    case 'resume':
      return { ...timer, state: 'running', ends_at: at(now + left * 1000), remaining_seconds: left };
    case 'pause':
      return { ...timer, state: 'paused', ends_at: null, remaining_seconds: left };
    case 'reset':
      return { state: 'idle', started_at: null, ends_at: null, remaining_seconds: totalSeconds };
  }
}
