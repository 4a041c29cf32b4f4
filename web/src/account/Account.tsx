import { useEffect, useState } from 'react';
import { ApiError, type Schemas } from '../api/client';
import type { Preferences } from '../api/extra';
import { allOf } from '../api/enums';
import { useSession } from '../auth/api';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { SelectField, TextField } from '../components/Field';
import { ErrorBox, Loading } from '../components/States';
import { usePrefsQuery } from '../prefs';
import { absoluteTime } from '../time';
import { useApiKeys, useChangePassword, useCreateApiKey, useDeleteApiKey, useSaveUnits, useUpdateUser } from './api';
import { Currency } from './Currency';

export default function Account() {
  return (
    <>
      <div className="page-head">
        <h1>Account</h1>
      </div>
      <div className="account-grid">
        <Profile />
        <Units />
        <Currency />
        <ChangePassword />
        <ApiKeys />
      </div>
    </>
  );
}

function Profile() {
  const session = useSession();
  const user = session.data?.user;
  const [name, setName] = useState(user?.name ?? '');
  useEffect(() => {
    setName(user?.name ?? '');
  }, [user?.name]);
  const save = useUpdateUser();
  const api = save.error instanceof ApiError ? save.error : null;
  return (
    <section className="panel" aria-labelledby="h-profile">
      <h2 id="h-profile">Profile</h2>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate({ name });
        }}
      >
        <TextField label="Name" value={name} onChange={(e) => setName(e.target.value)} autoComplete="name" error={api?.at('name')} />
        <TextField label="Email" value={user?.email ?? ''} readOnly hint="Your email address cannot be changed here." />
        {save.error && !api?.at('name') && <ErrorBox error={save.error} />}
        <div className="actions">
          <button type="submit" className="primary" disabled={save.isPending}>
            Save name
          </button>
          <span role="status" className="muted">
            {save.isSuccess ? 'Name saved.' : ''}
          </span>
        </div>
      </form>
    </section>
  );
}

function Units() {
  const prefs = usePrefsQuery();
  const save = useSaveUnits();
  const fields: [Exclude<keyof Preferences, 'currency'>, string, readonly (readonly [string, string])[]][] = [
    [
      'amounts',
      'Amounts',
      allOf<Schemas['AmountUnits']>()([
        ['metric', 'Metric (kg, g, L)'],
        ['us', 'US (lb, oz, gal)'],
      ]),
    ],
    [
      'gravity',
      'Gravity',
      allOf<Schemas['GravityDisplay']>()([
        ['sg', 'Specific gravity (1.050)'],
        ['plato', '°Plato'],
        ['brix', '°Brix'],
      ]),
    ],
    [
      'color',
      'Colour',
      allOf<Schemas['ColorDisplay']>()([
        ['srm', 'SRM'],
        ['ebc', 'EBC'],
      ]),
    ],
    [
      'temperature',
      'Temperature',
      allOf<Schemas['TemperatureDisplay']>()([
        ['c', '°C'],
        ['f', '°F'],
      ]),
    ],
  ];
  return (
    <section className="panel" aria-labelledby="h-units">
      <h2 id="h-units">Units</h2>
      <p className="muted">How amounts are shown and entered, on every device you use. The data itself is always stored in metric units and SG.</p>
      {prefs.isPending ? (
        <Loading what="your units" />
      ) : prefs.isError ? (
        <ErrorBox error={prefs.error} retry={() => prefs.refetch()} />
      ) : (
        <div className="form-grid">
          {fields.map(([k, label, options]) => (
            <SelectField
              key={k}
              label={label}
              value={(save.isPending && save.variables[k]) || prefs.data[k]}
              options={options}
              onChange={(e) => save.mutate({ [k]: e.target.value })}
              error={save.error instanceof ApiError ? save.error.at(k) : undefined}
            />
          ))}
        </div>
      )}
      <p role="status" className="muted">
        {save.isPending ? 'Saving…' : save.isSuccess ? 'Units saved.' : ''}
      </p>
      {save.error && <ErrorBox error={save.error} />}
    </section>
  );
}

