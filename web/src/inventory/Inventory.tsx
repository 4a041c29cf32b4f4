import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { ApiError, errorText, type Schemas } from '../api/client';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { SelectField, TextField } from '../components/Field';
import { Empty, ErrorBox, Loading } from '../components/States';
import { pageCount, Pager, usePageParam } from '../components/Pager';
import { formatNumber, parseNumber } from '../units';
import { useAddItem, useInventoryPage, useItemWrites } from './api';
import { allOf } from '../api/enums';
import { usePrefs } from '../prefs';
import { entryUnit, itemAmount } from '../stock/amounts';
import { formatMoney } from '../money';

type Item = Schemas['InventoryItem'];
type Category = Schemas['InventoryCategory'];
const categories: readonly (readonly [Category, string])[] = allOf<Category>()([
  ['fermentable', 'Fermentables'],
  ['hop', 'Hops'],
  ['yeast', 'Yeasts'],
  ['misc', 'Other ingredients'],
]);
const categoryOptions = categories.map(([v, l]) => [v, l.replace(/s$/, '').replace('Other ingredient', 'Other ingredient')] as const);
/** The unit a new item proposes, by category, in the person's units. */
const defaultUnits: Record<'metric' | 'us', Record<Category, string>> = {
  metric: { fermentable: 'kg', hop: 'g', yeast: 'pkg', misc: 'g' },
  us: { fermentable: 'lb', hop: 'oz', yeast: 'pkg', misc: 'oz' },
};
/** Items a page (the API's default page). The API sorts by category, then name, so a page keeps the groups in order. */
const PAGE = 50;

export default function Inventory() {
  const [page, go] = usePageParam();
  const list = useInventoryPage(page, PAGE);
  const total = list.data?.total ?? 0;
  const pages = pageCount(total, PAGE);
  // A page past the end (its last item deleted, or an old link): the last page there is.
  const pastEnd = !list.isPlaceholderData && page > 0 && list.data?.items.length === 0;
  useEffect(() => {
    if (pastEnd) go(pages - 1);
  }, [pastEnd, pages, go]);
  return (
    <>
      <div className="page-head">
        <h1>Inventory</h1>
        <Link className="button" to="/shopping-list">
          Shopping list
        </Link>
      </div>
      <div className="inventory-grid">
        <div>
          {list.isPending ? (
            <Loading what="the inventory" />
          ) : list.isError ? (
            <ErrorBox error={list.error} retry={() => list.refetch()} />
          ) : total === 0 ? (
            <Empty>
              <p>Nothing in stock yet</p>
              <p className="muted">Add what you have on the shelf with the form.</p>
            </Empty>
          ) : (
            <>
              {categories.map(([cat, title]) => {
                const items = list.data.items.filter((i) => i.category === cat);
                if (!items.length) return null;
                return (
                  <section className="panel" key={cat} aria-labelledby={`h-inv-${cat}`}>
                    <h2 id={`h-inv-${cat}`}>{title}</h2>
                    <ul className="inv-list">
                      {items.map((i) => (
                        <InventoryRow key={i.id} item={i} />
                      ))}
                    </ul>
                  </section>
                );
              })}
              {pages > 1 && <Pager label="Inventory pages" page={page} pages={pages} summary={`${total} items`} go={go} />}
            </>
          )}
        </div>
        <AddItem />
      </div>
    </>
  );
}

type Values = { category: Category; name: string; amount: string; amount_unit: string; notes: string; price_per_unit: string; best_before: string };

