// The recipe's water: source and target profiles, the ions of the mash and of all the water
// against the target, residual alkalinity, SO4:Cl, and the predicted mash pH with the account's
// calibration and the acid for 5.4. Every number is the API's (`/v1/recipes/{id}/water`).
import { useMemo, useState } from 'react';
import { ApiError, type Schemas } from '../api/client';
import { TextField } from '../components/Field';
import { AutoField } from '../components/AutoField';
import { ErrorBox, Loading } from '../components/States';
import type { FieldValue } from '../autosave';
import { usePrefs } from '../prefs';
import { display, formatNumber } from '../units';
import { useCreateWaterProfile, useWaterProfiles, useWaterReport } from './api';

type Ions = Schemas['Ions'];
type Report = Schemas['WaterReport'];

const ionRows: [keyof Ions, string][] = [
  ['calcium', 'Calcium'],
  ['magnesium', 'Magnesium'],
  ['sodium', 'Sodium'],
  ['sulfate', 'Sulfate'],
  ['chloride', 'Chloride'],
  ['bicarbonate', 'Bicarbonate'],
];

type Save = (field: keyof Schemas['UpdateRecipeRequest']) => (v: FieldValue) => Promise<void>;

export function WaterPanel({ recipe, save }: { recipe: Schemas['RecipeDetail']; save: Save }) {
  const id = recipe.id;
  const report = useWaterReport(id);
  const profiles = useWaterProfiles();
  // Grouped as the API marks them: built-in targets by beer, built-in waters (cities, RO), and
  // the account's own. A target is what to build towards, so the target choice offers the
  // targets first; the source choice offers your own water first.
  const groups = useMemo(() => {
    const all = profiles.data ?? [];
    const pick = (f: (p: (typeof all)[number]) => boolean) => all.filter(f).map((p) => [p.id, p.name] as const);
    return {
      byBeer: { label: 'By beer', options: pick((p) => p.builtin && p.kind === 'target') },
      cities: { label: 'Cities', options: pick((p) => p.builtin && p.kind === 'water') },
      mine: { label: 'Mine', options: pick((p) => !p.builtin) },
    };
  }, [profiles.data]);
  return (
    <section className="panel water-panel" aria-labelledby="h-water" aria-busy={report.isFetching}>
      <h2 id="h-water">Water</h2>
      <div className="form-grid">
        <AutoField
          label="Source water"
          field="water_profile_id"
          type="select"
          nullable
          noneLabel="Distilled (none)"
          groups={[groups.mine, groups.cities, groups.byBeer]}
          value={recipe.water_profile_id ?? null}
          save={save('water_profile_id')}
        />
        <AutoField
          label="Target water"
          field="target_water_profile_id"
          type="select"
          nullable
          noneLabel="None"
          groups={[groups.byBeer, groups.cities, groups.mine]}
          value={recipe.target_water_profile_id ?? null}
          save={save('target_water_profile_id')}
        />
      </div>
      <NewWaterProfile onCreated={(profileId) => save('water_profile_id')(profileId)} />
      {report.isPending ? (
        <Loading what="the water report" />
      ) : report.isError ? (
        <ErrorBox error={report.error} retry={() => report.refetch()} />
      ) : (
        <WaterReport report={report.data} />
      )}
    </section>
  );
}

