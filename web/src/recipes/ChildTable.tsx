import { Fragment, memo, useState } from 'react';
import { errorText } from '../api/client';
import { usePrefs } from '../prefs';
import { useUndoableDelete } from '../components/Undo';
import { useChildRows, useRecipeStats } from './api';
import { CheckText, useRowChecks, withRowIds } from './checks';
import { useSaveToCatalog } from '../catalog/api';
import { colSymbol, type ChildSpec, type Col, type DerivedCol, type Row } from './childSpec';
import { Cell } from './ChildCell';
import { AddForm } from './ChildAddForm';
import './ChildTable.css';

/** One kind of a recipe's children: inline edit, delete, reorder (sort_order), and an add form.
 * Memoised: a change to one kind's rows re-renders that table only (the others keep their arrays). */
export const ChildTable = memo(function ChildTable({ recipeId, spec, rows: apiRows }: { recipeId: string; spec: ChildSpec; rows: Row[] }) {
  const prefs = usePrefs();
  const [rowError, setRowError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const listKey = spec.path.replace('-', '_');
  const { saver, del, move, added } = useChildRows(recipeId, spec.path, (e) => setRowError(errorText(e)));
  // ✕ hides the row at once; the DELETE waits a few seconds for Undo.
  const removal = useUndoableDelete((id) => del.mutate(id));
  const visible = removal.hidden.size ? apiRows.filter((r) => !removal.hidden.has(r.id)) : apiRows;
  const rows = spec.order ? spec.order(visible) : visible;
  const kind = spec.catalog;
  const keep = useSaveToCatalog(kind, {
    onSuccess: (item) => {
      setRowError(null);
      setSaved(`Saved “${item.name}” to my ingredients.`);
    },
    onError: (e) => {
      setSaved(null);
      setRowError(`Not saved to my ingredients: ${errorText(e)}`);
    },
  });

  const headingId = `h-${spec.path}`;
  const columns: (Col | DerivedCol)[] = [];
  // Whether a column means something on a row (`only`), judged among the rows in the API's order.
  const applies = (c: Col | DerivedCol, r: Row) => !c.only || c.only(r, visible);
  for (const c of spec.cols) {
    // A column that applies to none of the rows (no hop stand among the hops) is left out.
    if (rows.some((r) => applies(c, r))) columns.push(c);
    for (const d of spec.derived ?? []) if (d.after === c.key && rows.some((r) => applies(d, r))) columns.push(d);
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
                        isDerived(c) && !applies(c, r) ? (
                          <td role="cell" key={c.key} data-label={c.label} className="not-applicable">
                            <span aria-hidden="true">—</span>
                          </td>
                        ) : isDerived(c) ? (
                          <td role="cell" key={c.key} data-label={c.label} className={c.wrap ? 'derived wrap' : 'derived'}>
                            {c.stats ? <StatsValue recipeId={recipeId} col={c} row={r} rows={rows} /> : c.value(r, { rows, stats: undefined, prefs })}
                          </td>
                        ) : (
                          <Cell
                            key={c.key}
                            recipeId={recipeId}
                            c={c}
                            spec={spec}
                            row={r}
                            i={i}
                            save={saver(r.id)(c.key)}
                            label={header(c)}
                            applies={applies(c, r)}
                          />
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
                              onClick={() => move.mutate({ rows, i, dir: -1 })}
                            >
                              ↑
                            </button>
                            <button
                              type="button"
                              className="icon"
                              aria-label={`Move ${spec.singular} ${i + 1} down`}
                              disabled={i === rows.length - 1 || move.isPending}
                              onClick={() => move.mutate({ rows, i, dir: 1 })}
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
      <AddForm recipeId={recipeId} spec={spec} onAdded={added} />
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
  const stats = useRecipeStats(recipeId);
  const prefs = usePrefs();
  return <>{col.value(row, { rows, stats: stats.data, prefs })}</>;
}