function ItemFields({ values, set, error, prefix }: { values: Values; set: (v: Partial<Values>) => void; error: ApiError | null; prefix: string }) {
  const defaultUnit = defaultUnits[usePrefs().amounts];
  return (
    <>
      <SelectField
        label={`${prefix}Category`}
        value={values.category}
        options={categoryOptions}
        error={error?.at('category')}
        onChange={(e) => {
          const c = e.target.value as Category;
          set({ category: c, amount_unit: values.amount_unit === defaultUnit[values.category] ? defaultUnit[c] : values.amount_unit });
        }}
      />
      <TextField label={`${prefix}Name`} value={values.name} error={error?.at('name')} onChange={(e) => set({ name: e.target.value })} />
      <div className="two">
        <TextField
          label={`${prefix}Amount`}
          inputMode="decimal"
          value={values.amount}
          error={error?.at('amount')}
          onChange={(e) => set({ amount: e.target.value })}
        />
        <TextField label={`${prefix}Unit`} value={values.amount_unit} error={error?.at('amount_unit')} onChange={(e) => set({ amount_unit: e.target.value })} />
      </div>
      <div className="two">
        <TextField
          label={`${prefix}Price per unit`}
          inputMode="decimal"
          value={values.price_per_unit}
          error={error?.at('price_per_unit')}
          onChange={(e) => set({ price_per_unit: e.target.value })}
        />
        <TextField
          label={`${prefix}Best before`}
          type="date"
          value={values.best_before}
          error={error?.at('best_before')}
          onChange={(e) => set({ best_before: e.target.value })}
        />
      </div>
      <TextField label={`${prefix}Notes`} value={values.notes} error={error?.at('notes')} onChange={(e) => set({ notes: e.target.value })} />
    </>
  );
}

function bodyOf(v: Values) {
  const n = parseNumber(v.amount);
  const price = parseNumber(v.price_per_unit);
  return {
    category: v.category,
    name: v.name,
    amount: n == null ? 0 : Number.isNaN(n) ? (v.amount as unknown as number) : n,
    amount_unit: v.amount_unit,
    notes: v.notes === '' ? null : v.notes,
    price_per_unit: price == null ? null : Number.isNaN(price) ? (v.price_per_unit as unknown as number) : price,
    best_before: v.best_before === '' ? null : v.best_before,
  };
}

function AddItem() {
  const prefs = usePrefs();
  const defaultUnit = defaultUnits[prefs.amounts];
  const empty = {
    category: 'fermentable' as Category,
    name: '',
    amount: '',
    amount_unit: defaultUnit.fermentable,
    notes: '',
    price_per_unit: '',
    best_before: '',
  };
  const [values, setValues] = useState(empty);
  // The units may arrive after the form: an untouched unit follows them.
  useEffect(() => {
    setValues((v) => (Object.values(defaultUnits).some((d) => d[v.category] === v.amount_unit) ? { ...v, amount_unit: defaultUnit[v.category] } : v));
  }, [defaultUnit]);
  const add = useAddItem(() => setValues({ ...empty, category: values.category, amount_unit: defaultUnit[values.category] }));
  const api = add.error instanceof ApiError ? add.error : null;
  return (
    <section className="panel add-item" aria-labelledby="h-add-item">
      <h2 id="h-add-item">Add to stock</h2>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          add.mutate(bodyOf(values));
        }}
      >
        <ItemFields values={values} set={(v) => setValues({ ...values, ...v })} error={api} prefix="" />
        {add.error && !(api && ['category', 'name', 'amount', 'amount_unit', 'notes', 'price_per_unit', 'best_before'].some((k) => api.at(k))) && (
          <ErrorBox error={add.error} />
        )}
        <button type="submit" className="primary" disabled={add.isPending}>
          Add item
        </button>
      </form>
    </section>
  );
}

