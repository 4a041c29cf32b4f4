import { useMemo, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { ApiError, errorText, type Schemas } from '../api/client';
import { exportHref } from './interchange';
import { AutoField } from '../components/AutoField';
import { ChildTable } from './ChildTable';
import { NUMBER_DELAY, type Row } from './childSpec';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { TextField } from '../components/Field';
import { ErrorBox, Loading } from '../components/States';
import { usePrefs, usePrefsQuery } from '../prefs';
import { useAnalyseRecipe, useCopyRecipe, useDeleteRecipe, useRecipe, useRecipeAutosave, useRecipeStats, useScaleRecipe, useStyles } from './api';
import { withDisplayUnits } from '../issueUnits';
import { fromInput, symbolFor, toInput } from '../units';
import { useEquipmentList } from '../equipment/api';
import { useStartSession } from '../sessions/api';
import { NotFound } from '../components/NotFound';
import { StyleFitPanel, VolumesPanel } from './RecipeBrewing';
import { WaterPanel } from './WaterPanel';
import { recipeTypes, specs } from './recipeSpecs';
import type { FieldValue } from '../autosave';
import { RecipeStockPanel } from '../stock/RecipeStockPanel';
import { RecipeChecksPanel, useFieldChecks } from './checks';
import { ExplainedStats } from './Explain';
import { HistoryPanel } from './history/HistoryPanel';
import { ShareButton } from './history/ShareDialog';

type Recipe = Schemas['RecipeDetail'];

export function today(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

function isMissing(e: unknown) {
  return e instanceof ApiError && (e.status === 404 || e.status === 400);
}

export default function RecipeEditor() {
  const { id = '' } = useParams();
  const recipe = useRecipe(id);
  const save = useRecipeAutosave(id);
  // Inputs show values in the account's units: wait for them, so nothing is shown in the wrong one.
  const prefs = usePrefsQuery();
  if (recipe.isPending || prefs.isPending) return <Loading what="the recipe" />;
  if (recipe.isError) return isMissing(recipe.error) ? <NotFound what="recipe" /> : <ErrorBox error={recipe.error} retry={() => recipe.refetch()} />;

  const r = recipe.data;
  return (
    <div className="recipe-page">
      <div className="page-head">
        <h1>{r.name || 'Untitled recipe'}</h1>
        <RecipeActions recipe={r} />
      </div>
      <div className="recipe-grid">
        <div className="recipe-main">
          <RecipeChecksPanel id={id} />
          <section className="panel" aria-labelledby="h-details">
            <h2 id="h-details">Details</h2>
            <div className="form-grid">
              <AutoField label="Name" field="name" value={r.name} save={save('name')} />
              <AutoField label="Style" field="style" value={r.style} save={save('style')} />
              <AutoField label="Type" field="type" type="select" options={recipeTypes} value={r.type} save={save('type')} />
              <AutoField
                label="Batch size"
                field="batch_size_liters"
                type="number"
                unit="volume"
                value={r.batch_size_liters}
                save={save('batch_size_liters')}
                delay={NUMBER_DELAY}
              />
              <AutoField
                label="Boil time"
                field="boil_time_minutes"
                type="number"
                unit="minutes"
                value={r.boil_time_minutes}
                save={save('boil_time_minutes')}
                delay={NUMBER_DELAY}
              />
              <EfficiencyField recipe={r} save={save} />
              <BrewingPickers recipe={r} save={save} />
              <AutoField label="Notes" field="notes" type="textarea" nullable value={r.notes ?? null} save={save('notes')} className="span-all" />
            </div>
          </section>
          {specs.map(({ key, spec }) => (
            <div className="panel" key={key}>
              <ChildTable recipeId={id} spec={spec} rows={r[key] as unknown as Row[]} />
            </div>
          ))}
          <WaterPanel recipe={r} save={save} />
          <HistoryPanel key={r.id} recipe={r} />
        </div>
        <aside className="recipe-side">
          <StatsPanel id={id} />
          <VolumesPanel id={id} />
          <StyleFitPanel id={id} styleId={r.style_id ?? null} />
          <RecipeStockPanel id={id} />
          <Analysis id={id} />
        </aside>
      </div>
    </div>
  );
}

type Save = (field: keyof Schemas['UpdateRecipeRequest']) => (v: FieldValue) => Promise<void>;

/** The efficiency, with what the checks say about it (an unusual one). */
function EfficiencyField({ recipe, save }: { recipe: Recipe; save: Save }) {
  const checks = useFieldChecks(recipe.id, ['efficiency']);
  return (
    <AutoField
      label="Efficiency"
      field="efficiency"
      type="number"
      unit="fraction"
      value={recipe.efficiency}
      save={save('efficiency')}
      delay={NUMBER_DELAY}
      checks={checks}
    />
  );
}

/** The recipe's equipment profile and BJCP style: selects saved like the other details. */
function BrewingPickers({ recipe, save }: { recipe: Recipe; save: Save }) {
  const profiles = useEquipmentList();
  // A mash larger than the profile's mash tun is said beside the profile.
  const equipmentChecks = useFieldChecks(recipe.id, ['equipment_id']);
  const styles = useStyles();
  const profileOptions = useMemo(() => (profiles.data?.items ?? []).map((p) => [p.id, p.name] as const), [profiles.data]);
  const styleOptions = useMemo(() => (styles.data ?? []).map((s) => [s.id, `${s.id} ${s.name}`] as const), [styles.data]);
  return (
    <>
      <AutoField
        label="Equipment profile"
        field="equipment_id"
        type="select"
        nullable
        noneLabel="None"
        options={withCurrent(profileOptions, recipe.equipment_id, profiles.isPending)}
        value={recipe.equipment_id ?? null}
        save={save('equipment_id')}
        checks={equipmentChecks}
      />
      <AutoField
        label="BJCP guideline"
        field="style_id"
        type="select"
        nullable
        noneLabel="None"
        options={withCurrent(styleOptions, recipe.style_id, styles.isPending)}
        value={recipe.style_id ?? null}
        save={save('style_id')}
      />
    </>
  );
}

/** The options, and the saved value while the list loads (or failed to), so a select never shows
 * another choice than the one saved. */
function withCurrent(options: readonly (readonly [string, string])[], current: string | null | undefined, loading: boolean) {
  if (!current || options.some(([v]) => v === current)) return options;
  return [[current, loading ? 'Loading…' : current] as const, ...options];
}

function StatsPanel({ id }: { id: string }) {
  const stats = useRecipeStats(id);
  return (
    <section className="panel stats-panel" aria-label="Statistics" aria-busy={stats.isFetching}>
      <h2>Statistics</h2>
      {stats.isPending ? (
        <Loading what="statistics" />
      ) : stats.isError ? (
        <ErrorBox error={stats.error} retry={() => stats.refetch()} />
      ) : (
        <ExplainedStats recipeId={id} stats={stats.data} />
      )}
    </section>
  );
}

function Analysis({ id }: { id: string }) {
  const analyse = useAnalyseRecipe(id);
  const err = analyse.error;
  return (
    <section className="panel" aria-labelledby="h-analysis">
      <h2 id="h-analysis">AI analysis</h2>
      <p className="muted">An assessment of balance, style fit and what to change.</p>
      <button type="button" onClick={() => analyse.mutate()} disabled={analyse.isPending}>
        {analyse.isPending ? 'Analysing…' : 'Analyse'}
      </button>
      <div aria-live="polite">
        {err ? (
          <div className="error-box" role="alert">
            {err instanceof ApiError && err.status === 503 ? (
              <p>
                AI is not configured on this server, so analysis is unavailable. ({errorText(err)}.) The operator can enable it by setting WORT_AI_BASE_URL and
                WORT_AI_MODEL.
              </p>
            ) : (
              <p>Analysis failed: {errorText(err)}</p>
            )}
          </div>
        ) : analyse.data ? (
          <div className="analysis">
            <p className="prewrap">{analyse.data.analysis}</p>
            <p className="muted small">
              {analyse.data.model} · {analyse.data.usage.total_tokens} tokens
            </p>
          </div>
        ) : null}
      </div>
    </section>
  );
}

function RecipeActions({ recipe }: { recipe: Recipe }) {
  const navigate = useNavigate();
  const [confirm, setConfirm] = useState(false);
  const [brewing, setBrewing] = useState(false);
  const [scaling, setScaling] = useState(false);
  const [date, setDate] = useState(today);
  const id = recipe.id;
  const copy = useCopyRecipe(id, (c) => navigate(`/recipes/${c.id}`));
  const del = useDeleteRecipe(id, () => navigate('/recipes'));
  const brew = useStartSession((s) => navigate(`/sessions/${s.id}`));
  const brewErr = brew.error instanceof ApiError ? brew.error : null;
  const anyErr = copy.error ?? del.error;
  return (
    <div className="actions">
      <button type="button" className="primary" onClick={() => setBrewing(true)}>
        Brew this recipe
      </button>
      <button type="button" onClick={() => copy.mutate()} disabled={copy.isPending}>
        Copy
      </button>
      <button type="button" onClick={() => setScaling(true)}>
        Scale
      </button>
      <ShareButton recipe={recipe} />
      <a className="button" href={exportHref(id, 'beerjson')} download>
        Export BeerJSON
      </a>
      <a className="button" href={exportHref(id, 'beerxml')} download>
        Export BeerXML
      </a>
      <button type="button" className="danger" onClick={() => setConfirm(true)}>
        Delete
      </button>
      {anyErr && <ErrorBox error={anyErr} />}
      <ConfirmDialog
        open={confirm}
        title={`Delete “${recipe.name}”?`}
        confirmLabel="Delete recipe"
        danger
        busy={del.isPending}
        onCancel={() => setConfirm(false)}
        onConfirm={() => del.mutate()}
      >
        <p>The recipe and its ingredients are deleted. Brew sessions made from it keep their snapshot.</p>
      </ConfirmDialog>
      {scaling && <ScaleDialog recipe={recipe} onClose={() => setScaling(false)} />}
      <ConfirmDialog
        open={brewing}
        title="Brew this recipe"
        confirmLabel="Create brew session"
        busy={brew.isPending}
        onCancel={() => setBrewing(false)}
        onConfirm={() => brew.mutate({ recipe_id: id, brew_date: date })}
      >
        <TextField label="Brew date" type="date" value={date} onChange={(e) => setDate(e.target.value)} error={brewErr?.at('brew_date')} required />
        {brew.error && !brewErr?.at('brew_date') ? <ErrorBox error={brew.error} /> : null}
      </ConfirmDialog>
    </div>
  );
}

/** A new recipe at another batch size (and efficiency): the API scales the amounts and keeps OG and IBU.
 * Mounted while open, so every opening starts from the recipe's numbers. */
function ScaleDialog({ recipe, onClose }: { recipe: Recipe; onClose: () => void }) {
  const navigate = useNavigate();
  const prefs = usePrefs();
  const [size, setSize] = useState(() => toInput(recipe.batch_size_liters, 'volume', prefs));
  const [efficiency, setEfficiency] = useState('');
  const [name, setName] = useState('');
  const scale = useScaleRecipe(recipe.id, (c) => {
    onClose();
    navigate(`/recipes/${c.id}`);
  });
  const body = () => {
    const body: Record<string, unknown> = {};
    // What is not a number is sent as typed, so the API's 422 names the field.
    const litres = fromInput(size, 'volume', prefs, recipe.batch_size_liters);
    if (litres != null) body.batch_size_liters = Number.isNaN(litres) ? size : litres;
    const fraction = fromInput(efficiency, 'fraction', prefs);
    if (fraction != null) body.efficiency = Number.isNaN(fraction) ? efficiency : fraction;
    if (name.trim() !== '') body.name = name.trim();
    return body as Schemas['ScaleRecipeRequest'];
  };
  const error = withDisplayUnits(scale.error, { batch_size_liters: 'volume', efficiency: 'fraction' }, prefs);
  const api = error instanceof ApiError ? error : null;
  const fields = ['batch_size_liters', 'efficiency', 'name'];
  const rest = api?.rest(fields);
  return (
    <ConfirmDialog
      open
      title={`Scale “${recipe.name}”`}
      confirmLabel="Create scaled recipe"
      busy={scale.isPending}
      onCancel={onClose}
      onConfirm={() => scale.mutate(body())}
    >
      <p className="muted small">A new recipe: fermentables are solved to keep the OG, hops to keep the IBU; this one stays as it is.</p>
      <TextField
        label={`New batch size (${symbolFor('volume', prefs)})`}
        inputMode="decimal"
        value={size}
        onChange={(e) => setSize(e.target.value)}
        error={api?.at('batch_size_liters')}
      />
      <TextField
        label="New efficiency (%)"
        inputMode="decimal"
        value={efficiency}
        onChange={(e) => setEfficiency(e.target.value)}
        error={api?.at('efficiency')}
        hint={`Optional: empty keeps ${toInput(recipe.efficiency, 'fraction', prefs)} %`}
      />
      <TextField
        label="New name"
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={api?.at('name')}
        hint="Optional: empty adds the new size to the name"
      />
      {error && (!api || rest !== 'Please correct the marked fields.') ? (
        <ErrorBox error={api ? new ApiError(api.status, rest ?? api.message) : error} />
      ) : null}
    </ConfirmDialog>
  );
}
