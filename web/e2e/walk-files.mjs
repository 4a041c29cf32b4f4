// A walk of real recipe files through wort, for a person to look at: each file imported through
// the recipe list's Import button, the import report, the recipe page at desk size, a brew day
// on a phone (the first steps ticked), then both exports read back by a fresh import. It asserts
// nothing: it writes screenshots and a table (wort's figures before and after the round trip) for
// someone to read. Needs a running wort (with the app) at WORT_BASE_URL and the files:
//   WALK_FILES=/path/to/file.xml,/path/to/other.json npm run walk-files
// (or WALK_DIR=a folder of .xml/.json files). Screenshots go to WALK_OUT (default /tmp/wort-walk).
// WALK_UNITS=metric walks in litres, kilograms and °C; the default is US units.
import { mkdirSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { chromium } from '@playwright/test';

const base = process.env.WORT_BASE_URL ?? 'http://127.0.0.1:5173';
const out = process.env.WALK_OUT ?? '/tmp/wort-walk';
mkdirSync(out, { recursive: true });
const files = process.env.WALK_FILES
  ? process.env.WALK_FILES.split(',')
  : readdirSync(process.env.WALK_DIR ?? '.')
      .filter((f) => /\.(xml|json)$/.test(f))
      .map((f) => join(process.env.WALK_DIR ?? '.', f));
const us = process.env.WALK_UNITS !== 'metric';
const headers = { Origin: new URL(base).origin };

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
const desk = await browser.newContext({ baseURL: base, viewport: { width: 1440, height: 900 } });
const page = await desk.newPage();
const call = async (method, path, data, extra = {}) => {
  const res = await page.request.fetch(path, { method, data, headers: { ...headers, ...extra } });
  if (!res.ok()) throw new Error(`${method} ${path}: ${res.status()} ${await res.text()}`);
  const text = await res.text();
  return text.startsWith('{') || text.startsWith('[') ? JSON.parse(text) : text;
};
await call('POST', '/api/auth/sign-up/email', { name: 'Walker', email: `walk-${Date.now()}@example.test`, password: 'walking the files' });
await call('PATCH', '/v1/me/preferences', us ? { amounts: 'us', temperature: 'f' } : { amounts: 'metric', temperature: 'c' });
// The phone shares the desk's session cookie, as one brewer on two devices.
const phone = await browser.newContext({
  baseURL: base,
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
  storageState: await desk.storageState(),
});
const phonePage = await phone.newPage();

const fig = (s) => `${s.og.toFixed(4)} ${s.fg.toFixed(4)} ${s.ibu.toFixed(1)} ${s.srm.toFixed(1)}`;
const rows = [];
for (const path of files) {
  const tag = basename(path).replace(/\.(xml|json)$/, '');
  await page.goto('/recipes');
  await page.getByLabel('Import recipes (BeerXML or BeerJSON)').setInputFiles(path);
  const done = page.getByRole('region', { name: 'Import results' });
  await done.waitFor();
  await page.waitForLoadState('networkidle');
  // Open what a long report folds away (the recipes of a many-recipe file, the notes).
  for (const summary of await done.locator('summary').all()) await summary.click();
  await done.screenshot({ path: `${out}/${tag}-1-report.png` });
  const links = await done.getByRole('list', { name: 'Imported recipes' }).getByRole('link').all();
  if (!links.length) {
    rows.push(`${tag}: not imported (${(await done.innerText()).split('\n').slice(0, 3).join(' / ')})`);
    continue;
  }
  // The first recipe of the file: its page, then a brew day on the phone, then the exports.
  await links[0].click();
  await page.getByRole('heading', { name: 'Statistics' }).waitFor();
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${out}/${tag}-2-recipe.png`, fullPage: true });
  const id = page.url().split('/').pop();
  const stats = await call('GET', `/v1/recipes/${id}/stats`);

  await page.getByRole('button', { name: 'Brew this recipe' }).click();
  await page.getByRole('button', { name: 'Create brew session' }).click();
  await page.waitForURL(/\/sessions\//);
  const session = page.url().split('/').pop();
  await call('PATCH', `/v1/sessions/${session}`, { status: 'brewing' });
  await phonePage.goto(`/sessions/${session}`);
  await phonePage.getByRole('heading', { level: 1 }).waitFor();
  await phonePage.waitForLoadState('networkidle');
  await phonePage.screenshot({ path: `${out}/${tag}-3-brewday-phone.png`, fullPage: true });
  // Tick the first three steps as a brewer would, by tapping them.
  const boxes = phonePage.getByRole('checkbox');
  for (let i = 0; i < Math.min(3, await boxes.count()); i++) await boxes.nth(i).click();
  await phonePage.waitForLoadState('networkidle');
  await phonePage.waitForTimeout(300);
  await phonePage.screenshot({ path: `${out}/${tag}-4-brewday-ticked-phone.png`, fullPage: true });

  // Both exports, read back by an import: the figures a second program would be given.
  const back = [];
  for (const [format, type] of [
    ['beerxml', 'application/xml'],
    ['beerjson', 'application/json'],
  ]) {
    const body = await call('GET', `/v1/recipes/${id}/export?format=${format}`);
    const res = await page.request.fetch('/v1/recipes/import', {
      method: 'POST',
      headers: { ...headers, 'Content-Type': type },
      data: typeof body === 'string' ? body : JSON.stringify(body),
    });
    const report = await res.json();
    const again = report.recipes?.[0]?.id;
    back.push(again ? `${format} ${fig(await call('GET', `/v1/recipes/${again}/stats`))}` : `${format} refused ${res.status()}`);
  }
  rows.push(`${tag}: ${fig(stats)} | ${back.join(' | ')}`);
}
console.log('file: OG FG IBU SRM | after BeerXML | after BeerJSON');
for (const r of rows) console.log(r);
await browser.close();