function WaterReport({ report }: { report: Report }) {
  const prefs = usePrefs();
  const target = report.target_water_profile;
  const ph = report.mash_ph;
  const need = report.acid_needed;
  const ppm = (v: number) => formatNumber(v, 0);
  return (
    <>
      <p className="muted small">
        Mash water {display(report.mash.liters, 'volume', prefs)}, sparge {display(report.sparge_liters, 'volume', prefs)}
        {report.volumes_from === 'batch_size' ? ' (no equipment profile: the batch size is taken as mash water)' : ''}. Ions in mg/L (ppm).
      </p>
      <div className="water-table">
        <table className="water-ions">
          <caption className="sr-only">Ions after the additions against the target profile</caption>
          <thead>
            <tr>
              <th scope="col">Ion</th>
              <th scope="col">Mash</th>
              <th scope="col">All water</th>
              {target && <th scope="col">Target</th>}
            </tr>
          </thead>
          <tbody>
            {ionRows.map(([key, label]) => (
              <tr key={key}>
                <th scope="row">{label}</th>
                <td>{ppm(report.mash.ions[key])}</td>
                <td>{ppm(report.overall.ions[key])}</td>
                {target && <td>{ppm(target[key])}</td>}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {target?.source && (
        <p className="muted small">
          Target “{target.name}”: {target.source}
        </p>
      )}
      <dl className="stats">
        <div>
          <dt>Residual alkalinity</dt>
          <dd>{formatNumber(report.mash.residual_alkalinity, 0)} ppm as CaCO₃</dd>
        </div>
        <div>
          <dt>Sulfate : chloride</dt>
          <dd>{report.mash.sulfate_to_chloride == null ? '—' : formatNumber(report.mash.sulfate_to_chloride, 2)}</dd>
        </div>
        <div>
          <dt>Predicted mash pH</dt>
          <dd>{ph.predicted == null ? 'nothing mashed' : formatNumber(ph.predicted, 2, true)}</dd>
        </div>
        <div>
          <dt>Calibrated</dt>
          <dd>
            {ph.corrected == null || ph.correction == null
              ? `not yet (${ph.calibration_pairs} of 3 measured brews)`
              : `${formatNumber(ph.corrected, 2, true)} (${ph.correction >= 0 ? '+' : ''}${formatNumber(ph.correction, 2, true)} from ${ph.calibration_pairs} brews)`}
          </dd>
        </div>
        {need && (
          <div>
            <dt>For pH {formatNumber(need.target_ph, 1, true)}</dt>
            <dd>
              {need.lactic_acid_88_ml != null
                ? `${formatNumber(need.lactic_acid_88_ml, 1)} ml lactic acid 88 % or ${formatNumber(need.phosphoric_acid_10_ml ?? 0, 1)} ml phosphoric 10 %`
                : `${formatNumber(need.baking_soda_g ?? 0, 1)} g baking soda`}
            </dd>
          </div>
        )}
      </dl>
      <p className="muted small">Model: {ph.model}. Measure your mash pH on the brew session to calibrate it.</p>
    </>
  );
}

const profileFields: [keyof Schemas['CreateWaterProfileRequest'], string][] = [
  ['calcium', 'Calcium (mg/L)'],
  ['magnesium', 'Magnesium (mg/L)'],
  ['sodium', 'Sodium (mg/L)'],
  ['sulfate', 'Sulfate (mg/L)'],
  ['chloride', 'Chloride (mg/L)'],
  ['bicarbonate', 'Bicarbonate (mg/L)'],
  ['ph', 'pH'],
];

/** Your own water (a water report from the tap, say): saved to the account and picked as the
 * recipe's source water. The API checks every figure; its 422 shows at the field. */
function NewWaterProfile({ onCreated }: { onCreated: (id: string) => Promise<void> }) {
  const blank = () => ({ name: '', calcium: '', magnesium: '', sodium: '', sulfate: '', chloride: '', bicarbonate: '', ph: '' });
  const [form, setForm] = useState<Record<string, string>>(blank);
  const body = () => {
    const body: Record<string, unknown> = { name: form.name };
    for (const [key] of profileFields) {
      const text = (form[key] ?? '').trim();
      // What was typed goes as typed (a number where it is one): the API says what is wrong.
      if (text) body[key] = Number.isFinite(Number(text.replace(',', '.'))) ? Number(text.replace(',', '.')) : text;
      else if (key !== 'ph') body[key] = 0;
    }
    return body as Schemas['CreateWaterProfileRequest'];
  };
  const create = useCreateWaterProfile(() => setForm(blank()), onCreated);
  const api = create.error instanceof ApiError ? create.error : null;
  return (
    <details className="new-water">
      <summary>Add my water</summary>
      <form
        className="form-grid"
        aria-label="New water profile"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate(body());
        }}
      >
        <TextField
          label="Water profile"
          hint="Its name, e.g. Our tap"
          value={form.name}
          onChange={(e) => setForm({ ...form, name: e.target.value })}
          error={api?.at('name')}
          required
        />
        {profileFields.map(([key, label]) => (
          <TextField
            key={key}
            label={label}
            inputMode="decimal"
            value={form[key] ?? ''}
            onChange={(e) => setForm({ ...form, [key]: e.target.value })}
            error={api?.at(key)}
            hint={key === 'ph' ? 'Optional' : undefined}
          />
        ))}
        <div className="actions">
          <button type="submit" className="primary" disabled={create.isPending}>
            Save and use as source water
          </button>
        </div>
        {create.error && !api?.details.length ? <ErrorBox error={create.error} /> : null}
      </form>
    </details>
  );
}
