import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { errorText, type Schemas } from '../api/client';
import { allOf } from '../api/enums';
import { AutoField } from '../components/AutoField';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { Empty, ErrorBox, Loading } from '../components/States';
import { pageCount, Pager } from '../components/Pager';
import { enumOptions } from '../components/Field';
import { usePrefs } from '../prefs';
import type { Kind } from '../units';
import { fermentableTypes, miscTypes, miscUses, yeastForms, yeastTypes } from '../recipes/recipeSpecs';
import { hintFor } from './fill';
import { useIngredientWrites, useMyIngredients } from './api';
import { catalogKinds, type CatalogItem, type CatalogKind } from './types';
import './Ingredients.css';

/** Own items a page. */
const PAGE = 20;

const titles: Record<CatalogKind, [plural: string, singular: string]> = {
  fermentables: ['Fermentables', 'fermentable'],
  hops: ['Hops', 'hop'],
  yeasts: ['Yeasts', 'yeast'],
  miscs: ['Other ingredients', 'other ingredient'],
};

interface FieldSpec {
  key: string;
  label: string;
  type: 'text' | 'number' | 'select';
  unit?: Kind;
  options?: readonly (readonly [string, string])[];
}

/** The descriptive fields of an own item, as they are edited here (API units, shown in the person's). */
const fields: Record<CatalogKind, FieldSpec[]> = {
  fermentables: [
    { key: 'type', label: 'Kind', type: 'select', options: enumOptions(fermentableTypes) },
    { key: 'color_srm', label: 'Colour', type: 'number', unit: 'color' },
    { key: 'yield_percent', label: 'Yield', type: 'number', unit: 'percent' },
    { key: 'origin', label: 'Origin', type: 'text' },
    { key: 'supplier', label: 'Supplier', type: 'text' },
  ],
  hops: [
    { key: 'alpha_acid', label: 'Alpha acid', type: 'number', unit: 'percent' },
    { key: 'beta_acid', label: 'Beta acid', type: 'number', unit: 'percent' },
    { key: 'origin', label: 'Origin', type: 'text' },
    { key: 'purpose', label: 'Purpose', type: 'select', options: enumOptions(allOf<Schemas['HopPurpose']>()(['bittering', 'aroma', 'dual'])) },
  ],
  yeasts: [
    { key: 'lab', label: 'Lab', type: 'text' },
    { key: 'product_id', label: 'Product', type: 'text' },
    { key: 'type', label: 'Kind', type: 'select', options: enumOptions(yeastTypes) },
    { key: 'form', label: 'Form', type: 'select', options: enumOptions(yeastForms) },
    { key: 'attenuation', label: 'Attenuation', type: 'number', unit: 'percent' },
    { key: 'min_temp_c', label: 'Lowest temperature', type: 'number', unit: 'temperature' },
    { key: 'max_temp_c', label: 'Highest temperature', type: 'number', unit: 'temperature' },
  ],
  miscs: [
    { key: 'type', label: 'Kind', type: 'select', options: enumOptions(miscTypes) },
    { key: 'use', label: 'Use', type: 'select', options: enumOptions(miscUses) },
    { key: 'amount_unit', label: 'Unit', type: 'text' },
  ],
};

function isKind(k: string | null): k is CatalogKind {
  return !!k && (catalogKinds as readonly string[]).includes(k);
}

