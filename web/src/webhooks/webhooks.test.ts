import { describe, expect, it } from 'vitest';
import { attemptSummary, DEACTIVATE_AFTER, eventLabel, statusWord, webhookEvents, webhookState } from './webhooks';

describe('webhook events', () => {
  it('are exactly the ones the API accepts, each with a plain description', () => {
    expect(webhookEvents.map((e) => e.type)).toEqual([
      'session.status_changed',
      'reading.created',
      'fermentation.stable',
      'fermentation.step_due',
      'alert.raised',
      'alert.cleared',
    ]);
    for (const e of webhookEvents) expect(e.description.length).toBeGreaterThan(20);
  });
  it('names the test ping and unknown types as they are', () => {
    expect(eventLabel('ping')).toBe('Test (ping)');
    expect(eventLabel('reading.created')).toBe('Reading created');
    expect(eventLabel('brand.new')).toBe('brand.new');
  });
});

describe('webhook state', () => {
  it('active, with a failure count when there is one', () => {
    expect(webhookState({ active: true, consecutive_failures: 0 })).toEqual({ text: 'Active', switchedOff: false, tone: 'ok' });
    expect(webhookState({ active: true, consecutive_failures: 1 }).text).toBe('Active · 1 failed delivery in a row');
    expect(webhookState({ active: true, consecutive_failures: 7 }).tone).toBe('warn');
  });
  it('switched off by the failures, or paused by hand', () => {
    const off = webhookState({ active: false, consecutive_failures: DEACTIVATE_AFTER });
    expect(off).toEqual({ text: 'Switched off after 50 failed deliveries in a row', switchedOff: true, tone: 'off' });
    expect(webhookState({ active: false, consecutive_failures: 0 })).toEqual({ text: 'Paused', switchedOff: false, tone: 'off' });
    expect(webhookState({ active: false, consecutive_failures: 3 }).switchedOff).toBe(false);
  });
});

describe('attempt summary', () => {
  it('delivered: the status and the time taken', () => {
    expect(attemptSummary({ status: 'delivered', response_status: 204, duration_ms: 35, error: null })).toBe('Delivered: answered 204 in 35 ms');
  });
  it('failed: the error, else what the endpoint answered', () => {
    expect(attemptSummary({ status: 'failed', response_status: null, duration_ms: 0, error: 'Connection refused (os error 111)' })).toBe(
      'Failed: Connection refused (os error 111) (after 0 ms)',
    );
    expect(attemptSummary({ status: 'retrying', response_status: 500, duration_ms: 12, error: null })).toBe('Failed, will retry: answered 500 (after 12 ms)');
  });
  it('status words', () => {
    expect(statusWord('delivered')).toBe('Delivered');
    expect(statusWord('failed')).toBe('Failed');
  });
});
