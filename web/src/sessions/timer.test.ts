import { describe, expect, it } from 'vitest';
import { ALARM_GRACE_MS, expectedTimer, fromLocalInput, shouldAlarm, skewOf, timerActions, timerView, toLocalInput, type StepTimer } from './timer';

const T0 = Date.parse('2026-11-28T09:00:00.000Z');
const running: StepTimer = {
  state: 'running',
  started_at: '2026-11-28T09:00:00.000Z',
  ends_at: '2026-11-28T10:00:00.000Z',
  remaining_seconds: 3600,
};

describe('timerView', () => {
  it('counts a running timer down from ends_at, not from when it was fetched', () => {
    expect(timerView(running, T0 + 600_000)).toEqual({ state: 'running', left: 3000 });
  });
  it("counts on the server's clock, whatever this device's clock says", () => {
    // The server answered 1800 s left; this device's clock is an hour behind the server's.
    const answer = { ...running, remaining_seconds: 1800 };
    const serverNow = Date.parse(running.ends_at!) - 1_800_000;
    const received = serverNow - 3_600_000;
    const skew = skewOf(answer, received)!;
    expect(skew).toBe(3_600_000);
    expect(timerView(answer, received + 60_000, skew)).toEqual({ state: 'running', left: 1740 });
    expect(timerView(answer, received + 1_800_000, skew)).toEqual({ state: 'done', left: 0 });
    expect(shouldAlarm(answer, received + 1_800_000, skew)).toBe(true);
    expect(skewOf({ ...answer, state: 'paused' }, received)).toBeNull();
  });
  it('is done once ends_at passes, with nothing left', () => {
    expect(timerView(running, T0 + 3_600_000)).toEqual({ state: 'done', left: 0 });
    expect(timerView(running, T0 + 9_000_000)).toEqual({ state: 'done', left: 0 });
  });
  it('shows what a paused or idle timer holds', () => {
    expect(timerView({ state: 'paused', started_at: running.started_at, ends_at: null, remaining_seconds: 1234 }, T0)).toEqual({ state: 'paused', left: 1234 });
    expect(timerView({ state: 'idle', started_at: null, ends_at: null, remaining_seconds: 3600 }, T0)).toEqual({ state: 'idle', left: 3600 });
  });
});

describe('shouldAlarm', () => {
  it('sounds for a timer that just ended, not for one running or long done', () => {
    expect(shouldAlarm(running, T0 + 1_000)).toBe(false);
    expect(shouldAlarm(running, T0 + 3_600_000)).toBe(true);
    expect(shouldAlarm(running, T0 + 3_600_000 + ALARM_GRACE_MS + 1)).toBe(false);
  });
});

describe('timerActions', () => {
  it('offers the moves of each state', () => {
    expect(timerActions('idle')).toEqual(['start']);
    expect(timerActions('running')).toEqual(['pause', 'reset']);
    expect(timerActions('paused')).toEqual(['resume', 'reset']);
    expect(timerActions('done')).toEqual(['reset']);
  });
});

describe('datetime-local', () => {
  it('round-trips an instant to the minute', () => {
    const iso = '2026-11-27T18:45:00.000Z';
    expect(fromLocalInput(toLocalInput(iso))).toBe(iso);
    expect(fromLocalInput('')).toBeNull();
    expect(fromLocalInput('nonsense')).toBeNull();
  });
});

describe('expectedTimer (an action queued offline)', () => {
  const idle = { state: 'idle' as const, started_at: null, ends_at: null, remaining_seconds: 3600 };
  const now = Date.parse('2026-11-26T10:00:00Z');
  it('start runs the whole duration from now; pause keeps what is left; resume runs it out', () => {
    const running = expectedTimer(idle, 'start', now, 3600);
    expect(running).toMatchObject({ state: 'running', ends_at: '2026-11-26T11:00:00.000Z', remaining_seconds: 3600 });
    const paused = expectedTimer(running, 'pause', now + 600_000, 3600);
    expect(paused).toMatchObject({ state: 'paused', ends_at: null, remaining_seconds: 3000 });
    const resumed = expectedTimer(paused, 'resume', now + 900_000, 3600);
    expect(resumed).toMatchObject({ state: 'running', ends_at: '2026-11-26T11:05:00.000Z' });
    expect(expectedTimer(resumed, 'reset', now, 3600)).toEqual(idle);
  });
});