/** `/ingredients`: my own ingredients by kind, with search, paging, edit and delete. */
export default function Ingredients() {
  const [params, setParams] = useSearchParams();
  const kind: CatalogKind = isKind(params.get('kind')) ? (params.get('kind') as CatalogKind) : 'fermentables';
  const q = params.get('q') ?? '';
  const page = Math.max(0, Number(params.get('page') ?? '0') || 0);
  const [text, setText] = useState(q);
  useEffect(() => setText(q), [q]);

  const go = (next: { kind?: CatalogKind; q?: string; page?: number }) => {
    const p = new URLSearchParams();
    const k = next.kind ?? kind;
    if (k !== 'fermentables') p.set('kind', k);
    const query = next.q ?? (next.kind ? '' : q);
    if (query) p.set('q', query);
    const pg = next.page ?? 0;
    if (pg > 0) p.set('page', String(pg));
    setParams(p, { replace: next.page !== undefined });
  };

  const list = useMyIngredients(kind, q, page, PAGE);
  const total = list.data?.total ?? 0;
  const pages = pageCount(total, PAGE);
  const pastEnd = !list.isPlaceholderData && page > 0 && list.data?.items.length === 0;
  useEffect(() => {
    if (pastEnd) go({ page: pages - 1 });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pastEnd, pages]);

  const [plural, singular] = titles[kind];
  return (
    <>
      <div className="page-head">
        <h1>Ingredients</h1>
      </div>
      <p className="muted">
        Your own ingredients, offered first in a recipe’s name fields. Save one from a recipe with its ☆ button; the built-in catalogue is there too and cannot
        be changed.
      </p>
      <nav className="kind-tabs" aria-label="Ingredient kinds">
        {catalogKinds.map((k) => (
          <button key={k} type="button" aria-pressed={k === kind} className={k === kind ? 'primary' : undefined} onClick={() => go({ kind: k })}>
            {titles[k][0]}
          </button>
        ))}
      </nav>
      <form
        className="ingredient-search"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          go({ q: text.trim() });
        }}
      >
        <div className="field">
          <label htmlFor="ingredient-search">Search</label>
          <input id="ingredient-search" type="search" value={text} onChange={(e) => setText(e.target.value)} />
        </div>
        <button type="submit">Search</button>
      </form>
      <section className="panel" aria-labelledby="h-mine">
        <h2 id="h-mine">{plural}</h2>
        {list.isPending ? (
          <Loading what={`your ${plural.toLowerCase()}`} />
        ) : list.isError ? (
          <ErrorBox error={list.error} retry={() => list.refetch()} />
        ) : total === 0 ? (
          <Empty>
            <p>{q ? `None of your ${plural.toLowerCase()} match “${q}”.` : `No own ${plural.toLowerCase()} yet.`}</p>
            {!q && <p className="muted">In a recipe, the ☆ beside an ingredient saves it here.</p>}
          </Empty>
        ) : (
          <>
            <ul className="inv-list" aria-label={plural}>
              {list.data.items.map((item) => (
                <IngredientRow key={item.id} kind={kind} singular={singular} item={item} />
              ))}
            </ul>
            <Pager
              label={`${plural} pages`}
              page={page}
              pages={pages}
              summary={`${total} ${total === 1 ? singular : plural.toLowerCase()}`}
              go={(p) => go({ page: p })}
            />
          </>
        )}
      </section>
    </>
  );
}

function IngredientRow({ kind, singular, item }: { kind: CatalogKind; singular: string; item: CatalogItem }) {
  const prefs = usePrefs();
  const [editing, setEditing] = useState(false);
  const [confirm, setConfirm] = useState(false);
  const own = item.source === 'mine';
  const { save, del } = useIngredientWrites(kind, item.id, () => setConfirm(false));
  const values = item as unknown as Record<string, string | number | null | undefined>;
  return (
    <li className="inv-item">
      <div className="inv-head">
        <h3>
          {item.name}
          {!own && <span className="badge">built-in</span>}
        </h3>
        <span className="muted small">{hintFor(kind, item, prefs)}</span>
      </div>
      {own && (
        <div className="actions">
          <button type="button" aria-expanded={editing} onClick={() => setEditing(!editing)}>
            {editing ? 'Done' : 'Edit'}
            <span className="sr-only"> {item.name}</span>
          </button>
          <button type="button" className="danger-text" onClick={() => setConfirm(true)}>
            Delete<span className="sr-only"> {item.name}</span>
          </button>
        </div>
      )}
      {editing && (
        <div className="form-grid ingredient-fields">
          <AutoField label="Name" field="name" value={item.name} save={save('name')} />
          {fields[kind].map((f) => (
            <AutoField
              key={f.key}
              label={f.label}
              field={f.key}
              type={f.type}
              unit={f.unit}
              options={f.options}
              nullable={f.key !== 'type' && f.key !== 'use'}
              value={values[f.key] ?? null}
              save={save(f.key)}
            />
          ))}
          <AutoField label="Notes" field="notes" type="textarea" nullable value={item.notes ?? null} save={save('notes')} className="span-all" />
        </div>
      )}
      {del.error ? <p className="form-error" role="alert">{`Not deleted: ${errorText(del.error)}`}</p> : null}
      <ConfirmDialog
        open={confirm}
        title={`Delete “${item.name}”?`}
        confirmLabel={`Delete ${singular}`}
        danger
        busy={del.isPending}
        onCancel={() => setConfirm(false)}
        onConfirm={() => del.mutate()}
      >
        <p>Recipes and inventory items made from it keep their numbers; they just lose the link.</p>
      </ConfirmDialog>
    </li>
  );
}
