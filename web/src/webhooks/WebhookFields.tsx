import { useId } from 'react';
import { OnceSecret } from '../components/Secret';
import { webhookEvents, type SubscribableEvent } from './webhooks';

/**
 * The events as checkboxes in a group named "Events". At least one is needed: the API
 * refuses an empty list (422 at `events`), and that message, or `error`, shows at the group.
 */
export function EventChoices({ value, onChange, error }: { value: SubscribableEvent[]; onChange: (v: SubscribableEvent[]) => void; error?: string }) {
  const id = useId();
  return (
    <fieldset className="events" aria-describedby={error ? `${id}-err` : `${id}-hint`} aria-invalid={error ? true : undefined}>
      <legend>Events</legend>
      <p className="hint" id={`${id}-hint`}>
        Choose at least one.
      </p>
      {webhookEvents.map((e) => (
        <div className="check event" key={e.type}>
          <input
            type="checkbox"
            id={`${id}-${e.type}`}
            aria-describedby={`${id}-${e.type}-d`}
            checked={value.includes(e.type)}
            onChange={(ev) =>
              onChange(
                ev.target.checked ? webhookEvents.map((w) => w.type).filter((t) => t === e.type || value.includes(t)) : value.filter((t) => t !== e.type),
              )
            }
          />
          <div>
            <label htmlFor={`${id}-${e.type}`}>{e.label}</label>
            <span className="event-desc" id={`${id}-${e.type}-d`}>
              {e.description} <code>{e.type}</code>
            </span>
          </div>
        </div>
      ))}
      {error && (
        <p className="field-error" id={`${id}-err`}>
          {error}
        </p>
      )}
    </fieldset>
  );
}

/** Client-side check before sending: the API says the same (422), in its words. */
export function eventsMissing(events: readonly string[]): string | undefined {
  return events.length === 0 ? 'Choose at least one event.' : undefined;
}

/** A new webhook's signing secret, shown once, with how to verify a delivery. */
export function WebhookSecret({ url, secret, onDone }: { url: string; secret: string; onDone: () => void }) {
  return (
    <OnceSecret title="Webhook added" label="Signing secret" value={secret} copyLabel="Copy secret" onDone={onDone}>
      <p className="small">
        For <span className="break">{url}</span>. Every delivery follows{' '}
        <a href="https://www.standardwebhooks.com/" rel="noreferrer" target="_blank">
          Standard Webhooks
        </a>
        : a <code>POST</code> with JSON <code>{'{"type","timestamp","data"}'}</code> and the headers <code>webhook-id</code>, <code>webhook-timestamp</code> and{' '}
        <code>webhook-signature</code>.
      </p>
      <p className="small">
        To verify one, compute HMAC-SHA256 over <code>webhook-id.webhook-timestamp.body</code> (the raw body, joined by dots) with the bytes of the secret after{' '}
        <code>whsec_</code>, base64-decoded, and compare <code>v1,</code> + its base64 with the signatures in <code>webhook-signature</code>. Refuse a timestamp
        more than 5 minutes from now (a replay). The Standard Webhooks libraries do all of this from the secret as it is; <code>docs/webhooks.md</code> of the
        wort documentation has small receivers in Python and Node.
      </p>
    </OnceSecret>
  );
}
