import { Fragment, memo, useEffect, useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, errorText, request, type Schemas } from '../api/client';
import { usePrefs } from '../prefs';
import { fromInput, roundDefault, symbolFor, toInput, type Kind, type RoundDefault } from '../units';
import { AutoField } from '../components/AutoField';
import { useUndoableDelete } from '../components/Undo';
import { keys } from '../api/keys';
import { statsQuery } from './queries';
import { CheckText, rowCheckId, useFieldChecks, useRowChecks, withRowIds } from './checks';
import { CatalogName } from '../catalog/CatalogName';
import { fillFrom, itemBodyFrom } from '../catalog/fill';
import type { CatalogItem, CatalogKind } from '../catalog/types';
import './ChildTable.css';

export interface Col {
  key: string;
  label: string;
  type: 'text' | 'number' | 'select';
  unit?: Kind;
  options?: readonly (readonly [string, string])[];
  nullable?: boolean;
  /** Default of the add form, in API units, or round numbers by display unit (`{ kg: 1, lb: 1 }`). */
  def?: string | number | RoundDefault | null;
  /** A text column's default on an account with US amounts ("oz" for "g"). */
  usDef?: string;
  /** The default as it depends on the add form's other fields (API units), e.g. a hop's time on its use. */
  defBy?: (values: Record<string, string>) => number;
  /** The unit as it depends on the row's other fields (acidulated malt is weighed, a salt's grams
   * are grams in every setting); `unit` where this gives nothing. */
  unitBy?: (row: Record<string, unknown>) => Kind | undefined;
  /** Minutes entered and shown in days where this says so (a dry hop's contact time). */
  days?: (row: Record<string, unknown>) => boolean;
  /** The word in accessible names, when the column header's word is taken by a recipe field. */
  aria?: string;
  /** Shown in the add form. */
  add?: boolean;
  /** The field means something only on rows where this says so (a hop stand's temperature, on
   * whirlpool and aroma hops); other rows show an empty cell. The API refuses it elsewhere. */
  only?: (row: Record<string, unknown>) => boolean;
}

/** A read-only column computed for display: the API's numbers (IBU per hop) or presentation arithmetic (grist %). */
export interface DerivedCol {
  key: string;
  label: string;
  /** Shown right after this column. */
  after: string;
  value: (row: Row, ctx: { rows: Row[]; stats: Schemas['RecipeStats'] | undefined; prefs: Prefs }) => string;
  /** Reads the recipe's `/stats`. */
  stats?: boolean;
}

export interface ChildSpec {
  /** API path segment: `/v1/recipes/{id}/<path>` and `/v1/<path>/{id}`. */
  path: 'fermentables' | 'hops' | 'yeasts' | 'miscs' | 'mash-steps' | 'water-additions' | 'fermentation-steps';
  singular: string;
  title: string;
  cols: Col[];
  derived?: DerivedCol[];
  /** The name field suggests from this catalogue; rows can be saved to it. */
  catalog?: CatalogKind;
  /** The add form's field that takes focus once a catalogue item is chosen. */
  afterChoose?: string;
  /** The rows in the order they are shown, when the view orders them itself (the API's `sort_order` then stays as it is). */
  order?: (rows: Row[]) => Row[];
  /** Said under the table when `order` is set. */
  orderNote?: string;
}

export interface Row {
  id: string;
  sort_order: number;
  name: string;
  [k: string]: unknown;
}

/** Saves of number fields wait this long after the last keystroke (the statistics follow each save). */
export const NUMBER_DELAY = 80;

const MINUTES_PER_DAY = 1440;

/** A column's unit for a row (or the add form's values). */
function unitOf(c: Col, row: Record<string, unknown>): Kind | undefined {
  return c.unitBy?.(row) ?? c.unit;
}

/** A column's unit symbol in headers and labels ('' when it has none worth saying). */
function colSymbol(c: Col, prefs: ReturnType<typeof usePrefs>, row: Record<string, unknown> = {}): string {
  const unit = unitOf(c, row);
  if (!unit) return '';
  const s = symbolFor(unit, prefs);
  return ['SG', ''].includes(s) ? '' : s;
}

