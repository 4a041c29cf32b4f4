import type { Page, Route } from '@playwright/test';
import { hasPath } from './helpers';

// A few catalogue items, answered in the browser's network layer only when the server under test
// does not serve the catalogue yet (its OpenAPI document has no `/v1/catalog/hops`): the
// editor's behaviour is then still tested, against the catalogue's documented shape.
const items: Record<string, Record<string, unknown>[]> = {
  fermentables: [
    { name: 'Pale 2-Row', type: 'grain', color_srm: 1.8, yield_percent: 79, origin: 'United States', supplier: 'Briess', diastatic_power_lintner: 140 },
    { name: 'Maris Otter', type: 'grain', color_srm: 3, yield_percent: 81, origin: 'United Kingdom', supplier: 'Simpsons', diastatic_power_lintner: 120 },
    { name: 'Crystal 40', aliases: ['Caramel 40', 'C40'], type: 'grain', color_srm: 40, yield_percent: 74, origin: 'United States', supplier: 'Briess', diastatic_power_lintner: 0 },
    { name: 'Crystal 60', aliases: ['Caramel 60'], type: 'grain', color_srm: 60, yield_percent: 74, origin: 'United States', supplier: 'Briess', diastatic_power_lintner: 0 },
  ],
  hops: [
    { name: 'Cascade', alpha_acid: 5.5, beta_acid: 6, origin: 'United States', purpose: 'aroma' },
    { name: 'Citra', alpha_acid: 12, beta_acid: 4, origin: 'United States', purpose: 'aroma' },
    { name: 'Columbus', aliases: ['CTZ', 'Tomahawk', 'Zeus'], alpha_acid: 15, beta_acid: 5, origin: 'United States', purpose: 'bittering' },
    { name: 'Centennial', alpha_acid: 10, beta_acid: 4, origin: 'United States', purpose: 'dual' },
  ],
  yeasts: [
    { name: 'SafAle US-05', aliases: ['US-05'], lab: 'Fermentis', product_id: 'US-05', type: 'ale', form: 'dry', attenuation: 80, attenuation_min: 78, attenuation_max: 82, min_temp_c: 18, max_temp_c: 26, flocculation: 'medium' },
    { name: 'SafAle S-04', aliases: ['S-04'], lab: 'Fermentis', product_id: 'S-04', type: 'ale', form: 'dry', attenuation: 75, attenuation_min: 74, attenuation_max: 82, min_temp_c: 15, max_temp_c: 20, flocculation: 'high' },
  ],
  miscs: [{ name: 'Whirlfloc', type: 'fining', use: 'boil', amount_unit: 'tablet' }],
};

let n = 0;
const withIds = Object.fromEntries(
  Object.entries(items).map(([kind, list]) => [
    kind,
    list.map((i): Record<string, unknown> & { name: string; aliases: string[] } => ({ name: '', id: `00000000-0000-7000-8000-${String(++n).padStart(12, '0')}`, source: 'builtin', aliases: [], notes: null, ...i })),
  ]),
);

/** Serves the fixture catalogue to the page when the server has none; says which is in use. */
export async function catalogue(page: Page): Promise<'server' | 'fixture'> {
  if (await hasPath(page, '/v1/catalog/hops')) return 'server';
  await page.route(/\/v1\/catalog\/(fermentables|hops|yeasts|miscs)(\?.*)?$/, async (route: Route) => {
    const url = new URL(route.request().url());
    const kind = url.pathname.split('/').pop()!;
    // Case and punctuation do not count ("us05" finds US-05), as in the catalogue's own search.
    const fold = (t: string) => t.toLowerCase().replace(/[^a-z0-9]+/g, '');
    const q = fold(url.searchParams.get('q') ?? '');
    const limit = Number(url.searchParams.get('limit') ?? '8');
    const all = withIds[kind] ?? [];
    const hits = all.filter((i) => [i.name, ...(i.aliases as string[])].some((s) => fold(String(s)).includes(q))).slice(0, limit);
    await route.fulfill({ json: hits, headers: { 'X-Total-Count': String(hits.length) } });
  });
  return 'fixture';
}
