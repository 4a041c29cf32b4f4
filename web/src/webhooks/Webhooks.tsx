import { useState } from 'react';
import { Link } from 'react-router-dom';
import { ApiError, type Schemas } from '../api/client';
import { TextField } from '../components/Field';
import { Empty, ErrorBox, Loading } from '../components/States';
import { useCreateWebhook, useWebhookList } from './api';
import { eventLabel, webhookState, type SubscribableEvent, type Webhook } from './webhooks';
import { EventChoices, eventsMissing, WebhookSecret } from './WebhookFields';

type Created = Schemas['CreatedWebhook'];

export default function Webhooks() {
  const list = useWebhookList();
  const [created, setCreated] = useState<Created | null>(null);
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Webhooks</h1>
          <p className="muted">wort posts to your URL when something happens: a session changes state, a reading comes in, fermentation is stable.</p>
        </div>
      </div>
      {created && <WebhookSecret url={created.url} secret={created.secret} onDone={() => setCreated(null)} />}
      <div className="equipment-grid">
        <div>
          {list.isPending ? (
            <Loading what="webhooks" />
          ) : list.isError ? (
            <ErrorBox error={list.error} retry={() => list.refetch()} />
          ) : list.data.items.length === 0 ? (
            <Empty>
              <p>No webhooks yet</p>
              <p className="muted">Add one with the form: a URL that accepts a signed POST, and the events to send there.</p>
            </Empty>
          ) : (
            <ul className="cards" aria-label="Webhooks">
              {list.data.items.map((w) => (
                <WebhookCard key={w.id} webhook={w} />
              ))}
            </ul>
          )}
        </div>
        <NewWebhook onCreated={setCreated} />
      </div>
    </>
  );
}

function WebhookCard({ webhook: w }: { webhook: Webhook }) {
  const state = webhookState(w);
  return (
    <li className="card">
      <div>
        <h2>
          <Link to={`/webhooks/${w.id}`} className="break">
            {w.url}
          </Link>
        </h2>
        <p className="muted small">{w.events.map(eventLabel).join(' · ')}</p>
        <p className={`state-line ${state.tone}`}>{state.text}</p>
      </div>
    </li>
  );
}

function NewWebhook({ onCreated }: { onCreated: (w: Created) => void }) {
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<SubscribableEvent[]>(['session.status_changed', 'reading.created', 'fermentation.stable']);
  const [missing, setMissing] = useState<string | undefined>();
  const create = useCreateWebhook((w) => {
    onCreated(w);
    setUrl('');
  });
  const api = create.error instanceof ApiError ? create.error : null;
  const rest = api ? api.rest(['url', 'events']) : null;
  return (
    <section className="panel" aria-labelledby="h-new-webhook">
      <h2 id="h-new-webhook">New webhook</h2>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          const why = eventsMissing(events);
          setMissing(why);
          if (why) {
            create.reset();
            return;
          }
          create.mutate({ url: url.trim(), events });
        }}
      >
        <TextField
          label="URL"
          type="url"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          value={url}
          error={api?.at('url')}
          hint="http:// or https://, on a public address."
          onChange={(e) => setUrl(e.target.value)}
          placeholder="https://example.com/wort-hook"
        />
        <EventChoices
          value={events}
          onChange={(v) => {
            setEvents(v);
            if (v.length) setMissing(undefined);
          }}
          error={missing ?? api?.at('events')}
        />
        {create.error && (!api || rest !== 'Please correct the marked fields.') ? (
          <ErrorBox error={api ? new ApiError(api.status, rest ?? api.message) : create.error} />
        ) : create.error || missing ? (
          <p className="form-error" role="alert">
            Not created: please correct the marked fields.
          </p>
        ) : null}
        <button type="submit" className="primary" disabled={create.isPending}>
          Add webhook
        </button>
      </form>
    </section>
  );
}
