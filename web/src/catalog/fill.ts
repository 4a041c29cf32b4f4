// What the catalogue gives a recipe's ingredient row, and what a row gives the catalogue.
import type { Preferences } from '../api/extra';
import { display, formatNumber } from '../units';
import type { CatalogItem, CatalogItems, CatalogKind } from './types';

type Values = Record<string, unknown>;

/** The fields of an item that a recipe row takes over when the item is chosen (API units). */
export const fillFields: { [K in CatalogKind]: (keyof CatalogItems[K] & string)[] } = {
  fermentables: ['type', 'color_srm', 'yield_percent', 'origin'],
  hops: ['alpha_acid'],
  yeasts: ['lab', 'product_id', 'type', 'form', 'attenuation', 'min_temp_c', 'max_temp_c'],
  miscs: ['type', 'use', 'amount_unit'],
};

/** The descriptive fields of a recipe row that "Save to my ingredients" sends (name included). */
export const describingFields: Record<CatalogKind, string[]> = {
  fermentables: ['name', ...fillFields.fermentables],
  hops: ['name', ...fillFields.hops],
  yeasts: ['name', ...fillFields.yeasts],
  miscs: ['name', ...fillFields.miscs],
};

/** The values a chosen item fills in (only those it has). */
export function fillFrom(kind: CatalogKind, item: CatalogItem): Values {
  const out: Values = {};
  for (const f of fillFields[kind] as string[]) {
    const v = (item as unknown as Values)[f];
    if (v !== undefined && v !== null) out[f] = v;
  }
  return out;
}

/** The body of `POST /v1/catalog/{kind}` from a recipe row: its descriptive fields that are set. */
export function itemBodyFrom(kind: CatalogKind, row: Values): Values {
  const out: Values = {};
  for (const f of describingFields[kind]) {
    const v = row[f];
    if (v !== undefined && v !== null && v !== '') out[f] = v;
  }
  return out;
}

const words = (s: string) => s.replace(/_/g, ' ');

/** The short hint beside an option's name: "12 % AA · United States", "3 SRM · Simpsons",
 * "Fermentis US-05 · 78–82 %". */
export function hintFor(kind: CatalogKind, item: CatalogItem, prefs: Preferences): string {
  const parts: string[] = [];
  switch (kind) {
    case 'fermentables': {
      const f = item as CatalogItems['fermentables'];
      if (f.color_srm != null) parts.push(display(f.color_srm, 'color', prefs));
      if (f.supplier || f.origin) parts.push((f.supplier || f.origin)!);
      break;
    }
    case 'hops': {
      const h = item as CatalogItems['hops'];
      if (h.alpha_acid != null) parts.push(`${formatNumber(h.alpha_acid, 1)} % AA`);
      if (h.origin) parts.push(h.origin);
      break;
    }
    case 'yeasts': {
      const y = item as CatalogItems['yeasts'];
      const who = [y.lab, y.product_id].filter(Boolean).join(' ');
      if (who) parts.push(who);
      if (y.attenuation_min != null && y.attenuation_max != null && y.attenuation_min !== y.attenuation_max)
        parts.push(`${formatNumber(y.attenuation_min, 0)}–${formatNumber(y.attenuation_max, 0)} %`);
      else if (y.attenuation != null) parts.push(`${formatNumber(y.attenuation, 0)} %`);
      break;
    }
    case 'miscs': {
      const m = item as CatalogItems['miscs'];
      for (const w of [m.type, m.use]) if (w) parts.push(words(w));
      break;
    }
  }
  return parts.join(' · ');
}
