import { useState } from 'react';
import { Link } from 'react-router-dom';
import { ApiError, type Schemas } from '../api/client';
import { SelectField, TextField } from '../components/Field';
import { Empty, ErrorBox, Loading } from '../components/States';
import { usePrefs, usePrefsQuery } from '../prefs';
import { display, fromInput, roundDefault, symbolFor, toInput } from '../units';
import { withDisplayUnits } from '../issueUnits';
import { useCreateEquipment, useEquipmentList, type Profile } from './api';
import { mashMethods, profileFields, profileKinds } from './fields';

type Draft = Record<string, string>;
const fieldKeys = ['name', 'notes', 'mash_method', ...profileFields.map((f) => f.key)];

export default function Equipment() {
  const list = useEquipmentList();
  // Volumes are typed in the account's unit: wait for it, so nothing is read in the wrong one.
  const prefs = usePrefsQuery();
  return (
    <>
      <div className="page-head">
        <h1>Equipment</h1>
      </div>
      <div className="equipment-grid">
        <div>
          {list.isPending ? (
            <Loading what="equipment profiles" />
          ) : list.isError ? (
            <ErrorBox error={list.error} retry={() => list.refetch()} />
          ) : list.data.items.length === 0 ? (
            <Empty>
              <p>No equipment profiles yet</p>
              <p className="muted">Describe your kit with the form: its losses and boil-off give a recipe its strike and sparge water and its volumes.</p>
            </Empty>
          ) : (
            <ul className="cards" aria-label="Equipment profiles">
              {list.data.items.map((p) => (
                <ProfileCard key={p.id} profile={p} />
              ))}
            </ul>
          )}
        </div>
        {prefs.isPending ? <Loading what="your units" /> : <NewProfile />}
      </div>
    </>
  );
}

function ProfileCard({ profile: p }: { profile: Profile }) {
  const prefs = usePrefs();
  return (
    <li className="card">
      <div>
        <h2>
          <Link to={`/equipment/${p.id}`}>{p.name}</Link>
        </h2>
        <p className="muted">
          {[
            `${display(p.batch_size_liters, 'volume', prefs)} batch`,
            `boil-off ${display(p.boil_off_liters_per_hour, 'volume_rate', prefs)}`,
            `hop utilisation ${display(p.hop_utilization_percent, 'percent', prefs)}`,
            ...(p.mash_method === 'full_volume' ? ['full-volume mash'] : []),
          ].join(' · ')}
        </p>
      </div>
    </li>
  );
}

function initial(prefs: ReturnType<typeof usePrefs>): Draft {
  const d: Draft = { name: '', notes: '', mash_method: 'sparge' };
  for (const f of profileFields) d[f.key] = toInput(typeof f.def === 'object' && f.def ? roundDefault(f.unit, f.def, prefs) : f.def, f.unit, prefs);
  return d;
}

/** The request body: numbers converted from the display unit; what is not a number is sent as
 * typed, so the API's 422 names the field. */
function bodyOf(d: Draft, prefs: ReturnType<typeof usePrefs>): Schemas['CreateEquipmentRequest'] {
  const notes = d.notes ?? '';
  const body: Record<string, unknown> = { name: d.name, notes: notes.trim() === '' ? null : notes, mash_method: d.mash_method ?? 'sparge' };
  for (const f of profileFields) {
    const text = d[f.key] ?? '';
    const n = fromInput(text, f.unit, prefs);
    if (n == null) continue;
    body[f.key] = Number.isNaN(n) ? text : n;
  }
  return body as Schemas['CreateEquipmentRequest'];
}

function NewProfile() {
  const prefs = usePrefs();
  const [draft, setDraft] = useState(() => initial(prefs));
  const [created, setCreated] = useState<Profile | null>(null);
  const create = useCreateEquipment({
    onMutate: () => setCreated(null),
    onCreated: (p) => {
      setCreated(p);
      setDraft(initial(prefs));
    },
  });
  const error = withDisplayUnits(create.error, profileKinds, prefs);
  const api = error instanceof ApiError ? error : null;
  const set = (key: string) => (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) =>
    setDraft({ ...draft, [key]: e.target.value });
  const rest = api ? api.rest(fieldKeys) : null;
  return (
    <section className="panel" aria-labelledby="h-new-profile">
      <h2 id="h-new-profile">New equipment profile</h2>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate(bodyOf(draft, prefs));
        }}
      >
        <TextField label="Name" value={draft.name} error={api?.at('name')} onChange={set('name')} placeholder="e.g. 30 L all-in-one" />
        <SelectField label="Mash method" options={mashMethods} value={draft.mash_method} error={api?.at('mash_method')} onChange={set('mash_method')} />
        <div className="form-grid">
          {profileFields.map((f) => {
            const sym = symbolFor(f.unit, prefs);
            return (
              <TextField
                key={f.key}
                label={`${f.label} (${sym})`}
                inputMode="decimal"
                value={draft[f.key]}
                hint={f.hint}
                error={api?.at(f.key)}
                onChange={set(f.key)}
              />
            );
          })}
        </div>
        <NotesField value={draft.notes ?? ''} error={api?.at('notes')} onChange={set('notes')} />
        {error && (!api || rest !== 'Please correct the marked fields.') ? (
          <ErrorBox error={api ? new ApiError(api.status, rest ?? api.message) : error} />
        ) : error ? (
          <p className="form-error" role="alert">
            Not created: please correct the marked fields.
          </p>
        ) : null}
        <button type="submit" className="primary" disabled={create.isPending}>
          Create profile
        </button>
        <p role="status" className="small">
          {created && (
            <>
              Created <Link to={`/equipment/${created.id}`}>{created.name}</Link>.
            </>
          )}
        </p>
      </form>
    </section>
  );
}

function NotesField({ value, error, onChange }: { value: string; error?: string; onChange: (e: React.ChangeEvent<HTMLTextAreaElement>) => void }) {
  return (
    <div className="field">
      <label htmlFor="new-profile-notes">Notes</label>
      <textarea
        id="new-profile-notes"
        rows={3}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? 'new-profile-notes-err' : undefined}
        onChange={onChange}
      />
      {error && (
        <span className="field-error" id="new-profile-notes-err">
          {error}
        </span>
      )}
    </div>
  );
}