function ChangePassword() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [revoke, setRevoke] = useState(true);
  const change = useChangePassword(() => {
    setCurrent('');
    setNext('');
  });
  const api = change.error instanceof ApiError ? change.error : null;
  const currentErr = api?.at('currentPassword') ?? (api?.status === 401 ? api.message : undefined);
  return (
    <section className="panel" aria-labelledby="h-password">
      <h2 id="h-password">Change password</h2>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          change.mutate({ currentPassword: current, newPassword: next, revokeOtherSessions: revoke });
        }}
      >
        <TextField
          label="Current password"
          type="password"
          autoComplete="current-password"
          value={current}
          onChange={(e) => setCurrent(e.target.value)}
          error={currentErr}
        />
        <TextField
          label="New password"
          type="password"
          autoComplete="new-password"
          value={next}
          onChange={(e) => setNext(e.target.value)}
          error={api?.at('newPassword')}
          hint="At least 8 characters."
        />
        <div className="check">
          <input type="checkbox" id="revoke" checked={revoke} onChange={(e) => setRevoke(e.target.checked)} />
          <label htmlFor="revoke">Sign out other devices</label>
        </div>
        {change.error && !currentErr && !api?.at('newPassword') && <ErrorBox error={change.error} />}
        <div className="actions">
          <button type="submit" className="primary" disabled={change.isPending}>
            Change password
          </button>
          <span role="status" className="muted">
            {change.isSuccess ? 'Password changed.' : ''}
          </span>
        </div>
      </form>
    </section>
  );
}

function ApiKeys() {
  const list = useApiKeys();
  const [name, setName] = useState('');
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const [copied, setCopied] = useState(false);
  const [deleting, setDeleting] = useState<{ id: string; name: string } | null>(null);
  const create = useCreateApiKey((k) => {
    setCreated({ name: k.name, key: k.key });
    setCopied(false);
    setName('');
  });
  const del = useDeleteApiKey(() => setDeleting(null));
  const api = create.error instanceof ApiError ? create.error : null;
  const when = (t: string | null | undefined) => (t ? absoluteTime(t) : 'Never');
  return (
    <section className="panel span-2" aria-labelledby="h-keys">
      <h2 id="h-keys">API keys</h2>
      <p className="muted">For scripts and devices: send the key in the X-API-Key header.</p>
      <form
        className="inline-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate(name);
        }}
      >
        <TextField label="Key label" value={name} onChange={(e) => setName(e.target.value)} error={api?.at('name')} />
        <button type="submit" className="primary" disabled={create.isPending}>
          Create key
        </button>
      </form>
      {create.error && !api?.at('name') && <ErrorBox error={create.error} />}
      {created && (
        <div className="new-key" role="status">
          <p className="warn">
            <strong>Copy the key “{created.name}” now: it will not be shown again.</strong>
          </p>
          <div className="key-row">
            <code aria-label="New API key">{created.key}</code>
            <button
              type="button"
              onClick={async () => {
                try {
                  await navigator.clipboard.writeText(created.key);
                  setCopied(true);
                } catch {
                  setCopied(false);
                }
              }}
            >
              Copy key
            </button>
            <button type="button" className="ghost" onClick={() => setCreated(null)}>
              Done
            </button>
          </div>
          {copied && <p className="muted">Copied to the clipboard.</p>}
        </div>
      )}
      {list.isPending ? (
        <Loading what="API keys" />
      ) : list.isError ? (
        <ErrorBox error={list.error} retry={() => list.refetch()} />
      ) : list.data.length === 0 ? (
        <p className="muted">No API keys yet.</p>
      ) : (
        <table role="table" className="rows keys">
          <caption className="sr-only">Your API keys</caption>
          <thead role="rowgroup">
            <tr role="row">
              <th role="columnheader" scope="col">
                Name
              </th>
              <th role="columnheader" scope="col">
                Starts with
              </th>
              <th role="columnheader" scope="col">
                Created
              </th>
              <th role="columnheader" scope="col">
                Last used
              </th>
              <th role="columnheader" scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody role="rowgroup">
            {list.data.map((k) => (
              <tr role="row" key={k.id}>
                <td role="cell" data-label="Name">
                  {k.name}
                </td>
                <td role="cell" data-label="Starts with">
                  <code>{k.start}…</code>
                </td>
                <td role="cell" data-label="Created">
                  {when(k.createdAt)}
                </td>
                <td role="cell" data-label="Last used">
                  {when(k.lastUsedAt)}
                </td>
                <td role="cell" className="row-actions">
                  <button
                    type="button"
                    className="ghost danger-text"
                    aria-label={`Delete key ${k.name}`}
                    onClick={() => setDeleting({ id: k.id, name: k.name })}
                  >
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <ConfirmDialog
        open={deleting != null}
        title={`Delete the key “${deleting?.name ?? ''}”?`}
        confirmLabel="Delete key"
        danger
        busy={del.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && del.mutate(deleting.id)}
      >
        {del.error ? <ErrorBox error={del.error} /> : <p>Scripts and devices using it stop working at once.</p>}
      </ConfirmDialog>
    </section>
  );
}
