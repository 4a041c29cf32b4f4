// The ingredient catalogue's items, as the OpenAPI document describes them.
import type { Schemas } from '../api/client';

export const catalogKinds = ['fermentables', 'hops', 'yeasts', 'miscs'] as const;
export type CatalogKind = (typeof catalogKinds)[number];

/** An item of each kind: `id`, `source` (`builtin` items are shared and read-only, `mine` are the
 * account's own), `name`, `aliases`, `notes`, and the kind's descriptive fields, each of which may
 * be unknown (null). */
export interface CatalogItems {
  fermentables: Schemas['CatalogFermentable'];
  hops: Schemas['CatalogHop'];
  yeasts: Schemas['CatalogYeast'];
  miscs: Schemas['CatalogMisc'];
}

export type CatalogItem = CatalogItems[CatalogKind];
