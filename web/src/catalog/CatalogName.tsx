import { useEffect, useState } from 'react';
import { Combobox, type ComboboxProps } from '../components/Combobox';
import { usePrefs } from '../prefs';
import { hintFor } from './fill';
import { useCachedCatalogSearch, useCatalogSearch } from './api';
import type { CatalogItem, CatalogKind } from './types';

/** Waits this long after the last keystroke before asking the catalogue. */
export const SEARCH_DEBOUNCE_MS = 120;

/** `value`, once it has stopped changing for `ms`. */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return settled;
}

const listNames: Record<CatalogKind, string> = {
  fermentables: 'Fermentables in the catalogue',
  hops: 'Hops in the catalogue',
  yeasts: 'Yeasts in the catalogue',
  miscs: 'Other ingredients in the catalogue',
};

/** A new ingredient's name field: a combobox of the catalogue's matches (built-in and own). */
export function CatalogName({
  id,
  kind,
  value,
  onChange,
  onChoose,
  inputRef,
  inputProps,
}: {
  id: string;
  kind: CatalogKind;
  value: string;
  onChange: (v: string) => void;
  onChoose: (item: CatalogItem) => void;
  inputRef?: React.Ref<HTMLInputElement>;
  inputProps?: ComboboxProps<CatalogItem>['inputProps'];
}) {
  const prefs = usePrefs();
  const cachedSearch = useCachedCatalogSearch();
  const now = value.trim();
  // Matches already fetched for this very text (the same hop twice) are used at once, undebounced.
  const cached = now ? cachedSearch(kind, now) : undefined;
  const q = useDebounced(now, SEARCH_DEBOUNCE_MS);
  const search = useCatalogSearch(kind, q);
  const options: CatalogItem[] = now === '' || (!cached && search.isError) ? [] : (cached ?? search.data ?? []);
  const loading = !cached && (search.isFetching || q !== now);
  return (
    <Combobox<CatalogItem>
      id={id}
      value={value}
      onChange={onChange}
      options={options}
      optionKey={(o) => o.id}
      onSelect={onChoose}
      loading={loading}
      listLabel={listNames[kind]}
      inputRef={inputRef}
      inputProps={inputProps}
      renderOption={(o) => (
        <>
          <span className="opt-name">
            {o.name}
            {o.source === 'mine' ? (
              <span className="opt-mine">
                <span className="sr-only">, </span>mine
              </span>
            ) : null}
          </span>
          <span className="opt-hint">{hintFor(kind, o, prefs)}</span>
        </>
      )}
    />
  );
}
