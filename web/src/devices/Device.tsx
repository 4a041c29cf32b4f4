import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { ApiError, errorText, type Schemas } from '../api/client';
import { AutoField } from '../components/AutoField';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { ErrorBox, Loading } from '../components/States';
import { deviceKinds } from './devices';
import { useNow } from '../hooks';
import { useSessionList } from '../sessions/api';
import { useDeleteDevice, useDevice, useDeviceAutosave, useReplaceDeviceToken } from './api';
import { seenText } from '../time';
import { DeviceToken } from './DeviceSetup';
import { isOpen, sessionOptions } from './deviceSessions';
import { NotFound } from '../components/NotFound';

type Device = Schemas['Device'];
type Created = Schemas['GeneratedDevice'];

/** One device: name, kind and brew session save as they are edited; token, delete, last payload. */
export default function DevicePage() {
  const { id = '' } = useParams();
  // A device posts every minute or so: what it sent last stays current while the page is open.
  const device = useDevice(id);
  const save = useDeviceAutosave(id);
  const sessions = useSessionList();
  const [token, setToken] = useState<Created | null>(null);
  if (device.isPending) return <Loading what="the device" />;
  if (device.isError)
    return device.error instanceof ApiError && [400, 404].includes(device.error.status) ? (
      <NotFound what="device" />
    ) : (
      <ErrorBox error={device.error} retry={() => device.refetch()} />
    );
  const d = device.data;
  const assigned = d.session_id ? sessions.data?.items.find((s) => s.id === d.session_id) : undefined;
  return (
    <div>
      <div className="page-head">
        <div>
          <h1>{d.name}</h1>
          <p className="muted">
            <Link to="/devices">All devices</Link>
          </p>
        </div>
        <DeviceActions device={d} onToken={setToken} />
      </div>
      {token && <DeviceToken name={token.name} kind={token.kind} token={token.token} onDone={() => setToken(null)} />}
      <div className="equipment-grid">
        <div>
          <LastPayload device={d} />
        </div>
        <section className="panel" aria-labelledby="h-device">
          <h2 id="h-device">Device</h2>
          <p className="muted small">Saved as you change it.</p>
          <AutoField label="Name" field="name" value={d.name} save={save('name')} />
          <AutoField label="Kind" field="kind" type="select" options={deviceKinds} value={d.kind} save={save('kind')} />
          {sessions.isPending ? (
            <Loading what="brew sessions" />
          ) : sessions.isError ? (
            <ErrorBox error={sessions.error} retry={() => sessions.refetch()} />
          ) : (
            <AutoField
              label="Brew session"
              field="session_id"
              type="select"
              nullable
              noneLabel="None (posts are refused)"
              options={sessionOptions(sessions.data.items, d.session_id)}
              value={d.session_id ?? null}
              save={save('session_id')}
            />
          )}
          {!d.session_id ? (
            <p className="notice small">No brew session: the device’s posts are refused (409) and nothing is stored until you choose one.</p>
          ) : assigned && !isOpen(assigned) ? (
            <p className="notice small">This session is {assigned.status}: posts are refused until you choose an open one.</p>
          ) : (
            <p className="small">
              <Link to={`/sessions/${d.session_id}`}>{assigned ? `Open “${assigned.name}”` : 'Open the brew session'}</Link>
            </p>
          )}
        </section>
      </div>
    </div>
  );
}

function LastPayload({ device: d }: { device: Device }) {
  const now = useNow(30_000);
  return (
    <section className="panel" aria-labelledby="h-last">
      <h2 id="h-last">Last post</h2>
      <p>Last seen: {d.last_seen_at ? <time dateTime={d.last_seen_at}>{seenText(d.last_seen_at, now)}</time> : 'never'}</p>
      {d.last_payload ? (
        <figure className="payload">
          <figcaption>
            Last payload <span className="small muted">(as received, also when the post was refused)</span>
          </figcaption>
          <pre>{JSON.stringify(d.last_payload, null, 2)}</pre>
        </figure>
      ) : (
        <p className="muted">
          Nothing received yet. Set the device up with its ingest URL, shown when the device was added; if you no longer have it, replace the token to see a new
          one.
        </p>
      )}
    </section>
  );
}

function DeviceActions({ device, onToken }: { device: Device; onToken: (d: Created) => void }) {
  const navigate = useNavigate();
  const [ask, setAsk] = useState<'token' | 'delete' | null>(null);
  const replace = useReplaceDeviceToken(device.id, (d) => {
    setAsk(null);
    onToken(d);
  });
  const del = useDeleteDevice(device.id, () => navigate('/devices'));
  const close = () => {
    setAsk(null);
    replace.reset();
    del.reset();
  };
  return (
    <div className="actions">
      <button type="button" onClick={() => setAsk('token')}>
        Replace token
      </button>
      <button type="button" className="danger" onClick={() => setAsk('delete')}>
        Delete device
      </button>
      <ConfirmDialog
        open={ask === 'token'}
        title={`Replace the token of “${device.name}”?`}
        confirmLabel="Replace the token"
        busy={replace.isPending}
        onCancel={close}
        onConfirm={() => replace.mutate()}
      >
        {replace.error ? (
          <div className="error-box" role="alert">
            <p>Not replaced: {errorText(replace.error)}</p>
          </div>
        ) : (
          <p>The old token stops working at once: the device needs the new URL, shown once on this page.</p>
        )}
      </ConfirmDialog>
      <ConfirmDialog
        open={ask === 'delete'}
        title={`Delete “${device.name}”?`}
        confirmLabel="Delete the device"
        danger
        busy={del.isPending}
        onCancel={close}
        onConfirm={() => del.mutate()}
      >
        {del.error ? (
          <div className="error-box" role="alert">
            <p>Not deleted: {errorText(del.error)}</p>
          </div>
        ) : (
          <p>Its token stops working at once. The readings it posted stay in their brew session.</p>
        )}
      </ConfirmDialog>
    </div>
  );
}
