// The ingredient catalogue's items, as `GET /v1/catalog/{kind}` answers them.
// Written against the catalogue API's agreed shape until its OpenAPI document lands in
// `api/schema.d.ts`; then these become aliases of the generated schemas.

export const catalogKinds = ['fermentables', 'hops', 'yeasts', 'miscs'] as const;
export type CatalogKind = (typeof catalogKinds)[number];

interface Base {
  id: string;
  /** `builtin` items are shared and read-only; `mine` are the account's own. Every descriptive
   * field may be unknown (null). */
  source: 'builtin' | 'mine';
  name: string;
  aliases: string[];
  notes?: string | null;
}

export interface CatalogFermentable extends Base {
  type?: string | null;
  color_srm?: number | null;
  yield_percent?: number | null;
  origin?: string | null;
  supplier?: string | null;
  diastatic_power_lintner?: number | null;
}

export interface CatalogHop extends Base {
  alpha_acid?: number | null;
  beta_acid?: number | null;
  origin?: string | null;
  purpose?: string | null;
}

export interface CatalogYeast extends Base {
  lab?: string | null;
  product_id?: string | null;
  type?: string | null;
  form?: string | null;
  attenuation?: number | null;
  attenuation_min?: number | null;
  attenuation_max?: number | null;
  min_temp_c?: number | null;
  max_temp_c?: number | null;
  flocculation?: string | null;
}

export interface CatalogMisc extends Base {
  type?: string | null;
  use?: string | null;
  amount_unit?: string | null;
}

export interface CatalogItems {
  fermentables: CatalogFermentable;
  hops: CatalogHop;
  yeasts: CatalogYeast;
  miscs: CatalogMisc;
}

export type CatalogItem = CatalogItems[CatalogKind];