function InventoryRow({ item }: { item: Item }) {
  const prefs = usePrefs();
  const [delta, setDelta] = useState('');
  const entry = entryUnit(item, prefs);
  const [editing, setEditing] = useState(false);
  const [confirm, setConfirm] = useState(false);
  const [values, setValues] = useState({
    category: item.category,
    name: item.name,
    amount: formatNumber(item.amount, 3),
    amount_unit: item.amount_unit,
    notes: item.notes ?? '',
    price_per_unit: item.price_per_unit == null ? '' : formatNumber(item.price_per_unit, 4),
    best_before: item.best_before ?? '',
  });
  const amount = (sign: 1 | -1) => {
    const n = parseNumber(delta);
    if (n == null || Number.isNaN(n)) throw new ApiError(0, 'Enter an amount first');
    // Typed in the shown unit; the API adjusts in the item's own.
    return sign * n * entry.perShown;
  };
  const { adjust, save, del } = useItemWrites(item.id, amount, {
    onAdjusted: () => setDelta(''),
    onSaved: () => setEditing(false),
    onDeleted: () => setConfirm(false),
  });
  const adjErr = adjust.error instanceof ApiError ? adjust.error : null;
  const adjustMessage = adjErr
    ? adjErr.at('amount')
      ? `Not changed: the stock of ${item.name} cannot go below zero (${adjErr.at('amount')})`
      : `Not changed: ${errorText(adjErr)}`
    : null;
  const deltaId = `delta-${item.id}`;
  const shown = itemAmount(item, prefs);
  return (
    <li className="inv-item">
      <div className="inv-head">
        <div>
          <h3>{item.name}</h3>
          {item.notes && <p className="muted small">{item.notes}</p>}
        </div>
        <p className="inv-amount" aria-label={`${item.name}: ${shown} in stock`}>
          {shown}
          {item.best_before && <span className="muted small"> best before {item.best_before}</span>}
          {item.price_per_unit != null && (
            <span className="muted small">
              {' '}
              · {formatMoney(item.price_per_unit * entry.perShown, prefs.currency, 4)} per {entry.symbol}
            </span>
          )}
        </p>
      </div>
      <div className="inv-actions">
        <div className="field inline">
          <label htmlFor={deltaId}>
            Quantity<span className="sr-only"> to use or add for {item.name}</span> (in {entry.symbol})
          </label>
          <input
            id={deltaId}
            type="text"
            inputMode="decimal"
            value={delta}
            aria-invalid={adjustMessage ? true : undefined}
            aria-describedby={adjustMessage ? `${deltaId}-err` : undefined}
            onChange={(e) => setDelta(e.target.value)}
          />
        </div>
        <button type="button" onClick={() => adjust.mutate(-1)} disabled={adjust.isPending} aria-label={`Use ${item.name}`}>
          Use
        </button>
        <button type="button" onClick={() => adjust.mutate(1)} disabled={adjust.isPending} aria-label={`Add stock of ${item.name}`}>
          Add stock
        </button>
        <button type="button" className="ghost" onClick={() => setEditing(!editing)} aria-expanded={editing} aria-label={`Edit ${item.name}`}>
          Edit
        </button>
        <button type="button" className="ghost danger-text" onClick={() => setConfirm(true)} aria-label={`Delete ${item.name}`}>
          Delete
        </button>
      </div>
      {adjustMessage && (
        <p className="form-error" role="alert" id={`${deltaId}-err`}>
          {adjustMessage}
        </p>
      )}
      {editing && (
        <form
          className="edit-item"
          aria-label={`Edit ${item.name}`}
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            save.mutate(bodyOf(values));
          }}
        >
          <ItemFields values={values} set={(v) => setValues({ ...values, ...v })} error={save.error instanceof ApiError ? save.error : null} prefix="Item " />
          {save.error && <ErrorBox error={save.error} />}
          <div className="actions">
            <button type="submit" className="primary" disabled={save.isPending}>
              Save item
            </button>
            <button type="button" className="ghost" onClick={() => setEditing(false)}>
              Cancel
            </button>
          </div>
        </form>
      )}
      <ConfirmDialog
        open={confirm}
        title={`Delete ${item.name}?`}
        confirmLabel="Delete item"
        danger
        busy={del.isPending}
        onCancel={() => setConfirm(false)}
        onConfirm={() => del.mutate()}
      >
        {del.error ? <ErrorBox error={del.error} /> : <p>It is removed from your inventory.</p>}
      </ConfirmDialog>
    </li>
  );
}
