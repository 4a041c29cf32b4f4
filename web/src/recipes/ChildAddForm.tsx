// The add form under a recipe's child table: defaults in the person's units, catalogue choices.
import { useEffect, useRef, useState } from 'react';
import { ApiError, errorText } from '../api/client';
import { usePrefs } from '../prefs';
import { fromInput, roundDefault, toInput } from '../units';
import { CatalogName } from '../catalog/CatalogName';
import { fillFrom } from '../catalog/fill';
import type { CatalogItem } from '../catalog/types';
import { useAddChild } from './api';
import { colSymbol, MINUTES_PER_DAY, unitOf, type ChildSpec, type Col, type Prefs, type Row } from './childSpec';

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

export function AddForm({ recipeId, spec, onAdded }: { recipeId: string; spec: ChildSpec; onAdded: (row: Row) => unknown }) {
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
  const body = () => {
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
    return body;
  };
  const add = useAddChild(recipeId, spec.path, {
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
        add.mutate(body());
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
