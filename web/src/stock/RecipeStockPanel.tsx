import { Link } from 'react-router-dom';
import { ErrorBox, Loading } from '../components/States';
import { usePrefs } from '../prefs';
import { formatMoney } from '../money';
import { L_PER_GAL } from '../units';
import { StockTable } from './StockLines';
import { useRecipeCost } from './api';

/** A recipe's cost (from the prices of the stock it matches) and whether the stock covers each ingredient. */
export function RecipeStockPanel({ id }: { id: string }) {
  const p = usePrefs();
  const cost = useRecipeCost(id);
  // The answer carries the account's currency (null: plain numbers).
  const money = (v: number) => formatMoney(v, cost.data?.currency);
  return (
    <section className="panel" aria-labelledby="h-stock">
      <h2 id="h-stock">Stock and cost</h2>
      {cost.isPending ? (
        <Loading what="the stock" />
      ) : cost.isError ? (
        <ErrorBox error={cost.error} retry={() => cost.refetch()} />
      ) : (
        <>
          {/* With no price at all a total of 0.00 would be a figure nobody can use: say what gives one. */}
          {cost.data.lines.some((l) => l.cost != null) ? (
            <>
              <p>
                Batch cost <strong>{money(cost.data.total)}</strong>
                {' · '}
                {p.amounts === 'us' ? `${money(cost.data.per_liter * L_PER_GAL)} per gallon` : `${money(cost.data.per_liter)} per litre`}
              </p>
              {cost.data.unpriced.length > 0 && <p className="muted small">Without a price: {cost.data.unpriced.join(', ')}.</p>}
            </>
          ) : (
            <p className="muted">No batch cost yet: none of these ingredients has a price. Give your inventory items a price and the cost appears here.</p>
          )}
          <StockTable
            lines={cost.data.lines}
            caption="Ingredients against the stock, with their cost"
            extra={(i) => {
              const c = cost.data.lines[i]?.cost;
              return c == null ? '—' : money(c);
            }}
          />
          <p>
            <Link to={`/shopping-list?recipe_id=${id}`}>Shopping list for this recipe</Link>
          </p>
        </>
      )}
    </section>
  );
}
