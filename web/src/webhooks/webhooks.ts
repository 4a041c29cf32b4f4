// Webhooks: the events in words, an endpoint's state, a delivery attempt's outcome.
// Pure functions: unit-tested in webhooks.test.ts.
import type { Schemas } from '../api/client';
import { allOf } from '../api/enums';

export type Webhook = Schemas['Webhook'];
export type Attempt = Schemas['DeliveryAttempt'];
export type EventType = Schemas['EventType'];
export type SubscribableEvent = Exclude<EventType, 'ping'>;

/** Consecutive failed attempts after which the API switches an endpoint off. */
export const DEACTIVATE_AFTER = 50;

/** The events a webhook can subscribe to, with what each means for a brewer. Checked against the
 * API's list: an event the API adds fails the build until it is here, so a form never drops an
 * event it does not show. */
export const webhookEvents: readonly { type: SubscribableEvent; label: string; description: string }[] = allOf<SubscribableEvent>()([
  {
    type: 'session.status_changed',
    label: 'Session status changed',
    description: 'A brew session moves on: planned, brewing, fermenting, conditioning, completed or abandoned.',
  },
  {
    type: 'reading.created',
    label: 'Reading created',
    description: 'A fermentation reading is added, typed in or posted by a device.',
  },
  {
    type: 'fermentation.stable',
    label: 'Fermentation stable',
    description: 'Gravity has moved by 0.001 at most over 48 hours (3 readings or more): time to think about packaging.',
  },
  {
    type: 'fermentation.step_due',
    label: 'Fermentation step due',
    description: "A step of the session's fermentation schedule is due: its days are up, or its gravity is reached.",
  },
  {
    type: 'alert.raised',
    label: 'Alert raised',
    description: 'An alert rule fired: gravity past a mark, temperature outside its band, a stall or a silent device.',
  },
  {
    type: 'alert.cleared',
    label: 'Alert cleared',
    description: "An alert's condition is over, or its rule was disabled or deleted.",
  },
]);

export function eventLabel(type: string): string {
  if (type === 'ping') return 'Test (ping)';
  return webhookEvents.find((e) => e.type === type)?.label ?? type;
}

/** Whether the endpoint gets events, in words; `switchedOff` when the failures turned it off. */
export function webhookState(w: Pick<Webhook, 'active' | 'consecutive_failures'>): { text: string; switchedOff: boolean; tone: 'ok' | 'warn' | 'off' } {
  const n = w.consecutive_failures;
  const failures = `${n} failed ${n === 1 ? 'delivery' : 'deliveries'} in a row`;
  if (w.active) return n > 0 ? { text: `Active · ${failures}`, switchedOff: false, tone: 'warn' } : { text: 'Active', switchedOff: false, tone: 'ok' };
  if (n >= DEACTIVATE_AFTER) return { text: `Switched off after ${failures}`, switchedOff: true, tone: 'off' };
  return { text: n > 0 ? `Paused · ${failures}` : 'Paused', switchedOff: false, tone: 'off' };
}

/** One attempt's outcome as a sentence: "Delivered: answered 200 in 35 ms" or "Failed: … after 12 ms". */
export function attemptSummary(a: Pick<Attempt, 'status' | 'response_status' | 'duration_ms' | 'error'>): string {
  const answered = a.response_status != null ? `answered ${a.response_status}` : 'no answer';
  if (a.status === 'delivered') return `Delivered: ${answered} in ${a.duration_ms} ms`;
  const why = a.error ?? answered;
  const head = a.status === 'retrying' ? 'Failed, will retry' : 'Failed';
  return `${head}: ${why} (after ${a.duration_ms} ms)`;
}

export function statusWord(s: Attempt['status']): string {
  return s === 'delivered' ? 'Delivered' : s === 'retrying' ? 'Retrying' : 'Failed';
}
