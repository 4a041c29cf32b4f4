import type { Schemas } from '../api/client';
import { usePrefs } from '../prefs';
import { amountIn } from './amounts';

type Line = Schemas['StockLine'];

const statusText: Record<Line['status'], string> = {
  enough: 'In stock',
  short: 'Short',
  unmatched: 'Not in stock',
  not_convertible: 'Unit differs',
};

/**
 * A recipe's ingredients against the stock: need, on hand, short (the API matched and converted).
 * `applied`: the lines of a deduction as taken: what each took and what its item holds now.
 */
export function StockTable({
  lines,
  caption,
  extra,
  applied = false,
}: {
  lines: Line[];
  caption: string;
  extra?: (i: number) => React.ReactNode;
  applied?: boolean;
}) {
  const p = usePrefs();
  const amount = (v: number | null | undefined, unit: string | null | undefined) => (v == null || unit == null ? '—' : amountIn(v, unit, p));
  return (
    // Focusable, so a keyboard can scroll it when a narrow screen cuts the table.
    <div className="table-scroll" role="region" aria-label={caption} tabIndex={0}>
      <table role="table" className="rows stock-lines">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Ingredient</th>
            <th scope="col">Needed</th>
            {applied && <th scope="col">Taken</th>}
            <th scope="col">{applied ? 'On hand now' : 'On hand'}</th>
            <th scope="col">Stock</th>
            {extra && <th scope="col">Cost</th>}
          </tr>
        </thead>
        <tbody>
          {lines.map((l, i) => (
            <tr key={`${l.kind}-${l.ingredient_id ?? i}-${i}`} className={`stock-${l.status}`}>
              <th scope="row">{l.name}</th>
              <td data-label="Needed">{l.needed == null ? amountIn(l.recipe_amount, l.recipe_unit, p) : amount(l.needed, l.unit)}</td>
              {applied && <td data-label="Taken">{amount(l.taken ?? (l.status === 'enough' ? l.needed : null), l.unit)}</td>}
              {/* A deduction taken before `left` existed shows what was on hand then. */}
              <td data-label={applied ? 'On hand now' : 'On hand'}>{amount(applied ? (l.left ?? l.on_hand) : l.on_hand, l.unit)}</td>
              <td data-label="Stock">
                {/* One grid cell beside the label when the table is shown as cards. */}
                <span>
                  <span className={`badge stock-${l.status}`}>{statusText[l.status]}</span>
                  {l.status === 'short' && (
                    <span className="muted small">
                      {' '}
                      {amount(l.short, l.unit)} {applied ? 'still missing' : 'missing'}
                    </span>
                  )}
                </span>
              </td>
              {extra && <td data-label="Cost">{extra(i)}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
