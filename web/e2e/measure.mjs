// Measures the web app against its performance targets (docs/benchmarks.md), on a running wort
// serving the app (WORT_BASE_URL):
// initial JavaScript gzip, cold load of the recipe page to usable, stats answer → panel updated,
// and the chart drawing 10,000 readings; the bytes a cold load and a second visit transfer. `npm run measure` (after `npm run build`).
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';

const base = process.env.WORT_BASE_URL ?? 'http://127.0.0.1:5173';
const headers = { Origin: new URL(base).origin };
const dist = fileURLToPath(new URL('../dist/', import.meta.url));

// 1. Initial JavaScript: the entry script and what index.html preloads, gzipped.
const html = readFileSync(`${dist}index.html`, 'utf8');
const scripts = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]);
const initialGzip = scripts.reduce((n, f) => n + gzipSync(readFileSync(`${dist}${f}`), { level: 9 }).length, 0);

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
const setup = await browser.newContext({ baseURL: base });
const page = await setup.newPage();
const call = async (method, path, data) => {
  const res = await page.request.fetch(path, { method, data, headers });
  if (!res.ok()) throw new Error(`${method} ${path}: ${res.status()} ${await res.text()}`);
  const t = await res.text();
  return t ? JSON.parse(t) : undefined;
};
await call('POST', '/api/auth/sign-up/email', { name: 'Measure', email: `measure-${Date.now()}@example.test`, password: 'measure only' });
const recipe = await call('POST', '/v1/recipes', { name: 'Measured Ale' });
await call('POST', `/v1/recipes/${recipe.id}/fermentables`, { name: 'Pale', amount_kg: 4, color_srm: 3, yield_percent: 80 });
await call('POST', `/v1/recipes/${recipe.id}/hops`, { name: 'Magnum', alpha_acid: 12, amount_grams: 20, time_minutes: 60 });
const session = await call('POST', '/v1/sessions', { recipe_id: recipe.id, brew_date: '2026-11-01' });
const state = await setup.storageState();

// 2. Cold load (fresh context: empty cache) of the recipe page until the statistics and the
// fields are there, and the bytes it moved (bodies as sent, compressed or not, plus response
// headers). Then a second visit in the same context: what revalidation costs.
const loads = [];
const coldBytes = [];
const coldRequests = [];
const revisitBytes = [];
const revisitLoads = [];
const loadRecipePage = async (p) => {
  const sizes = [];
  const onFinished = (req) => sizes.push(req.sizes().catch(() => null));
  p.on('requestfinished', onFinished);
  const t0 = Date.now();
  await p.goto(`/recipes/${recipe.id}`);
  await p.getByRole('region', { name: 'Statistics' }).getByText('IBU').waitFor();
  await p.getByLabel('Batch size').waitFor();
  const ms = Date.now() - t0;
  // Let the requests still in flight (the page's own follow-ups) finish before counting.
  await p.waitForLoadState('networkidle');
  p.off('requestfinished', onFinished);
  const all = (await Promise.all(sizes)).filter(Boolean);
  const bytes = all.reduce((n, s) => n + s.responseBodySize + s.responseHeadersSize, 0);
  return { ms, bytes, requests: all.length };
};
for (let i = 0; i < 5; i++) {
  // The service worker's precache (every page's code, fetched after `load`) is not part of
  // what a page needs to show: measured without it.
  const ctx = await browser.newContext({ baseURL: base, storageState: state, serviceWorkers: 'block' });
  const p = await ctx.newPage();
  const cold = await loadRecipePage(p);
  loads.push(cold.ms);
  coldBytes.push(cold.bytes);
  coldRequests.push(cold.requests);
  const again = await loadRecipePage(p);
  revisitLoads.push(again.ms);
  revisitBytes.push(again.bytes);
  await ctx.close();
}

// 3. Stats answer → panel updated: the time between the /stats response's end and the last DOM
// change in the Statistics region.
await page.goto(`/recipes/${recipe.id}`);
await page.getByRole('region', { name: 'Statistics' }).getByText('IBU').waitFor();
const refresh = [];
for (let i = 0; i < 5; i++) {
  await page.evaluate(() => {
    const region = document.querySelector('section[aria-label="Statistics"]');
    window.__statsChanged = 0;
    new MutationObserver(() => (window.__statsChanged = performance.now())).observe(region, { subtree: true, childList: true, characterData: true });
    performance.clearResourceTimings();
  });
  const field = page.getByLabel(/Amount of fermentable 1/);
  await field.fill(String(4 + (i + 1) * 0.25));
  const statsResponse = page.waitForResponse((r) => r.url().includes('/stats'));
  await field.blur();
  await statsResponse;
  await page.waitForTimeout(300);
  refresh.push(
    await page.evaluate(() => {
      const e = performance
        .getEntriesByType('resource')
        .filter((r) => r.name.includes('/stats'))
        .pop();
      return window.__statsChanged - e.responseEnd;
    }),
  );
}

// 4. The chart with 10,000 readings (the readings answer is synthesised in the browser's network
// layer, so the measure is the app's work, not the server's).
const start = Date.parse('2026-11-01T12:00:00Z');
const logs = Array.from({ length: 10000 }, (_, i) => ({
  id: `00000000-0000-7000-8000-${String(i).padStart(12, '0')}`,
  session_id: session.id,
  logged_at: new Date(start + i * 120000).toISOString(),
  gravity: 1.012 + 0.04 * Math.exp(-i / 2500),
  gravity_unit: 'sg',
  temperature_c: 18 + Math.sin(i / 200),
  ph: null,
  notes: null,
  created_at: new Date(start + i * 120000).toISOString(),
}));
const body = JSON.stringify(logs);
await page.route('**/v1/sessions/*/fermentation-logs?*', (route) =>
  route.fulfill({ status: 200, contentType: 'application/json', headers: { 'X-Total-Count': '10000' }, body }),
);
const chart = [];
for (let i = 0; i < 3; i++) {
  await page.goto(`/sessions/${session.id}`);
  await page.getByRole('figure', { name: 'Fermentation chart' }).locator('canvas').waitFor();
  chart.push(
    await page.evaluate(() => {
      const drawn = performance.getEntriesByName('wort:chart-drawn').pop();
      const e = performance
        .getEntriesByType('resource')
        .filter((r) => r.name.includes('fermentation-logs'))
        .pop();
      return drawn.startTime - e.responseEnd;
    }),
  );
}
await browser.close();

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const r = (x) => Math.round(x);
console.log(`initial JavaScript (gzip, ${scripts.join(', ')}): ${(initialGzip / 1024).toFixed(1)} KiB (target ≤ 150 KB)`);
console.log(`cold load of the recipe page to usable: median ${r(median(loads))} ms of ${loads.map(r).join(', ')} (target ≤ 1000 ms)`);
const kib = (x) => (x / 1024).toFixed(1);
console.log(
  `cold load of the recipe page, bytes transferred (bodies as sent + response headers): median ${kib(median(coldBytes))} KiB of ${coldBytes.map(kib).join(', ')} in ${median(coldRequests)} requests`,
);
console.log(
  `second visit of the recipe page (same browser, warm cache): median ${r(median(revisitLoads))} ms of ${revisitLoads.map(r).join(', ')}, ${kib(median(revisitBytes))} KiB transferred`,
);
console.log(`stats answer → panel updated: median ${r(median(refresh))} ms of ${refresh.map(r).join(', ')} (target ≤ 100 ms)`);
console.log(`chart of 10,000 readings, answer → drawn: median ${r(median(chart))} ms of ${chart.map(r).join(', ')}`);
