import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { UseQueryResult } from '@tanstack/react-query';
import { ApiError, errorText, type Schemas } from '../api/client';
import { SelectField, TextField } from '../components/Field';
import { Empty, ErrorBox, Loading } from '../components/States';
import { deviceKinds, kindLabel, type DeviceKind } from './devices';
import { useNow } from '../hooks';
import { useSessionList } from '../sessions/api';
import { useCreateDevice, useDeviceList } from './api';
import { seenText } from '../time';
import { DeviceToken } from './DeviceSetup';
import { sessionOptions, type Session } from './deviceSessions';

type Device = Schemas['Device'];
type Created = Schemas['GeneratedDevice'];

export default function Devices() {
  const list = useDeviceList();
  const sessions = useSessionList();
  const [created, setCreated] = useState<Created | null>(null);
  const byId = new Map((sessions.data?.items ?? []).map((s) => [s.id, s]));
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Devices</h1>
          <p className="muted">Hydrometers and controllers that post their readings into a brew session: iSpindel, GravityMon, Tilt, RAPT Pill and others.</p>
        </div>
      </div>
      {created && <DeviceToken name={created.name} kind={created.kind} token={created.token} onDone={() => setCreated(null)} />}
      <div className="equipment-grid">
        <div>
          {list.isPending ? (
            <Loading what="devices" />
          ) : list.isError ? (
            <ErrorBox error={list.error} retry={() => list.refetch()} />
          ) : list.data.items.length === 0 ? (
            <Empty>
              <p>No devices yet</p>
              <p className="muted">Add one with the form: it gets a URL to post to, and its readings land in the brew session you choose.</p>
            </Empty>
          ) : (
            <ul className="cards" aria-label="Devices">
              {list.data.items.map((d) => (
                <DeviceCard key={d.id} device={d} session={d.session_id ? byId.get(d.session_id) : undefined} />
              ))}
            </ul>
          )}
        </div>
        <NewDevice sessions={sessions} onCreated={setCreated} />
      </div>
    </>
  );
}

function DeviceCard({ device: d, session }: { device: Device; session?: Session }) {
  const now = useNow(30_000);
  return (
    <li className="card">
      <div>
        <h2>
          <Link to={`/devices/${d.id}`}>{d.name}</Link>
        </h2>
        <dl className="facts">
          <div>
            <dt>Kind</dt>
            <dd>{kindLabel(d.kind)}</dd>
          </div>
          <div>
            <dt>Brew session</dt>
            <dd>
              {d.session_id ? (
                <Link to={`/sessions/${d.session_id}`}>{session?.name ?? 'Open the brew session'}</Link>
              ) : (
                <span className="warn-text">None: its posts are refused</span>
              )}
            </dd>
          </div>
          <div>
            <dt>Last seen</dt>
            <dd>{d.last_seen_at ? <time dateTime={d.last_seen_at}>{seenText(d.last_seen_at, now)}</time> : 'never'}</dd>
          </div>
        </dl>
      </div>
    </li>
  );
}

function NewDevice({ sessions, onCreated }: { sessions: UseQueryResult<{ items: Session[]; total: number }>; onCreated: (d: Created) => void }) {
  const [name, setName] = useState('');
  const [kind, setKind] = useState<DeviceKind>('ispindel');
  const [sessionId, setSessionId] = useState('');
  const create = useCreateDevice((d) => {
    onCreated(d);
    setName('');
  });
  const api = create.error instanceof ApiError ? create.error : null;
  const rest = api ? api.rest(['name', 'kind', 'session_id']) : null;
  const options = sessionOptions(sessions.data?.items ?? [], null);
  return (
    <section className="panel" aria-labelledby="h-new-device">
      <h2 id="h-new-device">New device</h2>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate({ name, kind, session_id: sessionId === '' ? null : sessionId });
        }}
      >
        <TextField
          label="Name"
          value={name}
          error={api?.at('name')}
          onChange={(e) => setName(e.target.value)}
          placeholder="e.g. iSpindel in the cellar"
          autoComplete="off"
        />
        <SelectField label="Kind" value={kind} options={deviceKinds} error={api?.at('kind')} onChange={(e) => setKind(e.target.value as DeviceKind)} />
        <SelectField
          label="Brew session"
          value={sessionId}
          options={[['', 'None (posts are refused until one is chosen)'], ...options]}
          error={api?.at('session_id')}
          onChange={(e) => setSessionId(e.target.value)}
          disabled={sessions.isPending}
        />
        {sessions.isError ? (
          <p className="form-error">The brew sessions could not be loaded: {errorText(sessions.error)}</p>
        ) : (
          sessions.data &&
          options.length === 0 && (
            <p className="hint">
              No open brew session: assign one later, after <Link to="/recipes">brewing a recipe</Link>.
            </p>
          )
        )}
        {create.error && (!api || rest !== 'Please correct the marked fields.') ? (
          <ErrorBox error={api ? new ApiError(api.status, rest ?? api.message) : create.error} />
        ) : create.error ? (
          <p className="form-error" role="alert">
            Not created: please correct the marked fields.
          </p>
        ) : null}
        <button type="submit" className="primary" disabled={create.isPending}>
          Add device
        </button>
      </form>
    </section>
  );
}
