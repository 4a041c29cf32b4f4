// How fast a brewer builds a recipe: an American IPA built through the catalogue, every click and
// keystroke counted, and the time from the last keystroke to the statistics showing the new value.
// The counts and the latency are printed (docs/benchmarks.md, "Recipe editor speed"); the test
// asserts the behaviour (what was filled, where focus went), never a time.
// WORT_SCREENSHOTS=1 also saves the editor with a suggestion list open into docs/screenshots/.
// The suggestions are the server's own catalogue (its search decides what `c40` or `us05` finds).
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { api, checkA11y, checkPage, signUp } from './helpers';

/** Every click and keystroke the test makes goes through here. */
class Meter {
  clicks = 0;
  keys = 0;
  /** Clicks and keystrokes per step, for the report. */
  steps: [string, number, number][] = [];
  private mark = [0, 0];
  constructor(private page: Page) {}
  step(name: string) {
    this.steps.push([name, this.clicks - this.mark[0]!, this.keys - this.mark[1]!]);
    this.mark = [this.clicks, this.keys];
  }
  async click(l: Locator) {
    this.clicks++;
    await l.click();
  }
  async press(key: string) {
    this.keys++;
    await this.page.keyboard.press(key);
  }
  async type(text: string) {
    this.keys += text.length;
    await this.page.keyboard.type(text, { delay: 40 });
  }
  /** A native select: one click to open, one to choose. */
  async select(l: Locator, value: string) {
    this.clicks += 2;
    await l.selectOption(value);
  }
  /** Types `query` into the focused combobox and makes `name` the active option (ArrowDown as a person would), then Enter. */
  async pick(box: Locator, query: string, name: RegExp, whileOpen?: () => Promise<void>) {
    await this.type(query);
    // As a person does: looks until the matches for what was typed are there.
    const list = this.page.locator(`[id="${await box.getAttribute('aria-controls')}"]`);
    await expect(list).toHaveAttribute('aria-busy', 'false');
    await expect(list.getByRole('option', { name }).first()).toBeVisible();
    await whileOpen?.();
    for (let i = 0; i < 8; i++) {
      const active = this.page.locator(`[id="${await box.getAttribute('aria-activedescendant')}"]`);
      if (name.test((await active.textContent()) ?? '')) break;
      await this.press('ArrowDown');
    }
    await this.press('Enter');
  }
}

const shotDir = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));

