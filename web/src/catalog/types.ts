// The ingredient catalogue's items, as `GET /v1/catalog/{kind}` answers them.
// Written against the catalogue API's agreed shape until its OpenAPI document lands in
// `api/schema.d.ts`; then these become aliases of the generated schemas.

export const catalogKinds = ['fermentables', 'hops', 'yeasts', 'miscs'] as const;
export type CatalogKind = (typeof catalogKinds)[number];

interface Base {
  id: string;
  /** `builtin` items are shared and read-only; `mine` are the account's own. */
  source: 'builtin' | 'mine';
  name: string;
  aliases: string[];
  notes?: string | null;
}

export interface CatalogFermentable extends Base {
  type: string;
  color_srm: number;
  yield_percent: number;
  origin?: string | null;
  supplier?: string | null;
  diastatic_power_lintner?: number | null;
}

export interface CatalogHop extends Base {
  alpha_acid: number;
  beta_acid?: number | null;
  origin?: string | null;
  purpose?: string | null;
}

export interface CatalogYeast extends Base {
  lab?: string | null;
  product_id?: string | null;
  type: string;
  form?: string | null;
  attenuation?: number | null;
  attenuation_min?: number | null;
  attenuation_max?: number | null;
  min_temp_c?: number | null;
  max_temp_c?: number | null;
  flocculation?: string | null;
}

export interface CatalogMisc extends Base {
  type: string;
  use: string;
  amount_unit: string;
}

export interface CatalogItems {
  fermentables: CatalogFermentable;
  hops: CatalogHop;
  yeasts: CatalogYeast;
  miscs: CatalogMisc;
}

export type CatalogItem = CatalogItems[CatalogKind];
