import { Link } from 'react-router-dom';
import { ApiError } from '../api/client';
import { ErrorBox, Loading } from '../components/States';
import { absoluteTime } from '../time';
import { StockTable } from './StockLines';
import { useDeduction } from './api';

/**
 * Taking a brew session's ingredients from the inventory: offered once the session is brewing.
 * The preview, then "Take from inventory" (the API takes every line in one transaction, once per
 * session). When lines are short, "Take what is on hand" (the API's partial deduction: a short
 * line takes what is there and its shortfall goes on the shopping list). "Put back" undoes
 * either, putting back exactly what was taken.
 */
export function DeductionPanel({ sessionId, status }: { sessionId: string; status: string }) {
  const offered = status !== 'planned';
  const { preview, apply, undo } = useDeduction(sessionId, offered);
  if (!offered) return null;
  const d = preview.data;
  const shortError = apply.error instanceof ApiError && apply.error.status === 422;
  const short = d ? d.lines.filter((l) => l.status === 'short').length : 0;
  const busy = apply.isPending || undo.isPending;
  // Nothing of this brew is in the inventory (a new account, or a brewer who keeps no stock
  // here): one line instead of a card per ingredient, so the checklist stays near the top.
  const noneInStock = d != null && !d.applied && d.lines.length > 0 && d.lines.every((l) => l.status === 'unmatched');
  return (
    <section className="panel" aria-labelledby="h-deduction">
      <h2 id="h-deduction">Take from inventory</h2>
      {preview.isPending ? (
        <Loading what="the stock" />
      ) : preview.isError ? (
        <ErrorBox error={preview.error} retry={() => preview.refetch()} />
      ) : d && noneInStock ? (
        <>
          <p className="muted">
            None of this brew’s {d.lines.length} ingredients is in your <Link to="/inventory">inventory</Link>, so there is nothing to take.
          </p>
          <details>
            <summary>What this brew uses</summary>
            <StockTable lines={d.lines} applied={false} caption="Ingredients of this brew against the stock" />
          </details>
        </>
      ) : d ? (
        <>
          <p className="muted">
            {d.applied
              ? `Taken from the inventory ${d.applied_at ? absoluteTime(d.applied_at) : ''}.`
              : 'What this brew uses, matched to your stock. Nothing is taken until you confirm.'}
          </p>
          {d.applied && d.partial && (
            <p role="status">
              Some ingredients were short: what was on hand was taken, and what is still missing is on the{' '}
              <Link to={`/shopping-list?session_id=${sessionId}`}>shopping list</Link>.
            </p>
          )}
          <StockTable
            lines={d.lines}
            applied={d.applied}
            caption={d.applied ? 'Ingredients of this brew as taken from the stock' : 'Ingredients of this brew against the stock'}
          />
          {!d.applied && short > 0 && (
            <p>
              {short === 1 ? 'One ingredient is short.' : `${short} ingredients are short.`} Take what is on hand (the rest goes on the shopping list), or top
              up the stock first.
            </p>
          )}
          {shortError && (
            <p className="form-error" role="alert">
              Not taken: some ingredients are short. Take what is on hand, or top up the stock and try again.
            </p>
          )}
          {apply.error && !shortError && <ErrorBox error={apply.error} />}
          {undo.error && <ErrorBox error={undo.error} />}
          <div className="actions">
            {d.applied ? (
              <button type="button" onClick={() => undo.mutate()} disabled={busy}>
                Put back in inventory
              </button>
            ) : (
              <>
                {(short > 0 || shortError) && (
                  <button type="button" className="primary" onClick={() => apply.mutate(true)} disabled={busy}>
                    Take what is on hand
                  </button>
                )}
                <button type="button" className={short > 0 ? undefined : 'primary'} onClick={() => apply.mutate(false)} disabled={busy}>
                  Take from inventory
                </button>
              </>
            )}
          </div>
        </>
      ) : null}
    </section>
  );
}