test('build an American IPA from the catalogue with few clicks and keys; stats follow typing', async ({ page }, info) => {
  test.setTimeout(120_000);
  await signUp(page);
  const m = new Meter(page);

  await page.goto('/recipes');
  await m.click(page.getByRole('button', { name: 'New recipe' }));
  await expect(page).toHaveURL(/\/recipes\/[0-9a-f-]{36}$/);
  m.step('new recipe');
  const recipeId = page.url().split('/').pop()!;
  const stats = page.getByRole('region', { name: 'Statistics' });
  await expect(stats).toContainText('1.000');

  // Fermentables: the name field suggests, Enter fills colour and yield and moves on to the amount.
  const newFermentable = page.getByRole('combobox', { name: 'New fermentable', exact: true });
  await m.click(newFermentable);
  // With the list open: the page passes axe, and (on request) its picture is taken.
  await m.pick(newFermentable, 'mar', /Maris Otter/, async () => {
    await expect(newFermentable).toHaveAttribute('aria-expanded', 'true');
    await checkA11y(page);
    if (process.env.WORT_SCREENSHOTS) {
      await newFermentable.evaluate((el) => el.scrollIntoView({ block: 'start' }));
      await page.evaluate(() => window.scrollBy(0, -190));
      await page.screenshot({ path: `${shotDir}recipe-combobox-${info.project.name}.png` });
    }
  });
  await expect(page.getByLabel(/New fermentable amount/)).toBeFocused();
  await m.type('5.5');
  await m.press('Enter');
  await expect(page.getByLabel('Fermentable 1', { exact: true })).toHaveValue('Maris Otter');
  m.step('Maris Otter 5.5 kg');
  await expect(newFermentable).toBeFocused();
  await m.pick(newFermentable, 'c40', /Crystal 40/);
  await m.type('0.3');
  await m.press('Enter');
  await expect(page.getByLabel('Fermentable 2', { exact: true })).toHaveValue(/Crystal 40/);
  m.step('Crystal 40 0.3 kg');
  await expect(page.getByLabel('Colour of fermentable 2 (SRM)')).toHaveValue('40');

  // Hops.
  const newHop = page.getByRole('combobox', { name: 'New hop', exact: true });
  await m.click(newHop);
  await m.pick(newHop, 'col', /Columbus/);
  await expect(page.getByLabel(/New hop amount/)).toBeFocused();
  await m.type('20');
  await m.press('Enter');
  await expect(page.getByLabel('Hop 1', { exact: true })).toHaveValue(/Columbus/);
  m.step('Columbus 20 g 60 min');
  await expect(newHop).toBeFocused();

  await m.pick(newHop, 'cit', /Citra/);
  await m.type('30');
  await m.press('Tab');
  await expect(page.getByLabel('New hop time (min)')).toBeFocused();
  await m.type('10');
  await m.press('Enter');
  await expect(page.getByLabel('Hop 2', { exact: true })).toHaveValue(/Citra/);
  m.step('Citra 30 g 10 min');

  // The dry hop: its time is days (3 by default once the use is dry hop).
  await m.pick(newHop, 'cit', /Citra/);
  await m.type('50');
  await m.select(page.getByLabel('New hop use'), 'dry_hop');
  await expect(page.getByLabel('New hop time (days)')).toHaveValue('3');
  await m.click(page.getByRole('button', { name: 'Add hop' }));
  await expect(page.getByLabel('Hop 3', { exact: true })).toHaveValue(/Citra/);
  m.step('Citra 50 g dry hop 3 days');

  // Yeast: nothing to type but the name.
  const newYeast = page.getByRole('combobox', { name: 'New yeast', exact: true });
  await m.click(newYeast);
  await m.pick(newYeast, 'us05', /US-05/);
  await m.press('Enter');
  await expect(page.getByLabel('Yeast 1', { exact: true })).toHaveValue(/US-05|SafAle/i);
  m.step('US-05');

  // One mash step (no catalogue): the name, then the temperature (a click selects its default).
  await m.click(page.getByLabel('New mash step', { exact: true }));
  await m.type('Mash');
  await m.click(page.getByLabel('New mash step temperature (°C)'));
  await m.type('67');
  await m.press('Enter');
  await expect(page.getByLabel('Mash step 1', { exact: true })).toHaveValue('Mash');
  m.step('mash step 67 °C 60 min');

  const built = { clicks: m.clicks, keys: m.keys };

  // What was built, as the API has it: the catalogue's numbers and links, the days as minutes.
  const r = await api<{
    fermentables: { name: string; amount_kg: number; color_srm: number; catalog_id?: string | null }[];
    hops: { id: string; name: string; alpha_acid: number; amount_grams: number; time_minutes: number; use: string; catalog_id?: string | null }[];
    yeasts: { name: string; lab?: string | null; attenuation?: number | null; catalog_id?: string | null }[];
    mash_steps: { temperature_c: number; duration_minutes: number }[];
  }>(page.request, 'GET', `/v1/recipes/${recipeId}`);
  expect(r.fermentables.map((f) => f.amount_kg)).toEqual([5.5, 0.3]);
  expect(r.fermentables[1]!.color_srm).toBe(40);
  expect(r.hops.map((h) => [h.use, h.time_minutes, h.amount_grams])).toEqual([
    ['boil', 60, 20],
    ['boil', 10, 30],
    ['dry_hop', 3 * 1440, 50],
  ]);
  expect(r.hops[0]!.alpha_acid).toBeGreaterThan(10);
  expect(r.yeasts[0]!.lab).toBe('Fermentis');
  expect(r.yeasts[0]!.attenuation).toBeGreaterThan(70);
  expect(r.mash_steps).toEqual([expect.objectContaining({ temperature_c: 67, duration_minutes: 60 })]);
  // Every row keeps the link to the catalogue item it was made from.
  expect([...r.fermentables, ...r.hops, ...r.yeasts].every((i) => i.catalog_id)).toBe(true);

  // The editor's numbers: grist share, IBU per hop from /stats, the dry hop in days.
  const fermentables = page.getByRole('region', { name: 'Fermentables' });
  await expect(fermentables.getByRole('row').nth(1)).toContainText('94.8 %');
  const stat = await api<{ ibu: number; ibu_by_hop: { hop_id: string; ibu: number }[] }>(page.request, 'GET', `/v1/recipes/${recipeId}/stats`);
  const hops = page.getByRole('region', { name: 'Hops' });
  const first = stat.ibu_by_hop.find((h) => h.hop_id === r.hops[0]!.id)!;
  await expect(hops.getByRole('row').nth(1)).toContainText(first.ibu.toFixed(1).replace(/\.0$/, ''));
  await expect(page.getByLabel('Time of hop 3 (days)')).toHaveValue('3');
  await checkPage(page);

  // Stats refresh: last keystroke → the IBU in the Statistics panel shows the new value.
  const amount = page.getByLabel('Amount of hop 1 (g)');
  const ibu = stats.getByRole('definition').nth(3);
  const latencies: number[] = [];
  const statsCalls: number[] = [];
  const patches: number[] = [];
  for (const grams of ['25', '30', '35', '40', '45']) {
    await amount.click();
    await page.keyboard.press('ControlOrMeta+a');
    const before = await ibu.textContent();
    let calls = 0;
    let saves = 0;
    const count = (res: { url: () => string; request: () => { method: () => string } }) => {
      if (res.url().endsWith('/stats')) calls++;
      if (res.request().method() === 'PATCH') saves++;
    };
    page.on('response', count);
    await page.evaluate((ibuIndex) => {
      const w = window as unknown as { __lastKey: number; __shown: number };
      w.__lastKey = 0;
      w.__shown = 0;
      document.addEventListener('keydown', () => (w.__lastKey = performance.now()), { capture: true });
      const dd = document.querySelectorAll('section[aria-label="Statistics"] dd')[ibuIndex]!;
      new MutationObserver(() => (w.__shown = performance.now())).observe(dd, { subtree: true, childList: true, characterData: true });
    }, 3);
    await page.keyboard.type(grams, { delay: 60 });
    await expect(ibu).not.toHaveText(before ?? '');
    await page.waitForTimeout(400);
    page.off('response', count);
    statsCalls.push(calls);
    patches.push(saves);
    latencies.push(
      await page.evaluate(() => (window as unknown as { __shown: number; __lastKey: number }).__shown - (window as unknown as { __lastKey: number }).__lastKey),
    );
  }
  latencies.sort((a, b) => a - b);
  const median = latencies[Math.floor(latencies.length / 2)]!;
  console.log(m.steps.map(([n, c, k]) => `  ${n}: ${c} clicks, ${k} keys`).join('\n'));
  console.log(
    `editor-speed [${info.project.name}]: ${built.clicks} clicks, ${built.keys} keystrokes; ` +
      `stats refresh after the last keystroke: median ${median.toFixed(0)} ms (${latencies.map((l) => l.toFixed(0)).join(', ')}); saves and /stats fetches per edit: ${patches.map((p, i) => `${p}/${statsCalls[i]}`).join(', ')}`,
  );
  expect(built.clicks).toBeLessThanOrEqual(25);
  expect(built.keys).toBeLessThanOrEqual(60);
  // One /stats request per save: no second fetch of the same numbers.
  statsCalls.forEach((c, i) => expect(c).toBe(patches[i]));
});

