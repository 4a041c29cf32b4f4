import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import type { Schemas } from '../api/client';
import { Empty, ErrorBox, Loading } from '../components/States';
import { pageCount, Pager, usePageParam } from '../components/Pager';
import { SelectField, TextField, words } from '../components/Field';
import { usePrefs } from '../prefs';
import { useImport } from './ImportRecipes';
import { display, srmToRgb } from '../units';
import { useCreateRecipe, useRecipeList } from './api';

const PAGE = 20;
type Sort = Schemas['RecipeSortParam'];
const sorts: [Sort, string][] = [
  ['-updated_at', 'Recently edited'],
  ['name', 'Name A–Z'],
  ['-name', 'Name Z–A'],
  ['-created_at', 'Newest'],
  ['created_at', 'Oldest'],
];

export default function Recipes() {
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const sort = (params.get('sort') as Sort | null) ?? '-updated_at';
  const [page, go] = usePageParam();
  const [search, setSearch] = useState(q);
  const prefs = usePrefs();
  const navigate = useNavigate();
  const imports = useImport();

  const list = useRecipeList({ q, sort, page }, PAGE);
  const create = useCreateRecipe((r) => navigate(`/recipes/${r.id}`));

  const set = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) {
      if (v == null || v === '') next.delete(k);
      else next.set(k, v);
    }
    setParams(next, { replace: true });
  };
  const total = list.data?.total ?? 0;
  const pages = pageCount(total, PAGE);
  const newButton = (
    <button type="button" className="primary" onClick={() => create.mutate()} disabled={create.isPending}>
      New recipe
    </button>
  );

  return (
    <>
      <div className="page-head">
        <h1>Recipes</h1>
        <div className="actions">
          {imports.control}
          {!(list.data && list.data.items.length === 0 && !q) && newButton}
        </div>
      </div>
      {create.error && <ErrorBox error={create.error} />}
      {imports.results}
      <form
        className="toolbar"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          set({ q: search, page: null });
        }}
      >
        <TextField
          label="Search"
          type="search"
          value={search}
          onChange={(e) => {
            setSearch(e.target.value);
            if (e.target.value === '') set({ q: null, page: null });
          }}
          placeholder="Name or style"
        />
        <button type="submit">Search</button>
        <SelectField label="Sort" value={sort} options={sorts} onChange={(e) => set({ sort: e.target.value, page: null })} />
      </form>
      {list.isPending ? (
        <Loading what="recipes" />
      ) : list.isError ? (
        <ErrorBox error={list.error} retry={() => list.refetch()} />
      ) : list.data.items.length === 0 ? (
        q ? (
          <Empty>
            <p>No recipes match “{q}”.</p>
          </Empty>
        ) : (
          <Empty>
            <p>No recipes yet</p>
            {newButton}
            <p className="muted">or bring them from another program with “Import” (BeerXML or BeerJSON).</p>
          </Empty>
        )
      ) : (
        <>
          <ul className="cards" aria-label="Recipes">
            {list.data.items.map((r) => (
              <li key={r.id} className="card recipe-card">
                <span className="swatch small" aria-hidden="true" style={{ backgroundColor: srmToRgb(r.est_color_srm) }} />
                <div>
                  <h2>
                    <Link to={`/recipes/${r.id}`}>{r.name}</Link>
                  </h2>
                  <p className="muted">
                    {[r.style || 'No style', words(r.type), display(r.batch_size_liters, 'volume', prefs), display(r.est_color_srm, 'color', prefs)].join(
                      ' · ',
                    )}
                  </p>
                </div>
              </li>
            ))}
          </ul>
          <Pager label="Pages" page={page} pages={pages} summary={`${total} ${total === 1 ? 'recipe' : 'recipes'}`} go={go} />
        </>
      )}
    </>
  );
}
