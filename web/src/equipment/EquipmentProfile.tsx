import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { ApiError, errorText } from '../api/client';
import { AutoField } from '../components/AutoField';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { ErrorBox, Loading } from '../components/States';
import { usePrefs, usePrefsQuery } from '../prefs';
import { useDeleteEquipment, useEquipment, useEquipmentAutosave, type Profile } from './api';
import { mashMethods, profileFields } from './fields';
import { NotFound } from '../components/NotFound';

/** One equipment profile: every field saves as the person edits, like the recipe page. */
export default function EquipmentProfile() {
  const { id = '' } = useParams();
  const profile = useEquipment(id);
  const prefs = usePrefsQuery();
  const units = usePrefs();
  const save = useEquipmentAutosave(id, units);
  if (profile.isPending || prefs.isPending) return <Loading what="the equipment profile" />;
  if (profile.isError)
    return profile.error instanceof ApiError && [400, 404].includes(profile.error.status) ? (
      <NotFound what="equipment profile" />
    ) : (
      <ErrorBox error={profile.error} retry={() => profile.refetch()} />
    );
  const p = profile.data;
  return (
    <div>
      <div className="page-head">
        <div>
          <h1>{p.name || 'Untitled profile'}</h1>
          <p className="muted">
            <Link to="/equipment">All equipment profiles</Link>
          </p>
        </div>
        <DeleteProfile profile={p} />
      </div>
      <section className="panel" aria-labelledby="h-profile">
        <h2 id="h-profile">Profile</h2>
        <p className="muted small">Saved as you type. Volumes and grain absorption are in the units chosen on the Account page.</p>
        <div className="form-grid">
          <AutoField label="Name" field="name" value={p.name} save={save('name')} />
          <AutoField label="Mash method" field="mash_method" type="select" options={mashMethods} value={p.mash_method ?? 'sparge'} save={save('mash_method')} />
          {profileFields.map((f) => (
            <AutoField key={f.key} label={f.label} field={f.key} type="number" unit={f.unit} nullable={f.nullable} value={p[f.key]} save={save(f.key)} />
          ))}
          <AutoField label="Notes" field="notes" type="textarea" nullable value={p.notes ?? null} save={save('notes')} className="span-all" />
        </div>
      </section>
    </div>
  );
}

function DeleteProfile({ profile }: { profile: Profile }) {
  const navigate = useNavigate();
  const [confirm, setConfirm] = useState(false);
  const del = useDeleteEquipment(profile.id, () => navigate('/equipment'));
  // A profile a recipe uses is refused (422) with one detail that says so: shown as it is.
  const refused =
    del.error instanceof ApiError && del.error.status === 422 && del.error.details.length ? del.error.details.map((d) => d.message).join('; ') : null;
  return (
    <div className="actions">
      <button type="button" className="danger" onClick={() => setConfirm(true)}>
        Delete profile
      </button>
      <ConfirmDialog
        open={confirm}
        title={`Delete “${profile.name}”?`}
        confirmLabel="Delete equipment profile"
        danger
        busy={del.isPending}
        onCancel={() => {
          setConfirm(false);
          del.reset();
        }}
        onConfirm={() => del.mutate()}
      >
        {del.error ? (
          <div className="error-box" role="alert">
            <p>Not deleted: {refused ?? errorText(del.error)}</p>
          </div>
        ) : (
          <p>The profile is removed for good. A profile that a recipe uses cannot be deleted: choose another one on the recipe first.</p>
        )}
      </ConfirmDialog>
    </div>
  );
}