test('US units: pounds and ounces in, kilograms and grams stored; colour hints in EBC', async ({ page }) => {
  await signUp(page);
  await api(page.request, 'PATCH', '/v1/me/preferences', { amounts: 'us', color: 'ebc' });
  const recipe = await api<{ id: string }>(page.request, 'POST', '/v1/recipes', { name: 'Imperial units IPA' });
  await page.goto(`/recipes/${recipe.id}`);
  const box = page.getByRole('combobox', { name: 'New fermentable', exact: true });
  await box.fill('maris');
  const option = page.getByRole('option', { name: /Maris Otter/ }).first();
  await expect(option).toContainText('EBC');
  await box.press('Enter');
  const amount = page.getByLabel('New fermentable amount (lb)');
  await expect(amount).toBeFocused();
  await page.keyboard.type('12');
  await page.keyboard.press('Enter');
  await expect(page.getByLabel('Amount of fermentable 1 (lb)')).toHaveValue('12');
  const hop = page.getByRole('combobox', { name: 'New hop', exact: true });
  await hop.fill('cit');
  await expect(page.getByRole('option', { name: /Citra/ }).first()).toBeVisible();
  await hop.press('Enter');
  await page.keyboard.type('2');
  await page.keyboard.press('Enter');
  await expect(page.getByLabel('Amount of hop 1 (oz)')).toHaveValue('2');
  const r = await api<{ fermentables: { amount_kg: number; color_srm: number }[]; hops: { amount_grams: number }[] }>(
    page.request,
    'GET',
    `/v1/recipes/${recipe.id}`,
  );
  expect(r.fermentables[0]!.amount_kg).toBeCloseTo(12 * 0.45359237, 6);
  expect(r.hops[0]!.amount_grams).toBeCloseTo(2 * 28.349523125, 6);
  await expect(page.getByLabel('Colour of fermentable 1 (EBC)')).not.toHaveValue('');
  await checkPage(page);
});