/** One kind of a recipe's children: inline edit, delete, reorder (sort_order), and an add form.
 * Memoised: a change to one kind's rows re-renders that table only (the others keep their arrays). */
export const ChildTable = memo(function ChildTable({ recipeId, spec, rows: apiRows }: { recipeId: string; spec: ChildSpec; rows: Row[] }) {
  const qc = useQueryClient();
  const prefs = usePrefs();
  const [rowError, setRowError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const detailKey = keys.recipes.detail(recipeId);
  const statsKey = keys.recipes.stats(recipeId);
  const listKey = spec.path.replace('-', '_');

  // The recipe in the cache takes the API's answer for one child: no refetch of the whole recipe,
  // so a change costs one write and one `/stats`.
  const putRow = (update: (list: Row[]) => Row[]) =>
    qc.setQueryData<Record<string, unknown>>(detailKey, (r) => (r ? { ...r, [listKey]: update((r[listKey] as Row[] | undefined) ?? []) } : r));
  const refreshStats = () => qc.invalidateQueries({ queryKey: statsKey });
  const refreshAll = () => Promise.all([qc.invalidateQueries({ queryKey: detailKey }), refreshStats()]);

  // One row's field: saved and put into the recipe; the statistics follow in the background (a
  // newer save's refresh supersedes an older one still on its way), so the next keystroke's save
  // waits only for this write, never for its statistics.
  const saver = (id: string) => (field: string) => async (value: string | number | null) => {
    const answer = await request<Row>('PATCH', `/v1/${spec.path}/${id}`, { [field]: value });
    // The statistics' request leaves before the page re-renders with the answer.
    void refreshStats();
    putRow((list) => list.map((r) => (r.id === id ? { ...r, ...answer } : r)));
  };
  const del = useMutation({
    mutationFn: (id: string) => request('DELETE', `/v1/${spec.path}/${id}`),
    onSuccess: (_v, id) => {
      putRow((list) => list.filter((r) => r.id !== id));
      return refreshStats();
    },
    onError: (e) => setRowError(errorText(e)),
  });
  // ✕ hides the row at once; the DELETE waits a few seconds for Undo.
  const removal = useUndoableDelete((id) => del.mutate(id));
  const visible = removal.hidden.size ? apiRows.filter((r) => !removal.hidden.has(r.id)) : apiRows;
  const rows = spec.order ? spec.order(visible) : visible;
  const move = useMutation({
    mutationFn: async ({ i, dir }: { i: number; dir: -1 | 1 }) => {
      const a = rows[i]!;
      const b = rows[i + dir]!;
      // Swap positions; rows sharing a sort_order get distinct ones from their index first.
      const oa = a.sort_order === b.sort_order ? i : a.sort_order;
      const ob = a.sort_order === b.sort_order ? i + dir : b.sort_order;
      await request('PATCH', `/v1/${spec.path}/${a.id}`, { sort_order: ob });
      await request('PATCH', `/v1/${spec.path}/${b.id}`, { sort_order: oa });
    },
    onSettled: refreshAll,
    onError: (e) => setRowError(errorText(e)),
  });
  const kind = spec.catalog;
  const keep = useMutation({
    mutationFn: (row: Row) => request<CatalogItem>('POST', `/v1/catalog/${kind}`, itemBodyFrom(kind!, row)),
    onSuccess: (item) => {
      setRowError(null);
      setSaved(`Saved “${item.name}” to my ingredients.`);
      return qc.invalidateQueries({ queryKey: keys.catalog.kind(kind!) });
    },
    onError: (e) => {
      setSaved(null);
      setRowError(`Not saved to my ingredients: ${errorText(e)}`);
    },
  });

  const headingId = `h-${spec.path}`;
  const columns: (Col | DerivedCol)[] = [];
  for (const c of spec.cols) {
    // A column that applies to none of the rows (no hop stand among the hops) is left out.
    if (!c.only || rows.some((r) => c.only!(r))) columns.push(c);
    for (const d of spec.derived ?? []) if (d.after === c.key) columns.push(d);
  }
  const isDerived = (c: Col | DerivedCol): c is DerivedCol => 'value' in c;
  const header = (c: Col | DerivedCol) => {
    if (isDerived(c)) return c.label;
    const s = colSymbol(c, prefs);
    return s ? `${c.label} (${s})` : c.label;
  };
  return (
    <section className="child" aria-labelledby={headingId}>
      <h2 id={headingId}>{spec.title}</h2>
      {rows.length === 0 ? (
        <p className="muted">No {spec.title.toLowerCase()} yet.</p>
      ) : (
        <div className="table-scroll">
          {/* Scrolls sideways inside its panel when the columns outgrow it, never past the panel. */}
          <table role="table" className="rows">
            <thead role="rowgroup">
              <tr role="row">
                {columns.map((c) => (
                  <th key={c.key} scope="col">
                    {header(c)}
                  </th>
                ))}
                <th role="columnheader" scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody role="rowgroup">
              {rows.map((r, shownAt) => {
                // A row keeps its number (its place in the API's order) when the view orders rows itself.
                const i = spec.order ? visible.indexOf(r) : shownAt;
                return (
                  <Fragment key={r.id}>
                    <tr role="row">
                      {columns.map((c) =>
                        isDerived(c) ? (
                          <td role="cell" key={c.key} data-label={c.label} className="derived">
                            {c.stats ? <StatsValue recipeId={recipeId} col={c} row={r} rows={rows} /> : c.value(r, { rows, stats: undefined, prefs })}
                          </td>
                        ) : (
                          <Cell key={c.key} recipeId={recipeId} c={c} spec={spec} row={r} i={i} save={saver(r.id)(c.key)} label={header(c)} />
                        ),
                      )}
                      <td role="cell" className="row-actions">
                        {!spec.order && (
                          <>
                            <button
                              type="button"
                              className="icon"
                              aria-label={`Move ${spec.singular} ${i + 1} up`}
                              disabled={i === 0 || move.isPending}
                              onClick={() => move.mutate({ i, dir: -1 })}
                            >
                              ↑
                            </button>
                            <button
                              type="button"
                              className="icon"
                              aria-label={`Move ${spec.singular} ${i + 1} down`}
                              disabled={i === rows.length - 1 || move.isPending}
                              onClick={() => move.mutate({ i, dir: 1 })}
                            >
                              ↓
                            </button>
                          </>
                        )}
                        {kind && (
                          <button
                            type="button"
                            className="icon"
                            title="Save to my ingredients"
                            aria-label={`Save ${spec.singular} ${i + 1} to my ingredients: ${r.name}`}
                            disabled={keep.isPending}
                            onClick={() => keep.mutate(r)}
                          >
                            ☆
                          </button>
                        )}
                        <button
                          type="button"
                          className="icon danger-text"
                          aria-label={`Remove ${spec.singular} ${i + 1}: ${String(r.name ?? r.agent ?? '')}`}
                          onClick={() =>
                            removal.remove(
                              r.id,
                              `${spec.singular[0]?.toUpperCase() ?? ''}${spec.singular.slice(1)} “${String(r.name ?? r.agent ?? '')}” removed.`,
                            )
                          }
                        >
                          ✕
                        </button>
                      </td>
                    </tr>
                    <RowChecks recipeId={recipeId} list={listKey} rowId={r.id} span={columns.length + 1} />
                  </Fragment>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {removal.toast}
      {spec.order && spec.orderNote && rows.length > 1 ? <p className="muted small">{spec.orderNote}</p> : null}
      <p className="small save-state saved" aria-live="polite">
        {saved}
      </p>
      {rowError && (
        <p className="form-error" role="alert">
          {rowError}
        </p>
      )}
      <AddForm
        recipeId={recipeId}
        spec={spec}
        onAdded={(row) => {
          putRow((list) => [...list, row]);
          return refreshStats();
        }}
      />
    </section>
  );
});

/** The checks of one row, under it across the table: nothing when it has none. */
function RowChecks({ recipeId, list, rowId, span }: { recipeId: string; list: string; rowId: string; span: number }) {
  const checks = useRowChecks(recipeId, list, rowId);
  if (checks.length === 0) return null;
  return (
    <tr role="row" className="row-checks">
      <td role="cell" colSpan={span}>
        <span className="field-checks">
          {withRowIds(rowId, checks).map(({ check, id }) => (
            <CheckText key={id} check={check} id={id} />
          ))}
        </span>
      </td>
    </tr>
  );
}

/** A cell showing the API's numbers: only it watches `/stats`, so new statistics re-render these
 * cells, not the table around them. */
function StatsValue({ recipeId, col, row, rows }: { recipeId: string; col: DerivedCol; row: Row; rows: Row[] }) {
  const stats = useQuery(statsQuery(recipeId));
  const prefs = usePrefs();
  return <>{col.value(row, { rows, stats: stats.data, prefs })}</>;
}

/** One editable cell; a column in days (a dry hop's time) shows and takes days, the API keeps minutes. */
function Cell({
  recipeId,
  c,
  spec,
  row,
  i,
  save,
  label,
}: {
  recipeId: string;
  c: Col;
  spec: ChildSpec;
  row: Row;
  i: number;
  save: (v: string | number | null) => Promise<void>;
  label: string;
}) {
  const days = c.days?.(row) ?? false;
  // A check naming this row's field by the row's id ("hops", id, "time_minutes"): its text is in
  // the line under the row (the whole table's width), and read with this field.
  const checks = useFieldChecks(recipeId, [spec.path.replace('-', '_'), row.id, c.key]);
  const describedBy = checks.map((_, n) => rowCheckId(row.id, c.key, n)).join(' ') || undefined;
  const value = row[c.key] as string | number | null;
  const shownLabel = days ? `${c.label} (days)` : label;
  if (c.only && !c.only(row))
    return (
      <td role="cell" data-label={shownLabel} className="not-applicable">
        <span aria-hidden="true">—</span>
      </td>
    );
  return (
    <td role="cell" data-label={shownLabel}>
      {days ? (
        <div className="in-days">
          <AutoField
            label={`${cellLabel(c, spec, i)} (days)`}
            visibleLabel={false}
            field={c.key}
            type="number"
            unit="plain"
            value={typeof value === 'number' ? value / MINUTES_PER_DAY : value}
            save={(v) => save(typeof v === 'number' ? v * MINUTES_PER_DAY : v)}
            delay={NUMBER_DELAY}
            describedBy={describedBy}
          />
          <span aria-hidden="true">days</span>
        </div>
      ) : (
        <AutoField
          label={cellLabel(c, spec, i)}
          visibleLabel={false}
          field={c.key}
          type={c.type}
          unit={unitOf(c, row)}
          options={c.options}
          nullable={c.nullable}
          value={value}
          save={save}
          delay={c.type === 'number' ? NUMBER_DELAY : undefined}
          describedBy={describedBy}
        />
      )}
    </td>
  );
}

/** A cell's accessible name: "Fermentable 1" for the name, "Amount of fermentable 1" for the rest
 * (never the words of the recipe's own fields: Name, Type, Style, Notes). */
function cellLabel(c: Col, spec: ChildSpec, i: number): string {
  const one = `${spec.singular} ${i + 1}`;
  if (c.key === 'name') return one.charAt(0).toUpperCase() + one.slice(1);
  return `${c.aria ?? c.label} of ${one}`;
}

type Prefs = ReturnType<typeof usePrefs>;

/** A number column's add-form text for an API value (days where the column says so). */
function shownNumber(c: Col, v: number | null, values: Record<string, string>, prefs: Prefs): string {
  if (v == null) return '';
  return c.days?.(values) ? toInput(v / MINUTES_PER_DAY, 'plain', prefs) : toInput(v, unitOf(c, values) ?? 'plain', prefs);
}

function initial(spec: ChildSpec, prefs: Prefs): Record<string, string> {
  const out: Record<string, string> = {};
  for (const c of spec.cols) {
    if (c.add === false || c.type === 'number') continue;
    out[c.key] = prefs.amounts === 'us' && c.usDef != null ? c.usDef : c.def == null || typeof c.def === 'object' ? '' : String(c.def);
  }
  for (const c of spec.cols) {
    if (c.add === false || c.type !== 'number') continue;
    const def = c.defBy
      ? c.defBy(out)
      : typeof c.def === 'number'
        ? c.def
        : c.def && typeof c.def === 'object'
          ? roundDefault(c.unit ?? 'plain', c.def, prefs)
          : null;
    out[c.key] = shownNumber(c, def, out, prefs);
  }
  return out;
}

function AddForm({ recipeId, spec, onAdded }: { recipeId: string; spec: ChildSpec; onAdded: (row: Row) => unknown }) {
  const prefs = usePrefs();
  const [values, setValues] = useState(() => initial(spec, prefs));
  // The chosen catalogue item: its id and the fields it fills that have no column here (API units).
  const [chosen, setChosen] = useState<{ id: string; extra: Record<string, unknown> } | null>(null);
  // Fields the person typed in: a default that depends on another field never overwrites them.
  const touched = useRef(new Set<string>());
  // The account's units may arrive after the form (or change): what the person has not typed
  // starts again in them, so a US account never sees a metric default converted.
  const unitsKey = `${prefs.amounts} ${prefs.temperature} ${prefs.color} ${prefs.gravity}`;
  const startedIn = useRef(unitsKey);
  useEffect(() => {
    if (startedIn.current === unitsKey) return;
    startedIn.current = unitsKey;
    setValues((v) => {
      const fresh = initial(spec, prefs);
      for (const k of touched.current) fresh[k] = v[k] ?? '';
      return fresh;
    });
  }, [unitsKey, spec, prefs]);
  const [error, setError] = useState<unknown>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const cols = spec.cols.filter((c) => c.add !== false);
  const add = useMutation({
    mutationFn: () => {
      const body: Record<string, unknown> = { ...(chosen?.extra ?? {}) };
      for (const c of cols) {
        const t = values[c.key] ?? '';
        if (c.type === 'number') {
          const days = c.days?.(values) ?? false;
          const n = days ? fromInput(t, 'plain', prefs) : fromInput(t, unitOf(c, values) ?? 'plain', prefs);
          if (n == null) {
            if (!c.nullable) body[c.key] = undefined;
            continue;
          }
          body[c.key] = Number.isNaN(n) ? t : days ? n * MINUTES_PER_DAY : n;
        } else if (t !== '') body[c.key] = t;
      }
      if (!body.name && cols.some((c) => c.key === 'name')) body.name = `New ${spec.singular}`;
      // The link to the catalogue item the row was made from.
      if (chosen) body.catalog_id = chosen.id;
      return request<Row>('POST', `/v1/recipes/${recipeId}/${spec.path}`, body);
    },
    onSuccess: async (row) => {
      setError(null);
      setValues(initial(spec, prefs));
      setChosen(null);
      touched.current.clear();
      // Back to the name for the next one, unless the person has already moved on elsewhere.
      const at = document.activeElement;
      if (!at || at === document.body || formRef.current?.contains(at)) nameRef.current?.focus();
      await onAdded(row);
    },
    onError: setError,
  });

  const set = (key: string, v: string) => {
    touched.current.add(key);
    const next = { ...values, [key]: v };
    // Defaults that follow this field (a dry hop's 3 days), where the person has not typed.
    for (const c of cols) {
      if (c.type === 'number' && c.defBy && !touched.current.has(c.key) && c.key !== key) next[c.key] = shownNumber(c, c.defBy(next), next, prefs);
    }
    setValues(next);
  };

  const choose = (item: CatalogItem) => {
    const fill = fillFrom(spec.catalog!, item);
    const next: Record<string, string> = { ...values, name: item.name };
    const extra: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(fill)) {
      const c = cols.find((col) => col.key === k);
      if (!c) extra[k] = v;
      else next[k] = c.type === 'number' ? shownNumber(c, v as number, next, prefs) : String(v);
    }
    setValues(next);
    setChosen({ id: item.id, extra });
    const target = spec.afterChoose ? document.getElementById(`add-${spec.path}-${spec.afterChoose}`) : null;
    (target ?? document.getElementById(`add-${spec.path}-submit`))?.focus();
  };

  const api = error instanceof ApiError ? error : null;
  const addLabel = `Add ${spec.singular}`;
  return (
    <form
      ref={formRef}
      className="add-row"
      aria-label={`Add a ${spec.singular}`}
      onSubmit={(e) => {
        e.preventDefault();
        add.mutate();
      }}
    >
      {cols.map((c) => {
        const days = c.days?.(values) ?? false;
        const sym = days ? 'days' : colSymbol(c, prefs, values);
        const label = c.key === 'name' ? `New ${spec.singular}` : `New ${spec.singular} ${(c.aria ?? c.label).toLowerCase()}${sym ? ` (${sym})` : ''}`;
        const fieldErr = api?.at(c.key);
        const id = `add-${spec.path}-${c.key}`;
        const common = {
          'aria-invalid': fieldErr ? true : undefined,
          'aria-describedby': fieldErr ? `${id}-err` : undefined,
        } as const;
        return (
          <div className={`field ${fieldErr ? 'has-error' : ''}`} key={c.key}>
            <label htmlFor={id}>{label}</label>
            {c.type === 'select' ? (
              <select
                id={id}
                value={values[c.key]}
                onChange={(e) => set(c.key, e.target.value)}
                // Enter adds the row, as it does in the text fields, rather than opening the list
                // (Space and the arrow keys still choose).
                onKeyDown={(e) => {
                  if (e.key !== 'Enter' || e.altKey || e.shiftKey || e.ctrlKey || e.metaKey) return;
                  e.preventDefault();
                  formRef.current?.requestSubmit();
                }}
              >
                {c.nullable && <option value="">—</option>}
                {(c.options ?? []).map(([v, l]) => (
                  <option key={v} value={v}>
                    {l}
                  </option>
                ))}
              </select>
            ) : c.key === 'name' && spec.catalog ? (
              <CatalogName
                id={id}
                kind={spec.catalog}
                value={values.name ?? ''}
                onChange={(v) => {
                  // Typing after a choice makes it the person's own ingredient again.
                  setChosen(null);
                  set('name', v);
                }}
                onChoose={choose}
                inputRef={nameRef}
                inputProps={{ ...common, placeholder: 'Type to search' }}
              />
            ) : (
              <input
                id={id}
                ref={c.key === 'name' ? nameRef : undefined}
                type="text"
                inputMode={c.type === 'number' ? 'decimal' : undefined}
                value={values[c.key]}
                placeholder={c.key === 'name' ? `New ${spec.singular}` : undefined}
                {...common}
                // A default is replaced by typing, not appended to.
                onFocus={c.type === 'number' ? (e) => e.currentTarget.select() : undefined}
                onChange={(e) => set(c.key, e.target.value)}
              />
            )}
            {fieldErr && (
              <span className="field-error" id={`${id}-err`}>
                {fieldErr}
              </span>
            )}
          </div>
        );
      })}
      <button type="submit" id={`add-${spec.path}-submit`} disabled={add.isPending}>
        {addLabel}
      </button>
      {error != null && (!api || api.rest(cols.map((c) => c.key)) !== 'Please correct the marked fields.') ? (
        <p className="form-error" role="alert">
          {api ? api.rest(cols.map((c) => c.key)) : errorText(error)}
        </p>
      ) : error != null ? (
        <p className="form-error" role="alert">
          Not added: please correct the marked fields.
        </p>
      ) : null}
    </form>
  );
}
