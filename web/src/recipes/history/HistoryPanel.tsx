// The recipe's history: its versions newest first (the open one marked "Current"), naming the
// recipe as it is now, what each version changed, restoring one, and where the recipe was copied
// from and its copies, and how it differs from another of the account's recipes. Nothing is asked
// for until the panel is opened (and no comparison until a recipe is chosen).
import { useId, useState } from 'react';
import { ApiError, type Schemas } from '../../api/client';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { SelectField, TextField } from '../../components/Field';
import { ErrorBox, Loading } from '../../components/States';
import { usePrefs } from '../../prefs';
import { absoluteTime, relativeTime } from '../../time';
import { useRecipeNames } from '../api';
import type { Row } from '../childSpec';
import { useNameVersion, useRecipeCompare, useRestoreVersion, useVersionDiff, useVersions, VERSIONS_PAGE, type RecipeDiff, type RecipeVersion } from './api';
import { childLine, childListKey, compareChildLine, groupChildren, recipeFieldLine, versionName } from './diff';
import { LineageInfo } from './Lineage';
import './History.css';

type Recipe = Schemas['RecipeDetail'];

/** The "History" disclosure: a heading's button opens it (and only then are the versions asked for). */
export function HistoryPanel({ recipe }: { recipe: Recipe }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <section className="panel history-panel" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`} className="disclosure-heading">
        <button type="button" className="ghost disclosure" aria-expanded={open} aria-controls={`${id}-body`} onClick={() => setOpen(!open)}>
          History
        </button>
      </h2>
      {open && (
        <div id={`${id}-body`}>
          <LineageInfo recipe={recipe} />
          <NameVersionForm recipeId={recipe.id} />
          <Versions recipe={recipe} />
          <CompareForm recipe={recipe} />
        </div>
      )}
    </section>
  );
}

/** Closes the open version under a name: later edits start the next version. */
function NameVersionForm({ recipeId }: { recipeId: string }) {
  const [name, setName] = useState('');
  const [saved, setSaved] = useState<string | null>(null);
  const save = useNameVersion(recipeId, () => {
    setSaved(name.trim());
    setName('');
  });
  const api = save.error instanceof ApiError ? save.error : null;
  const fieldError = api?.at('message');
  return (
    <form
      className="name-version"
      aria-label="Name this version"
      onSubmit={(e) => {
        e.preventDefault();
        setSaved(null);
        save.mutate(name.trim());
      }}
    >
      <TextField
        label="Version name"
        value={name}
        onChange={(e) => setName(e.target.value)}
        maxLength={200}
        required
        error={fieldError}
        hint="Names the recipe as it is now; later edits start a new version."
      />
      <div className="actions">
        <button type="submit" disabled={save.isPending}>
          Save version
        </button>
        <span className="muted small" role="status">
          {saved ? `Saved as “${saved}”.` : ''}
        </span>
      </div>
      {save.error && !fieldError ? <ErrorBox error={save.error} /> : null}
    </form>
  );
}

/** The timeline, newest first, with the older ones a page at a time. */
function Versions({ recipe }: { recipe: Recipe }) {
  const [limit, setLimit] = useState(VERSIONS_PAGE);
  const [selected, setSelected] = useState<number | null>(null);
  const [restored, setRestored] = useState<string | null>(null);
  const versions = useVersions(recipe.id, limit, true);
  if (versions.isPending) return <Loading what="the versions" />;
  if (versions.isError) return <ErrorBox error={versions.error} retry={() => versions.refetch()} />;
  const { items, total } = versions.data;
  return (
    <div aria-busy={versions.isFetching}>
      <h3>Versions</h3>
      <p className="muted small" role="status">
        {restored ?? ''}
      </p>
      {items.length === 0 ? (
        <p className="muted">No versions yet.</p>
      ) : (
        <ol className="versions" aria-label="Versions">
          {items.map((v) => (
            <VersionItem
              key={v.number}
              recipe={recipe}
              version={v}
              open={selected === v.number}
              onToggle={() => setSelected(selected === v.number ? null : v.number)}
              onRestored={(now) => {
                setSelected(null);
                setRestored(`Restored version ${v.number}: the recipe is as it was then (now version ${now.number}).`);
              }}
            />
          ))}
        </ol>
      )}
      {items.length < total && (
        <button type="button" onClick={() => setLimit(limit + VERSIONS_PAGE)} disabled={versions.isFetching}>
          Show older versions
        </button>
      )}
    </div>
  );
}

function VersionItem({
  recipe,
  version: v,
  open,
  onToggle,
  onRestored,
}: {
  recipe: Recipe;
  version: RecipeVersion;
  open: boolean;
  onToggle: () => void;
  onRestored: (now: RecipeVersion) => void;
}) {
  const id = useId();
  const name = versionName(v);
  return (
    <li className={`version${v.current ? ' current' : ''}`}>
      <div className="version-head">
        <h4>
          {name}
          {v.message ? <span className="muted small"> · Version {v.number}</span> : null}
        </h4>
        {v.current && <span className="badge">Current</span>}
      </div>
      <p className="version-summary">{v.summary}</p>
      <p className="muted small">
        <time dateTime={v.updated_at}>
          {relativeTime(v.updated_at)} · {absoluteTime(v.updated_at)}
        </time>
      </p>
      <div className="actions">
        <button type="button" aria-expanded={open} aria-controls={open ? `${id}-diff` : undefined} onClick={onToggle}>
          {open ? 'Hide changes' : 'Show changes'}
          <span className="sr-only"> in version {v.number}</span>
        </button>
        {open && !v.current && <RestoreButton recipeId={recipe.id} number={v.number} onRestored={onRestored} />}
      </div>
      {open && (
        <div id={`${id}-diff`} className="version-diff">
          {v.number > 1 ? <VersionDiff recipe={recipe} number={v.number} /> : <p className="muted">The first version: nothing came before it.</p>}
        </div>
      )}
    </li>
  );
}

/** What version `n` changed from the one before, as the API compares them. */
function VersionDiff({ recipe, number }: { recipe: Recipe; number: number }) {
  const prefs = usePrefs();
  const diff = useVersionDiff(recipe.id, number, true);
  if (diff.isPending) return <Loading what="the changes" />;
  if (diff.isError) return <ErrorBox error={diff.error} retry={() => diff.refetch()} />;
  const { fields, children } = diff.data;
  if (fields.length === 0 && children.length === 0) return <p className="muted">No changes from version {number - 1}.</p>;
  return (
    <>
      <h5>Changes from version {number - 1}</h5>
      <DiffLists recipe={recipe} diff={diff.data} line={(c, known) => childLine(c, prefs, known)} />
    </>
  );
}

/** A diff's lines: the recipe's own fields, then its children by kind. */
function DiffLists({
  recipe,
  diff: { fields, children },
  line,
}: {
  recipe: Recipe;
  diff: RecipeDiff;
  line: (c: RecipeDiff['children'][number], known: string | undefined) => string;
}) {
  const prefs = usePrefs();
  // A changed child's name, where the diff leaves it out: as the recipe has it now.
  const known = (kind: string, childId: string | null | undefined) => {
    const list = childListKey(kind);
    const rows = list ? (recipe[list] as unknown as Row[] | undefined) : undefined;
    return rows?.find((r) => r.id === childId)?.name || undefined;
  };
  return (
    <>
      {fields.length > 0 && (
        <ul className="diff-list" aria-label="Recipe">
          {fields.map((f) => (
            <li key={f.path.join('.')}>{recipeFieldLine(f, prefs)}</li>
          ))}
        </ul>
      )}
      {groupChildren(children).map((g) => (
        <div key={g.kind}>
          <h6>{g.title}</h6>
          <ul className="diff-list" aria-label={g.title}>
            {g.changes.map((c, i) => (
              <li key={c.id ?? c.against_id ?? i}>{line(c, known(c.kind, c.id))}</li>
            ))}
          </ul>
        </div>
      ))}
    </>
  );
}

/** "Compare with another recipe": choose one of the account's other recipes, see how this one differs. */
function CompareForm({ recipe }: { recipe: Recipe }) {
  const [other, setOther] = useState('');
  const names = useRecipeNames();
  const others = (names.data?.items ?? []).filter((r) => r.id !== recipe.id);
  const otherName = others.find((r) => r.id === other)?.name ?? 'the other recipe';
  return (
    <form className="compare" aria-label="Compare with another recipe" onSubmit={(e) => e.preventDefault()}>
      <h3>Compare with another recipe</h3>
      {names.isError ? (
        <ErrorBox error={names.error} retry={() => names.refetch()} />
      ) : names.isPending ? (
        <Loading what="your recipes" />
      ) : others.length === 0 ? (
        <p className="muted">No other recipes to compare with.</p>
      ) : (
        <SelectField
          label="Compare with"
          value={other}
          onChange={(e) => setOther(e.target.value)}
          options={[['', 'Choose a recipe…'], ...others.map((r) => [r.id, r.name] as const)]}
        />
      )}
      {other && (
        <div className="version-diff">
          <CompareDiff recipe={recipe} other={other} otherName={otherName} />
        </div>
      )}
    </form>
  );
}

/** How this recipe differs from `other`, as the API compares them (the other's values first). */
function CompareDiff({ recipe, other, otherName }: { recipe: Recipe; other: string; otherName: string }) {
  const prefs = usePrefs();
  const diff = useRecipeCompare(recipe.id, other);
  if (diff.isPending) return <Loading what="the differences" />;
  if (diff.isError) return <ErrorBox error={diff.error} retry={() => diff.refetch()} />;
  const { fields, children } = diff.data;
  return (
    <>
      <h5>Differences from {otherName}</h5>
      {fields.length === 0 && children.length === 0 ? (
        <p className="muted">No differences.</p>
      ) : (
        <>
          <p className="muted small">Values read “{otherName} → this recipe”.</p>
          <DiffLists recipe={recipe} diff={diff.data} line={(c, known) => compareChildLine(c, prefs, otherName, known)} />
        </>
      )}
    </>
  );
}

/** "Restore version n", with a confirm step: the recipe becomes what it was then, as a new version. */
function RestoreButton({ recipeId, number, onRestored }: { recipeId: string; number: number; onRestored: (now: RecipeVersion) => void }) {
  const [confirm, setConfirm] = useState(false);
  const restore = useRestoreVersion(recipeId, (now) => {
    setConfirm(false);
    onRestored(now);
  });
  return (
    <>
      <button type="button" onClick={() => setConfirm(true)}>
        Restore version {number}
      </button>
      <ConfirmDialog
        open={confirm}
        title={`Restore version ${number}?`}
        confirmLabel="Restore"
        busy={restore.isPending}
        onCancel={() => setConfirm(false)}
        onConfirm={() => restore.mutate(number)}
      >
        <p>The recipe, its ingredients and steps become what they were in version {number}. What it is now stays in the history.</p>
        {restore.error ? <ErrorBox error={restore.error} /> : null}
      </ConfirmDialog>
    </>
  );
}
