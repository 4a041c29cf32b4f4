import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { ApiError, errorText } from '../api/client';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { TextField } from '../components/Field';
import { Empty, ErrorBox, Loading } from '../components/States';
import { pageCount, Pager, usePageParam } from '../components/Pager';
import { useDeleteWebhook, useDeliveries, useSaveWebhook, useTestWebhook, useWebhook } from './api';
import { absoluteTime } from '../time';
import { attemptSummary, DEACTIVATE_AFTER, eventLabel, statusWord, webhookState, type Attempt, type SubscribableEvent, type Webhook } from './webhooks';
import { NotFound } from '../components/NotFound';
import { EventChoices, eventsMissing } from './WebhookFields';

const PAGE = 20;

/** One webhook: its state and a test, its settings, and the log of delivery attempts. */
export default function WebhookPage() {
  const { id = '' } = useParams();
  const hook = useWebhook(id);
  if (hook.isPending) return <Loading what="the webhook" />;
  if (hook.isError)
    return hook.error instanceof ApiError && [400, 404].includes(hook.error.status) ? (
      <NotFound what="webhook" />
    ) : (
      <ErrorBox error={hook.error} retry={() => hook.refetch()} />
    );
  const w = hook.data;
  return (
    <div>
      <div className="page-head">
        <div className="min0">
          <h1 className="break">{w.url}</h1>
          <p className="muted">
            <Link to="/webhooks">All webhooks</Link>
          </p>
        </div>
        <DeleteWebhook webhook={w} />
      </div>
      <div className="account-grid webhook-grid">
        <Delivery webhook={w} />
        <Settings webhook={w} />
      </div>
      <Deliveries id={w.id} />
    </div>
  );
}

/** Whether events are sent, switching it on or off, and a test ping. */
function Delivery({ webhook: w }: { webhook: Webhook }) {
  const save = useSaveWebhook(w.id);
  const [asked, setAsked] = useState<boolean | null>(null);
  const state = webhookState(w);
  const test = useTestWebhook(w.id);
  return (
    <section className="panel" aria-labelledby="h-delivery">
      <h2 id="h-delivery">Delivery</h2>
      <p className={`state-line ${state.tone}`}>{state.text}</p>
      {state.switchedOff ? (
        <div className="notice switched-off">
          <p>
            wort switched this webhook off after {w.consecutive_failures} failed deliveries in a row ({DEACTIVATE_AFTER} is the limit): no events are sent to
            it. Check the endpoint (the errors are in the deliveries below), then switch it on again; the count starts afresh.
          </p>
          <button type="button" className="primary" disabled={save.isPending} onClick={() => save.mutate({ active: true })}>
            Switch on again
          </button>
        </div>
      ) : (
        <div className="check">
          <input
            type="checkbox"
            id="webhook-active"
            checked={asked ?? w.active}
            disabled={save.isPending}
            onChange={(e) => {
              // Shown at once (the mutation's own state arrives a tick later), until the API answers.
              setAsked(e.target.checked);
              save.mutate({ active: e.target.checked }, { onSettled: () => setAsked(null) });
            }}
            aria-describedby="webhook-active-hint"
          />
          <label htmlFor="webhook-active">Active</label>
          <span className="hint" id="webhook-active-hint">
            Events are sent only while it is on.
          </span>
        </div>
      )}
      {save.error && <ErrorBox error={save.error} />}
      <div className="actions test-row">
        <button type="button" onClick={() => test.mutate()} disabled={test.isPending}>
          Send test
        </button>
        <span className="small muted">A “ping” event, sent now, active or not.</span>
      </div>
      <div role="status" aria-label="Test result" className="test-result">
        {test.isPending ? (
          <p className="muted">Sending…</p>
        ) : test.isSuccess ? (
          <p className={test.data.status === 'delivered' ? 'ok-text' : 'danger-text'}>{attemptSummary(test.data)}</p>
        ) : test.isError ? (
          <p className="danger-text">Not sent: {errorText(test.error)}</p>
        ) : null}
      </div>
    </section>
  );
}

