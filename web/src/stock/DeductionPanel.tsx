import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, client, unwrap } from '../api/client';
import { keys } from '../api/keys';
import { ErrorBox, Loading } from '../components/States';
import { absoluteTime } from '../time';
import { StockTable } from './StockLines';

/**
 * Taking a brew session's ingredients from the inventory: offered once the session is brewing.
 * The preview, then "Take from inventory" (the API takes every line in one transaction, once per
 * session), and "Put back" to undo.
 */
export function DeductionPanel({ sessionId, status }: { sessionId: string; status: string }) {
  const qc = useQueryClient();
  const offered = status !== 'planned';
  const preview = useQuery({
    queryKey: keys.stock.deduction(sessionId),
    queryFn: () =>
      unwrap(client.POST('/v1/sessions/{id}/inventory-deduction', { params: { path: { id: sessionId } }, body: { preview: true } })),
    enabled: offered,
  });
  const refresh = () => Promise.all([qc.invalidateQueries({ queryKey: keys.stock.all() }), qc.invalidateQueries({ queryKey: keys.inventory.lists() })]);
  const apply = useMutation({
    mutationFn: () => unwrap(client.POST('/v1/sessions/{id}/inventory-deduction', { params: { path: { id: sessionId } }, body: { preview: false } })),
    onSettled: refresh,
  });
  const undo = useMutation({
    mutationFn: () => unwrap(client.DELETE('/v1/sessions/{id}/inventory-deduction', { params: { path: { id: sessionId } } })),
    onSettled: refresh,
  });
  if (!offered) return null;
  const d = preview.data;
  const shortError = apply.error instanceof ApiError && apply.error.status === 422;
  return (
    <section className="panel" aria-labelledby="h-deduction">
      <h2 id="h-deduction">Take from inventory</h2>
      {preview.isPending ? (
        <Loading what="the stock" />
      ) : preview.isError ? (
        <ErrorBox error={preview.error} retry={() => preview.refetch()} />
      ) : d ? (
        <>
          <p className="muted">
            {d.applied
              ? `Taken from the inventory ${d.applied_at ? absoluteTime(d.applied_at) : ''}.`
              : 'What this brew uses, matched to your stock. Nothing is taken until you confirm.'}
          </p>
          <StockTable lines={d.lines} caption="Ingredients of this brew against the stock" />
          {shortError && (
            <p className="form-error" role="alert">
              Not taken: some ingredients are short. Top up the stock or adjust the recipe, then try again.
            </p>
          )}
          {apply.error && !shortError && <ErrorBox error={apply.error} />}
          {undo.error && <ErrorBox error={undo.error} />}
          <div className="actions">
            {d.applied ? (
              <button type="button" onClick={() => undo.mutate()} disabled={undo.isPending}>
                Put back in inventory
              </button>
            ) : (
              <button type="button" className="primary" onClick={() => apply.mutate()} disabled={apply.isPending}>
                Take from inventory
              </button>
            )}
          </div>
        </>
      ) : null}
    </section>
  );
}
