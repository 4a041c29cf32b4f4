import { useState } from 'react';
import { errorText } from '../api/client';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { ErrorBox, Loading } from '../components/States';
import { absoluteTime, relativeTime } from '../time';
import { useDeleteMqtt, useMqtt, useSaveMqtt } from './api';
import { MqttForm } from './MqttForm';
import type { MqttIntegration } from './mqtt';

/** The account's MQTT broker: what wort publishes there, its settings and how publishing goes. */
export default function Mqtt() {
  const mqtt = useMqtt();
  const save = useSaveMqtt();
  // A new form after each save and a deletion: the password field empty again, the saved values
  // (or the defaults) in the fields.
  const [round, setRound] = useState(0);
  const [deleted, setDeleted] = useState(false);
  const saved = mqtt.data ?? null;
  return (
    <div>
      <div className="page-head">
        <div className="min0">
          <h1>MQTT and Home Assistant</h1>
          <p className="muted">wort publishes readings and alerts to your MQTT broker, and tells Home Assistant about each fermenting batch.</p>
        </div>
        {saved && (
          <DeleteMqtt
            url={saved.url}
            onDeleted={() => {
              save.reset();
              setDeleted(true);
              setRound((n) => n + 1);
            }}
          />
        )}
      </div>
      {mqtt.isPending ? (
        <Loading what="the MQTT settings" />
      ) : mqtt.isError ? (
        <ErrorBox error={mqtt.error} retry={() => mqtt.refetch()} />
      ) : (
        <div className="account-grid webhook-grid">
          {saved ? <Status mqtt={saved} /> : <WhatIsPublished deleted={deleted} />}
          <section className="panel" aria-labelledby="h-broker">
            <h2 id="h-broker">{saved ? 'Broker' : 'Set up a broker'}</h2>
            <MqttForm
              key={round}
              saved={saved}
              error={save.error}
              pending={save.isPending}
              onSubmit={(body) => {
                setDeleted(false);
                save.mutate(body, { onSuccess: () => setRound((n) => n + 1) });
              }}
            />
            <p role="status" className="muted small">
              {save.isSuccess ? 'Saved.' : ''}
            </p>
          </section>
        </div>
      )}
    </div>
  );
}

function WhatIsPublished({ deleted }: { deleted: boolean }) {
  return (
    <section className="panel" aria-labelledby="h-what">
      <h2 id="h-what">What wort publishes</h2>
      {deleted && <p className="notice">The broker was removed: nothing more is published.</p>}
      <p>No broker yet. Name one and wort publishes to it, retained, with QoS 1:</p>
      <ul className="setup-steps">
        <li>
          each reading of a brew session, by hand or from a device, to <code>&lt;prefix&gt;/sessions/&lt;id&gt;/reading</code> (gravity, temperature,
          attenuation and ABV);
        </li>
        <li>
          each alert raised or cleared to <code>&lt;prefix&gt;/alerts</code>;
        </li>
        <li>
          Home Assistant discovery of each fermenting session’s gravity, temperature and ABV sensors (one device per session), removed when its fermentation
          ends.
        </li>
      </ul>
      <p className="muted small">
        A broker on your home network (for example <code>mqtt://192.168.1.20:1883</code>) works; a broker that is down delays nothing else, and messages wait
        for it.
      </p>
    </section>
  );
}

function When({ iso }: { iso: string }) {
  return (
    <>
      {relativeTime(iso)} · <time dateTime={iso}>{absoluteTime(iso)}</time>
    </>
  );
}

export function Status({ mqtt: m }: { mqtt: MqttIntegration }) {
  return (
    <section className="panel" aria-labelledby="h-status">
      <h2 id="h-status">Status</h2>
      <p className={`state-line ${m.enabled ? (m.last_error ? 'warn' : 'ok') : 'off'}`}>
        {m.enabled ? (m.last_error ? 'Enabled, not publishing' : 'Enabled') : 'Switched off: nothing is published'}
      </p>
      <dl className="facts">
        <div>
          <dt>Last published</dt>
          <dd>{m.last_published_at ? <When iso={m.last_published_at} /> : 'never'}</dd>
        </div>
        <div>
          <dt>Pending messages</dt>
          <dd>{m.pending_messages}</dd>
        </div>
        <div>
          <dt>Topics</dt>
          <dd>
            <code className="break">{m.topic_prefix}/sessions/&lt;id&gt;/reading</code>, <code className="break">{m.topic_prefix}/alerts</code>
          </dd>
        </div>
      </dl>
      {m.last_error && (
        <div className="error-box" role="note" aria-label="Last error">
          <p>
            <strong>Last error</strong>
            {m.last_error_at && (
              <>
                {' '}
                (<When iso={m.last_error_at} />)
              </>
            )}
            : <span className="break">{m.last_error}</span>
          </p>
        </div>
      )}
    </section>
  );
}

function DeleteMqtt({ url, onDeleted }: { url: string; onDeleted: () => void }) {
  const [ask, setAsk] = useState(false);
  const del = useDeleteMqtt(() => {
    setAsk(false);
    onDeleted();
  });
  return (
    <div className="actions">
      <button type="button" className="danger" onClick={() => setAsk(true)}>
        Delete broker
      </button>
      <ConfirmDialog
        open={ask}
        title="Delete the MQTT broker?"
        confirmLabel="Delete the broker"
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
            Nothing more is published to <span className="break">{url}</span>; the messages still waiting go with it. The retained messages stay on the broker.
          </p>
        )}
      </ConfirmDialog>
    </div>
  );
}