/** URL and events, saved together with "Save changes". */
function Settings({ webhook: w }: { webhook: Webhook }) {
  const save = useSaveWebhook(w.id);
  const [url, setUrl] = useState(w.url);
  const [events, setEvents] = useState<SubscribableEvent[]>(w.events.filter((e): e is SubscribableEvent => e !== 'ping'));
  const [missing, setMissing] = useState<string | undefined>();
  const api = save.error instanceof ApiError ? save.error : null;
  const rest = api ? api.rest(['url', 'events']) : null;
  return (
    <section className="panel" aria-labelledby="h-settings">
      <h2 id="h-settings">Settings</h2>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          const why = eventsMissing(events);
          setMissing(why);
          if (why) return save.reset();
          save.mutate({ url: url.trim(), events });
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
          onChange={(e) => setUrl(e.target.value)}
        />
        <EventChoices
          value={events}
          onChange={(v) => {
            setEvents(v);
            if (v.length) setMissing(undefined);
          }}
          error={missing ?? api?.at('events')}
        />
        {save.error && (!api || rest !== 'Please correct the marked fields.') ? (
          <ErrorBox error={api ? new ApiError(api.status, rest ?? api.message) : save.error} />
        ) : save.error || missing ? (
          <p className="form-error" role="alert">
            Not saved: please correct the marked fields.
          </p>
        ) : null}
        <div className="actions">
          <button type="submit" className="primary" disabled={save.isPending}>
            Save changes
          </button>
          <span role="status" className="muted">
            {save.isSuccess ? 'Saved.' : ''}
          </span>
        </div>
      </form>
    </section>
  );
}

function Deliveries({ id }: { id: string }) {
  const [page, go] = usePageParam();
  const list = useDeliveries(id, page, PAGE);
  const total = list.data?.total ?? 0;
  const pages = pageCount(total, PAGE);
  return (
    <section className="panel" aria-labelledby="h-deliveries">
      <h2 id="h-deliveries">Deliveries {list.data && <span className="count">{total}</span>}</h2>
      <p className="muted small">Every attempt, newest first. A failed delivery is retried with growing pauses for 24 hours.</p>
      {list.isPending ? (
        <Loading what="deliveries" />
      ) : list.isError ? (
        <ErrorBox error={list.error} retry={() => list.refetch()} />
      ) : list.data.items.length === 0 ? (
        <Empty>
          <p>No deliveries yet</p>
          <p className="muted">“Send test” sends a ping now; events are sent as they happen.</p>
        </Empty>
      ) : (
        <>
          <table role="table" className="rows deliveries">
            <caption className="sr-only">Delivery attempts</caption>
            <thead role="rowgroup">
              <tr role="row">
                <th role="columnheader" scope="col">
                  Time
                </th>
                <th role="columnheader" scope="col">
                  Event
                </th>
                <th role="columnheader" scope="col">
                  Attempt
                </th>
                <th role="columnheader" scope="col">
                  Status
                </th>
                <th role="columnheader" scope="col">
                  Response
                </th>
                <th role="columnheader" scope="col">
                  Duration
                </th>
                <th role="columnheader" scope="col">
                  Error
                </th>
              </tr>
            </thead>
            <tbody role="rowgroup">
              {list.data.items.map((a) => (
                <AttemptRow key={a.id} attempt={a} />
              ))}
            </tbody>
          </table>
          {pages > 1 && <Pager label="Delivery pages" page={page} pages={pages} summary={`${total} attempts`} go={go} previous="Newer" next="Older" />}
        </>
      )}
    </section>
  );
}

function AttemptRow({ attempt: a }: { attempt: Attempt }) {
  return (
    <tr role="row">
      <td role="cell" data-label="Time">
        <time dateTime={a.attempted_at}>{absoluteTime(a.attempted_at)}</time>
      </td>
      <td role="cell" data-label="Event">
        {eventLabel(a.event_type)}
      </td>
      <td role="cell" data-label="Attempt">
        {a.attempt}
      </td>
      <td role="cell" data-label="Status">
        <span className={`badge outcome ${a.status}`}>{statusWord(a.status)}</span>
      </td>
      <td role="cell" data-label="Response">
        {a.response_status ?? 'none'}
      </td>
      <td role="cell" data-label="Duration">
        {a.duration_ms} ms
      </td>
      <td role="cell" data-label="Error" className="break">
        {a.error ?? '—'}
      </td>
    </tr>
  );
}

function DeleteWebhook({ webhook }: { webhook: Webhook }) {
  const navigate = useNavigate();
  const [ask, setAsk] = useState(false);
  const del = useDeleteWebhook(webhook.id, () => navigate('/webhooks'));
  return (
    <div className="actions">
      <button type="button" className="danger" onClick={() => setAsk(true)}>
        Delete webhook
      </button>
      <ConfirmDialog
        open={ask}
        title="Delete this webhook?"
        confirmLabel="Delete the webhook"
        danger
        busy={del.isPending}
        onCancel={() => {
          setAsk(false);
          del.reset();
        }}
        onConfirm={() => del.mutate()}
      >
        {del.error ? (
          <div className="error-box" role="alert">
            <p>Not deleted: {errorText(del.error)}</p>
          </div>
        ) : (
          <p>
            Nothing more is sent to <span className="break">{webhook.url}</span>; its pending deliveries and its log go with it.
          </p>
        )}
      </ConfirmDialog>
    </div>
  );
}
