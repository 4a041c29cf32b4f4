import { useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';

/** One field's value as the API takes it (AutoField hands it over already converted from the display unit). */
export type FieldValue = string | number | null;

export interface AutosaveOptions<Body, Result, Item = Result> {
  /** Sends one field's change; rejects (an ApiError) to keep what was typed and say why. */
  patch: (body: Body) => Promise<Result>;
  /** The item's query: it takes the API's answer, so the page shows the saved value at once. */
  detail?: QueryKey;
  /** How the answer goes into the cached item, when the answer is not the whole item. */
  merge?: (cached: Item, answer: Result) => Item;
  /** Refetched before the save counts as done: what the page shows beside the field (statistics). */
  awaited?: QueryKey[];
  /** Refetched in the background: lists and other pages that show the item. */
  refresh?: QueryKey[];
}

/**
 * The saver behind every field that saves as it is edited: `saver('name')` is the `save` of an
 * AutoField. Sends `{ [field]: value }`, puts the answer in the item's query, refreshes what
 * depends on it, and lets a refusal through to the field that shows it.
 */
export function fieldSaver<Body extends object, Result, Item = Result>(qc: QueryClient, o: AutosaveOptions<Body, Result, Item>) {
  return (field: keyof Body & string) => async (value: FieldValue) => {
    const answer = await o.patch({ [field]: value } as Body);
    const { detail, merge } = o;
    if (detail && merge) qc.setQueryData<Item>(detail, (cached) => (cached === undefined ? cached : merge(cached, answer)));
    else if (detail) qc.setQueryData<Result>(detail, answer);
    await Promise.all((o.awaited ?? []).map((queryKey) => qc.invalidateQueries({ queryKey })));
    for (const queryKey of o.refresh ?? []) void qc.invalidateQueries({ queryKey });
  };
}

/** `fieldSaver` with the page's query client. */
export function useAutosave<Body extends object, Result, Item = Result>(o: AutosaveOptions<Body, Result, Item>) {
  return fieldSaver(useQueryClient(), o);
}
