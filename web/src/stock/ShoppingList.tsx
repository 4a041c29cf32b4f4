import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useShoppingList, useShoppingRecipes, useShoppingSessions } from './api';
import { Empty, ErrorBox, Loading } from '../components/States';
import { usePrefs } from '../prefs';
import { amountIn } from './amounts';

const kindTitle = { fermentable: 'Fermentables', hop: 'Hops', yeast: 'Yeasts', misc: 'Other ingredients' } as const;

/** What chosen recipes and planned brew sessions need beyond the stock; copy as text to paste. */
export default function ShoppingList() {
  const p = usePrefs();
  const [params, setParams] = useSearchParams();
  const recipeIds = params.getAll('recipe_id');
  const sessionIds = params.getAll('session_id');
  const [copied, setCopied] = useState('');
  // Every recipe and planned session, page by page (never cut at one page).
  const recipes = useShoppingRecipes();
  const sessions = useShoppingSessions();
  const list = useShoppingList(recipeIds, sessionIds);
  const toggle = (key: 'recipe_id' | 'session_id', id: string, on: boolean) => {
    const next = new URLSearchParams(params);
    const ids = next.getAll(key).filter((x) => x !== id);
    next.delete(key);
    for (const x of on ? [...ids, id] : ids) next.append(key, x);
    setParams(next, { replace: true });
  };
  const copy = async () => {
    const search = new URLSearchParams();
    for (const id of recipeIds) search.append('recipe_id', id);
    for (const id of sessionIds) search.append('session_id', id);
    try {
      const res = await fetch(`/v1/shopping-list?${search.toString()}`, { headers: { Accept: 'text/plain' }, credentials: 'same-origin' });
      const text = await res.text();
      await navigator.clipboard.writeText(text);
      setCopied('Copied the list as text.');
    } catch {
      setCopied('Could not copy: select the list and copy it by hand.');
    }
  };
  return (
    <>
      <div className="page-head">
        <h1>Shopping list</h1>
      </div>
      <div className="inventory-grid">
        <div>
          <section className="panel" aria-labelledby="h-to-buy">
            <h2 id="h-to-buy">To buy</h2>
            {recipeIds.length + sessionIds.length === 0 ? (
              <Empty>
                <p>Choose what you plan to brew</p>
                <p className="muted">The list shows what those brews need beyond your stock.</p>
              </Empty>
            ) : list.isPending ? (
              <Loading what="the shopping list" />
            ) : list.isError ? (
              <ErrorBox error={list.error} retry={() => list.refetch()} />
            ) : list.data.length === 0 ? (
              <p>Nothing to buy: your stock covers it all.</p>
            ) : (
              <>
                {(Object.keys(kindTitle) as (keyof typeof kindTitle)[]).map((kind) => {
                  const lines = list.data.filter((l) => l.kind === kind);
                  if (!lines.length) return null;
                  return (
                    <div key={kind}>
                      <h3>{kindTitle[kind]}</h3>
                      <ul className="shopping">
                        {lines.map((l) => (
                          <li key={`${l.name}-${l.unit}`}>
                            <strong>{l.name}</strong>: {amountIn(l.to_buy, l.unit, p)}
                            <span className="muted small">
                              {' '}
                              (need {amountIn(l.needed, l.unit, p)}, have {amountIn(l.on_hand, l.unit, p)})
                            </span>
                          </li>
                        ))}
                      </ul>
                    </div>
                  );
                })}
                <div className="actions">
                  <button type="button" onClick={() => void copy()}>
                    Copy as text
                  </button>
                </div>
                <p role="status" className="muted small">
                  {copied}
                </p>
              </>
            )}
          </section>
        </div>
        <section className="panel" aria-labelledby="h-brews">
          <h2 id="h-brews">Brews</h2>
          <fieldset className="checks">
            <legend>Recipes</legend>
            {recipes.isPending ? <Loading what="recipes" /> : recipes.isError ? <ErrorBox error={recipes.error} /> : null}
            {recipes.data?.map((r) => (
              <label key={r.id} className="check">
                <input type="checkbox" checked={recipeIds.includes(r.id)} onChange={(e) => toggle('recipe_id', r.id, e.target.checked)} />
                {r.name}
              </label>
            ))}
          </fieldset>
          <fieldset className="checks">
            <legend>Planned and brewing sessions</legend>
            {sessions.isPending ? <Loading what="sessions" /> : sessions.isError ? <ErrorBox error={sessions.error} /> : null}
            {sessions.data?.length === 0 && <p className="muted small">No planned or brewing sessions.</p>}
            {sessions.data?.map((s) => (
              <label key={s.id} className="check">
                <input type="checkbox" checked={sessionIds.includes(s.id)} onChange={(e) => toggle('session_id', s.id, e.target.checked)} />
                {s.name} ({s.brew_date})
              </label>
            ))}
          </fieldset>
        </section>
      </div>
    </>
  );
}
