import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { client, unwrap } from '../api/client';
import { keys } from '../api/keys';
import { ErrorBox, Loading } from '../components/States';
import { usePrefs } from '../prefs';
import { formatMoney } from '../money';
import { L_PER_GAL } from '../units';
import { StockTable } from './StockLines';

/** A recipe's cost (from the prices of the stock it matches) and whether the stock covers each ingredient. */
export function RecipeStockPanel({ id }: { id: string }) {
  const p = usePrefs();
  const cost = useQuery({
    queryKey: keys.stock.cost(id),
    queryFn: () => unwrap(client.GET('/v1/recipes/{id}/cost', { params: { path: { id } } })),
  });
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
          <p>
            Batch cost <strong>{money(cost.data.total)}</strong>
            {' · '}
            {p.amounts === 'us' ? `${money(cost.data.per_liter * L_PER_GAL)} per gallon` : `${money(cost.data.per_liter)} per litre`}
          </p>
          {cost.data.unpriced.length > 0 && <p className="muted small">Without a price: {cost.data.unpriced.join(', ')}.</p>}
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
