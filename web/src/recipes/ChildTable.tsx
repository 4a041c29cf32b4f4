import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, errorText, request } from '../api/client';
import { usePrefs } from '../prefs';
import { fromInput, symbolFor, toInput, type Kind } from '../units';
import { AutoField } from '../components/AutoField';
import { fieldSaver } from '../autosave';
import { keys } from '../api/keys';

export interface Col {
  key: string;
  label: string;
  type: 'text' | 'number' | 'select';
  unit?: Kind;
  options?: readonly (readonly [string, string])[];
  nullable?: boolean;
  /** Default of the add form, in API units. */
  def?: string | number | null;
  /** The word in accessible names, when the column header's word is taken by a recipe field. */
  aria?: string;
  /** Shown in the add form. */
  add?: boolean;
}

export interface ChildSpec {
  /** API path segment: `/v1/recipes/{id}/<path>` and `/v1/<path>/{id}`. */
  path: 'fermentables' | 'hops' | 'yeasts' | 'miscs' | 'mash-steps';
  singular: string;
  title: string;
  cols: Col[];
}

export interface Row {
  id: string;
  sort_order: number;
  name: string;
  [k: string]: unknown;
}

/** One kind of a recipe's children: inline edit, delete, reorder (sort_order), and an add form. */
export function ChildTable({ recipeId, spec, rows }: { recipeId: string; spec: ChildSpec; rows: Row[] }) {
  const qc = useQueryClient();
  const prefs = usePrefs();
  const refresh = () => Promise.all([qc.invalidateQueries({ queryKey: keys.recipes.detail(recipeId) }), qc.invalidateQueries({ queryKey: keys.recipes.stats(recipeId) })]);
  const [rowError, setRowError] = useState<string | null>(null);

  // One row's field: the recipe and its statistics are refetched before it counts as saved.
  const saver = (id: string) =>
    fieldSaver(qc, {
      patch: (body: Record<string, unknown>) => request('PATCH', `/v1/${spec.path}/${id}`, body),
      awaited: [keys.recipes.detail(recipeId), keys.recipes.stats(recipeId)],
    });
  const del = useMutation({
    mutationFn: (id: string) => request('DELETE', `/v1/${spec.path}/${id}`),
    onSuccess: refresh,
    onError: (e) => setRowError(errorText(e)),
  });
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
    onSettled: refresh,
    onError: (e) => setRowError(errorText(e)),
  });

  const headingId = `h-${spec.path}`;
  return (
    <section className="child" aria-labelledby={headingId}>
      <h2 id={headingId}>{spec.title}</h2>
      {rows.length === 0 ? (
        <p className="muted">No {spec.title.toLowerCase()} yet.</p>
      ) : (
        <table role="table" className="rows">
          <thead role="rowgroup">
            <tr role="row">
              {spec.cols.map((c) => (
                <th key={c.key} scope="col">
                  {c.label}
                  {c.unit && !['SG', ''].includes(symbolFor(c.unit, prefs)) ? ` (${symbolFor(c.unit, prefs)})` : ''}
                </th>
              ))}
              <th role="columnheader" scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody role="rowgroup">
            {rows.map((r, i) => (
              <tr role="row" key={r.id}>
                {spec.cols.map((c) => (
                  <td role="cell" key={c.key} data-label={c.unit && !['SG', ''].includes(symbolFor(c.unit, prefs)) ? `${c.label} (${symbolFor(c.unit, prefs)})` : c.label}>
                    <AutoField
                      label={cellLabel(c, spec, i)}
                      visibleLabel={false}
                      field={c.key}
                      type={c.type}
                      unit={c.unit}
                      options={c.options}
                      nullable={c.nullable}
                      value={r[c.key] as string | number | null}
                      save={saver(r.id)(c.key)}
                    />
                  </td>
                ))}
                <td role="cell" className="row-actions">
                  <button type="button" className="icon" aria-label={`Move ${spec.singular} ${i + 1} up`} disabled={i === 0 || move.isPending} onClick={() => move.mutate({ i, dir: -1 })}>
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
                  <button type="button" className="icon danger-text" aria-label={`Remove ${spec.singular} ${i + 1}: ${r.name}`} onClick={() => del.mutate(r.id)}>
                    ✕
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {rowError && (
        <p className="form-error" role="alert">
          {rowError}
        </p>
      )}
      <AddForm recipeId={recipeId} spec={spec} onAdded={refresh} />
    </section>
  );
}

/** A cell's accessible name: "Fermentable 1" for the name, "Amount of fermentable 1" for the rest
 * (never the words of the recipe's own fields: Name, Type, Style, Notes). */
function cellLabel(c: Col, spec: ChildSpec, i: number): string {
  const one = `${spec.singular} ${i + 1}`;
  if (c.key === 'name') return one.charAt(0).toUpperCase() + one.slice(1);
  return `${c.aria ?? c.label} of ${one}`;
}

function initial(spec: ChildSpec, prefs: ReturnType<typeof usePrefs>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const c of spec.cols) {
    if (c.add === false) continue;
    out[c.key] = c.type === 'number' ? toInput(typeof c.def === 'number' ? c.def : null, c.unit ?? 'plain', prefs) : c.def == null ? '' : String(c.def);
  }
  return out;
}

function AddForm({ recipeId, spec, onAdded }: { recipeId: string; spec: ChildSpec; onAdded: () => unknown }) {
  const prefs = usePrefs();
  const [values, setValues] = useState(() => initial(spec, prefs));
  const [error, setError] = useState<unknown>(null);
  const cols = spec.cols.filter((c) => c.add !== false);
  const add = useMutation({
    mutationFn: () => {
      const body: Record<string, unknown> = {};
      for (const c of cols) {
        const t = values[c.key] ?? '';
        if (c.type === 'number') {
          const n = fromInput(t, c.unit ?? 'plain', prefs);
          if (n == null) {
            if (!c.nullable) body[c.key] = undefined;
            continue;
          }
          body[c.key] = Number.isNaN(n) ? t : n;
        } else if (t !== '') body[c.key] = t;
      }
      if (!body.name) body.name = `New ${spec.singular}`;
      return request('POST', `/v1/recipes/${recipeId}/${spec.path}`, body);
    },
    onSuccess: async () => {
      setError(null);
      setValues(initial(spec, prefs));
      await onAdded();
    },
    onError: setError,
  });
  const api = error instanceof ApiError ? error : null;
  const addLabel = `Add ${spec.singular}`;
  return (
    <form
      className="add-row"
      aria-label={`Add a ${spec.singular}`}
      onSubmit={(e) => {
        e.preventDefault();
        add.mutate();
      }}
    >
      {cols.map((c) => {
        const sym = c.unit ? symbolFor(c.unit, prefs) : '';
        const label = c.key === 'name' ? `New ${spec.singular}` : `New ${spec.singular} ${(c.aria ?? c.label).toLowerCase()}${sym && sym !== 'SG' ? ` (${sym})` : ''}`;
        const fieldErr = api?.at(c.key);
        const id = `add-${spec.path}-${c.key}`;
        return (
          <div className={`field ${fieldErr ? 'has-error' : ''}`} key={c.key}>
            <label htmlFor={id}>{label}</label>
            {c.type === 'select' ? (
              <select id={id} value={values[c.key]} onChange={(e) => setValues({ ...values, [c.key]: e.target.value })}>
                {c.nullable && <option value="">—</option>}
                {(c.options ?? []).map(([v, l]) => (
                  <option key={v} value={v}>
                    {l}
                  </option>
                ))}
              </select>
            ) : (
              <input
                id={id}
                type="text"
                inputMode={c.type === 'number' ? 'decimal' : undefined}
                value={values[c.key]}
                placeholder={c.key === 'name' ? `New ${spec.singular}` : undefined}
                aria-invalid={fieldErr ? true : undefined}
                aria-describedby={fieldErr ? `${id}-err` : undefined}
                onChange={(e) => setValues({ ...values, [c.key]: e.target.value })}
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
      <button type="submit" disabled={add.isPending}>
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
