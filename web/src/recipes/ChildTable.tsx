import { Fragment, memo, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { errorText, request } from '../api/client';
import { usePrefs } from '../prefs';
import { useUndoableDelete } from '../components/Undo';
import { keys } from '../api/keys';
import { statsQuery } from './queries';
import { CheckText, useRowChecks, withRowIds } from './checks';
import { itemBodyFrom } from '../catalog/fill';
import type { CatalogItem } from '../catalog/types';
import { colSymbol, type ChildSpec, type Col, type DerivedCol, type Row } from './childSpec';
import { Cell } from './ChildCell';
import { AddForm } from './ChildAddForm';
import './ChildTable.css';

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
