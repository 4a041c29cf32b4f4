// Screenshots of the main pages at phone and desktop size, into docs/screenshots/.
// Needs a running wort (with the app) at WORT_BASE_URL. `npm run screenshots`.
// SCREENSHOT_ONLY=equipment,recipe-editor takes only those.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';

const base = process.env.WORT_BASE_URL ?? 'http://127.0.0.1:5173';
const out = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));
mkdirSync(out, { recursive: true });
const headers = { Origin: new URL(base).origin };
const scheme = process.env.SCREENSHOT_SCHEME ?? 'light';

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
const ctx = await browser.newContext({ baseURL: base, colorScheme: scheme });
const page = await ctx.newPage();
const call = async (method, path, data) => {
  const res = await page.request.fetch(path, { method, data, headers });
  if (!res.ok()) throw new Error(`${method} ${path}: ${res.status()} ${await res.text()}`);
  const text = await res.text();
  return text ? JSON.parse(text) : undefined;
};

await call('POST', '/api/auth/sign-up/email', { name: 'Ada Brewer', email: `demo-${Date.now()}@example.test`, password: 'screenshots only' });
const kettle = await call('POST', '/v1/equipment', {
  name: 'Brew kettle 30 L',
  batch_size_liters: 20,
  boil_off_liters_per_hour: 3.5,
  trub_chiller_loss_liters: 1,
  mash_tun_deadspace_liters: 0.5,
  fermenter_loss_liters: 0.5,
  hop_utilization_percent: 100,
  notes: 'Gas burner outdoors, immersion chiller.',
});
await call('POST', '/v1/equipment', {
  name: 'All-in-one 35 L',
  batch_size_liters: 23,
  boil_off_liters_per_hour: 2.5,
  trub_chiller_loss_liters: 2,
  mash_tun_deadspace_liters: 0,
  grain_absorption_liters_per_kg: 0.8,
});
const recipe = await call('POST', '/v1/recipes', {
  name: 'Citra Pale Ale',
  style: 'American Pale Ale',
  batch_size_liters: 20,
  boil_time_minutes: 60,
  notes: 'Crisp, dry, loads of late Citra.',
  equipment_id: kettle.id,
  style_id: '18B',
});
const id = recipe.id;
for (const f of [
  { name: 'Maris Otter', amount_kg: 4.2, color_srm: 3, yield_percent: 81 },
  { name: 'Munich I', amount_kg: 0.5, color_srm: 6, yield_percent: 80 },
  { name: 'Crystal 40', amount_kg: 0.3, color_srm: 40, yield_percent: 74 },
])
  await call('POST', `/v1/recipes/${id}/fermentables`, f);
for (const h of [
  { name: 'Magnum', alpha_acid: 12, amount_grams: 15, time_minutes: 60, form: 'pellet' },
  { name: 'Citra', alpha_acid: 12.5, amount_grams: 30, time_minutes: 10, form: 'pellet' },
  { name: 'Citra', alpha_acid: 12.5, amount_grams: 50, time_minutes: 0, use: 'whirlpool', form: 'pellet' },
  { name: 'Citra', alpha_acid: 12.5, amount_grams: 60, time_minutes: 4320, use: 'dry_hop', form: 'pellet' },
])
  await call('POST', `/v1/recipes/${id}/hops`, h);
await call('POST', `/v1/recipes/${id}/yeasts`, { name: 'SafAle US-05', lab: 'Fermentis', form: 'dry', attenuation: 78 });
await call('POST', `/v1/recipes/${id}/miscs`, { name: 'Whirlfloc', type: 'fining', use: 'boil', amount: 1, amount_unit: 'tablet', time_minutes: 10 });
await call('POST', `/v1/recipes/${id}/mash-steps`, { name: 'Saccharification', temperature_c: 66, duration_minutes: 60 });
await call('POST', `/v1/recipes/${id}/mash-steps`, { name: 'Mash out', temperature_c: 76, duration_minutes: 10 });
// Water: London well water towards Burton, with salts and a little lactic acid.
const waters = await call('GET', '/v1/water-profiles');
const waterId = (prefix) => waters.find((w) => w.name.startsWith(prefix)).id;
await call('PATCH', `/v1/recipes/${id}`, { water_profile_id: waterId('London'), target_water_profile_id: waterId('Burton') });
for (const w of [
  { agent: 'gypsum', amount: 6 },
  { agent: 'calcium_chloride', amount: 1.5 },
  { agent: 'epsom_salt', amount: 1 },
  { agent: 'lactic_acid', amount: 2 },
  { agent: 'gypsum', amount: 3, step: 'sparge' },
])
  await call('POST', `/v1/recipes/${id}/water-additions`, w);
await call('POST', `/v1/recipes/${id}/fermentation-steps`, { name: 'Primary', temperature_c: 19, days: 10 });
await call('POST', `/v1/recipes/${id}/fermentation-steps`, { name: 'Cold crash', temperature_c: 2, days: 2 });
for (const [name, style] of [
  ['Oatmeal Stout', 'Oatmeal Stout'],
  ['Saison du Jardin', 'Saison'],
  ['Munich Helles', 'Munich Helles'],
])
  await call('POST', `/v1/recipes/${(await call('POST', '/v1/recipes', { name, style })).id}/fermentables`, {
    name: 'Pilsner',
    amount_kg: 4.5,
    color_srm: 2,
    yield_percent: 80,
  });

const session = await call('POST', '/v1/sessions', { recipe_id: id, brew_date: '2026-11-12', status: 'fermenting', measured_og: 1.052 });
await call('PATCH', `/v1/sessions/${session.id}`, { measured_og: 1.052, measured_batch_size_liters: 19.5 });
const steps = await call('GET', `/v1/sessions/${session.id}/steps`);
for (const s of steps.slice(0, 7)) await call('PATCH', `/v1/steps/${s.id}`, { completed: true });
const start = Date.parse('2026-11-12T18:00:00Z');
for (let i = 0; i <= 40; i++) {
  const t = i * 6 * 3600 * 1000;
  const gravity = 1.011 + 0.041 * Math.exp(-i / 12);
  const temperature_c = 18 + (i > 28 ? 2 : 0) + Math.sin(i / 3) * 0.3;
  await call('POST', `/v1/sessions/${session.id}/fermentation-logs`, {
    logged_at: new Date(start + t).toISOString(),
    gravity: Math.round(gravity * 10000) / 10000,
    temperature_c: Math.round(temperature_c * 10) / 10,
  });
}
for (const item of [
  { category: 'fermentable', name: 'Maris Otter', amount: 12.5, amount_unit: 'kg', price_per_unit: 2.4, best_before: '2027-04-30' },
  { category: 'fermentable', name: 'Crystal 40', amount: 1.2, amount_unit: 'kg', price_per_unit: 3.1 },
  { category: 'hop', name: 'Citra', amount: 340, amount_unit: 'g', price_per_unit: 0.09, best_before: '2027-09-30' },
  { category: 'hop', name: 'Magnum', amount: 95, amount_unit: 'g', price_per_unit: 0.05 },
  { category: 'yeast', name: 'SafAle US-05', amount: 4, amount_unit: 'pkg', price_per_unit: 4.5 },
  { category: 'misc', name: 'Whirlfloc', amount: 18, amount_unit: 'tablets' },
])
  await call('POST', '/v1/inventory', item);
await call('POST', '/api/auth/api-key/create', { name: 'iSpindel in the cellar' });
// Alert rules: the device's reading below (1.011) crosses the gravity mark and raises an alert;
// the temperature band holds, and the device has not been silent long.
await call('POST', '/v1/alert-rules', { kind: 'gravity_below', gravity: 1.012, session_id: session.id });
await call('POST', '/v1/alert-rules', { kind: 'temperature_outside', min_c: 17, max_c: 21 });
await call('POST', '/v1/alert-rules', { kind: 'device_silent', minutes: 120 });
// A device that has posted (a reading in line with the curve above) and one without a session.
const device = await call('POST', '/v1/devices', { name: 'iSpindel in the cellar', kind: 'ispindel', session_id: session.id });
const posted = await page.request.post(`/ingest/${device.token}`, {
  data: { name: 'iSpindel001', ID: 1234567, angle: 26.4, temperature: 19.8, temp_units: 'C', battery: 4.02, gravity: 1.011, interval: 900, RSSI: -71 },
});
if (!posted.ok()) throw new Error(`POST /ingest: ${posted.status()} ${await posted.text()}`);
await call('POST', '/v1/devices', { name: 'Tilt (red)', kind: 'tilt' });
// A webhook whose test ping fails (nothing listens on port 9): only where the server allows
// private targets (WORT_WEBHOOK_ALLOW_PRIVATE=1); otherwise no webhook screenshots.
let hook = null;
const created = await page.request.fetch('/v1/webhooks', {
  method: 'POST',
  headers,
  data: { url: 'http://127.0.0.1:9/wort-events', events: ['session.status_changed', 'reading.created', 'fermentation.stable'] },
});
if (created.ok()) {
  hook = await created.json();
  await call('POST', `/v1/webhooks/${hook.id}/test`);
} else console.log(`no webhook screenshots: the server refused a private target (${created.status()}); set WORT_WEBHOOK_ALLOW_PRIVATE=1`);
const usage = await call('GET', '/v1/ai/usage');
if (usage.configured) {
  // One streamed turn, read to the end, so the assistant page shows a conversation.
  const res = await page.request.fetch('/v1/chat', {
    method: 'POST',
    headers,
    data: { message: 'Is 34 IBU right for a pale ale this strong?', recipe_id: id },
  });
  await res.text();
}
const chats = await call('GET', '/v1/chats');

// Brew day: the boil running on the server's timer, the mash step paused, a reading from
// yesterday (also shot in US units below).
const brewDay = await call('POST', '/v1/sessions', { recipe_id: id, brew_date: '2026-11-26', status: 'brewing', name: 'Citra Pale Ale, batch 2' });
const brewSteps = await call('GET', `/v1/sessions/${brewDay.id}/steps`);
for (const s of brewSteps.slice(0, 3)) await call('PATCH', `/v1/steps/${s.id}`, { completed: true });
const mash = brewSteps.find((s) => s.duration_minutes && !s.boil);
if (mash) {
  await call('POST', `/v1/steps/${mash.id}/timer`, { action: 'start' });
  await call('POST', `/v1/steps/${mash.id}/timer`, { action: 'pause' });
}
await call('POST', `/v1/steps/${brewSteps.find((s) => s.boil).id}/timer`, { action: 'start' });
await call('POST', `/v1/sessions/${brewDay.id}/fermentation-logs`, {
  logged_at: new Date(Date.now() - 86_400_000).toISOString(),
  gravity: 1.05,
  temperature_c: 65,
  notes: 'Pre-boil',
});
// A step mash for the brew day's water: a protein rest struck with water, an infusion of
// boiling water, a decoction and a mash-out. Its session is planned: the checklist (the shot) is
// the brew day's, and the strike water is ticked. On the kettle profile, so the strike and the
// sparge say their volumes (the sparge less the infusions).
const festbier = await call('POST', '/v1/recipes', {
  name: 'Festbier',
  style: 'Festbier',
  batch_size_liters: 20,
  boil_time_minutes: 90,
  style_id: '4B',
  equipment_id: kettle.id,
});
for (const f of [
  { name: 'Pilsner', amount_kg: 4.6, color_srm: 2, yield_percent: 80 },
  { name: 'Vienna', amount_kg: 0.8, color_srm: 4, yield_percent: 78 },
])
  await call('POST', `/v1/recipes/${festbier.id}/fermentables`, f);
await call('POST', `/v1/recipes/${festbier.id}/hops`, { name: 'Hallertauer Mittelfrüh', alpha_acid: 4, amount_grams: 45, time_minutes: 60 });
await call('POST', `/v1/recipes/${festbier.id}/yeasts`, { name: 'SafLager W-34/70', lab: 'Fermentis', form: 'dry', attenuation: 80 });
for (const m of [
  { name: 'Protein rest', temperature_c: 52, duration_minutes: 15 },
  { name: 'Beta rest', temperature_c: 63, duration_minutes: 40 },
  { name: 'Alpha rest', type: 'decoction', temperature_c: 72, duration_minutes: 20 },
  { name: 'Mash out', temperature_c: 78, duration_minutes: 10 },
])
  await call('POST', `/v1/recipes/${festbier.id}/mash-steps`, m);
const stepMashDay = await call('POST', '/v1/sessions', { recipe_id: festbier.id, brew_date: '2026-11-26', name: 'Festbier, batch 1' });
const stepMashSteps = await call('GET', `/v1/sessions/${stepMashDay.id}/steps`);
await call('PATCH', `/v1/steps/${stepMashSteps[0].id}`, { completed: true });
// Inventory that follows the brewing: a session on its brew day (the deduction offered) and a
// planned one for the shopping list.
const brewing = await call('POST', '/v1/sessions', { recipe_id: id, brew_date: '2026-11-27', status: 'brewing', name: 'Citra Pale Ale #2' });
const planned = await call('POST', '/v1/sessions', { recipe_id: id, brew_date: '2026-12-12', name: 'Citra Pale Ale #3' });
const shopping = `/shopping-list?session_id=${planned.id}&session_id=${brewing.id}`;

const shots = [
  ['take-from-inventory', `/sessions/${brewing.id}`, 'Take from inventory'],
  ['shopping-list', shopping, 'To buy'],
  ['recipes', '/recipes', 'New recipe'],
  ['recipe-editor', `/recipes/${id}`, 'Statistics'],
  ['recipe-water', `/recipes/${id}`, 'Predicted mash pH'],
  ['session', `/sessions/${session.id}`, 'Fermentation chart'],
  ['session-brew-day', `/sessions/${brewDay.id}`, 'Pause timer'],
  ['inventory', '/inventory', 'Hops'],
  ['equipment', '/equipment', 'New equipment profile'],
  ['equipment-profile', `/equipment/${kettle.id}`, 'Saved as you type'],
  ['account', '/account', 'API keys'],
  ['devices', '/devices', 'New device'],
  ['device', `/devices/${device.id}`, 'Last payload'],
  ...(hook
    ? [
        ['webhooks', '/webhooks', 'New webhook'],
        ['webhook', `/webhooks/${hook.id}`, 'Delivery attempts'],
      ]
    : []),
  ['assistant', chats.length ? `/assistant/${chats[0].id}` : '/assistant', 'Today’s usage'],
  ['tools', '/tools', 'Packs without a starter'],
  ['alerts', '/alerts', 'History'],
  ['alert-rules', '/alerts/rules', 'New rule'],
];
// The same pages for a US account (gallons, ounces, °F): taken after the metric ones.
const usShots = [
  // The home page: sessions fermenting and brewing, the boil's running timer, recent recipes.
  ['home', '/', 'Recent recipes'],
  ['tools-us', '/tools', 'Packs without a starter'],
  ['session-us', `/sessions/${session.id}`, 'Fermentation chart'],
  ['session-brew-day-us', `/sessions/${brewDay.id}`, 'Pause timer'],
  ['inventory-us', '/inventory', 'Hops'],
  ['shopping-list-us', shopping, 'To buy'],
  ['recipe-stock-us', `/recipes/${id}`, 'Stock and cost'],
  ['alerts-us', '/alerts', 'History'],
];
for (const [size, viewport] of [
  ['desktop', { width: 1440, height: 900 }],
  ['phone', { width: 390, height: 844 }],
]) {
  await page.setViewportSize(viewport);
  const only = process.env.SCREENSHOT_ONLY?.split(',');
  for (const [name, path, waitFor, us] of [...shots, ...usShots.map((shot) => [...shot, true])]) {
    if (only && !only.includes(name)) continue;
    await call('PATCH', '/v1/me/preferences', us ? { amounts: 'us', temperature: 'f' } : { amounts: 'metric', temperature: 'c' });
    await page.goto(path);
    await page.getByText(waitFor).first().waitFor();
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(300);
    // The home page at desk size is `home.png` (the README shows it).
    const file = name === 'home' && size === 'desktop' && scheme !== 'dark' ? `${out}home.png` : `${out}${name}-${size}${scheme === 'dark' ? '-dark' : ''}.png`;
    // The water panel alone (the whole recipe page is `recipe-editor`).
    if (name === 'recipe-water') await page.locator('section.water-panel').screenshot({ path: file });
    else await page.screenshot({ path: file, fullPage: true });
    console.log(file);
  }
}
await call('PATCH', '/v1/me/preferences', { amounts: 'metric', temperature: 'c' });
// The water panel in US units (volumes in gallons; ions stay mg/L).
if (!process.env.SCREENSHOT_ONLY || process.env.SCREENSHOT_ONLY.split(',').includes('recipe-water')) {
  await call('PATCH', '/v1/me/preferences', { amounts: 'us' });
  for (const [size, viewport] of [
    ['desktop', { width: 1440, height: 900 }],
    ['phone', { width: 390, height: 844 }],
  ]) {
    await page.setViewportSize(viewport);
    await page.goto(`/recipes/${id}`);
    await page.getByText('Predicted mash pH').first().waitFor();
    await page.waitForLoadState('networkidle');
    const file = `${out}recipe-water-us-${size}.png`;
    await page.locator('section.water-panel').screenshot({ path: file });
    console.log(file);
  }
  await call('PATCH', '/v1/me/preferences', { amounts: 'metric' });
}
// The water panel of an imported recipe: Brewfather's Philter XPA, whose salts arrive as water
// additions, where the corpus is at hand (WORT_INTERCHANGE_CORPUS, as for the interchange tests);
// else the vendored file made on its pattern.
if (!process.env.SCREENSHOT_ONLY || process.env.SCREENSHOT_ONLY.split(',').includes('recipe-water-imported')) {
  const corpus = process.env.WORT_INTERCHANGE_CORPUS;
  const philter = corpus && join(corpus, 'bx_brewfather_philter_xpa.xml');
  const file =
    philter && existsSync(philter)
      ? philter
      : fileURLToPath(new URL('../../crates/interchange/tests/data/files/constructed_water_agents.xml', import.meta.url));
  const res = await page.request.fetch('/v1/recipes/import', {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/xml' },
    data: readFileSync(file),
  });
  if (!res.ok()) throw new Error(`import ${file}: ${res.status()} ${await res.text()}`);
  const imported = (await res.json()).recipes[0].id;
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/recipes/${imported}`);
  await page.getByText('Predicted mash pH').first().waitFor();
  await page.waitForLoadState('networkidle');
  await page.locator('section.water-panel').screenshot({ path: `${out}recipe-water-imported.png` });
  console.log(`${out}recipe-water-imported.png (from ${file})`);
}
// A recipe's statistics with the IBU's working open, hop by hop (desk size; tall enough for the
// whole explanation).
if (!process.env.SCREENSHOT_ONLY || process.env.SCREENSHOT_ONLY.split(',').includes('recipe-explained')) {
  await call('PATCH', '/v1/me/preferences', { amounts: 'metric', temperature: 'c' });
  await page.setViewportSize({ width: 1440, height: 1700 });
  await page.goto(`/recipes/${id}`);
  await page.getByRole('button', { name: 'How is IBU computed?' }).click();
  await page.getByRole('heading', { name: 'Per hop' }).waitFor();
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${out}recipe-explained-desktop.png` });
  console.log(`${out}recipe-explained-desktop.png`);
}
// A step mash's brew-day checklist on a phone: the infusions' water and the decoction, said by the API.
if (!process.env.SCREENSHOT_ONLY || process.env.SCREENSHOT_ONLY.split(',').includes('brew-day-step-mash')) {
  await call('PATCH', '/v1/me/preferences', { amounts: 'metric', temperature: 'c' });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/sessions/${stepMashDay.id}`);
  await page.getByText('of thick mash').first().waitFor();
  await page.waitForLoadState('networkidle');
  await page.locator('section[aria-labelledby="h-checklist"]').screenshot({ path: `${out}brew-day-step-mash-phone.png` });
  console.log(`${out}brew-day-step-mash-phone.png`);
}
// The recipe's History panel on a desk: a named version, then what the next version changed.
if (!process.env.SCREENSHOT_ONLY || process.env.SCREENSHOT_ONLY.split(',').includes('recipe-history')) {
  await call('PATCH', '/v1/me/preferences', { amounts: 'metric', temperature: 'c' });
  await call('POST', `/v1/recipes/${id}/versions`, { message: 'First brew, 12 March' });
  const now = await call('GET', `/v1/recipes/${id}`);
  await call('PATCH', `/v1/recipes/${id}`, { efficiency: 0.75 });
  await call('PATCH', `/v1/fermentables/${now.fermentables[2].id}`, { amount_kg: 0.2 });
  await call('PATCH', `/v1/hops/${now.hops[now.hops.length - 1].id}`, { amount_grams: 80 });
  await call('POST', `/v1/recipes/${id}/hops`, { name: 'Mosaic', alpha_acid: 12, amount_grams: 30, time_minutes: 4320, use: 'dry_hop', form: 'pellet' });
  await page.setViewportSize({ width: 1440, height: 1000 });
  await page.goto(`/recipes/${id}`);
  await page.getByRole('button', { name: 'History', exact: true }).click();
  const latest = page.getByRole('listitem').filter({ hasText: 'Current' }).first();
  await latest.getByRole('button', { name: /^Show changes in version/ }).click();
  await latest.getByRole('heading', { name: /^Changes from version/ }).waitFor();
  await page.waitForLoadState('networkidle');
  await page.locator('section.history-panel').screenshot({ path: `${out}recipe-history-desktop.png` });
  console.log(`${out}recipe-history-desktop.png`);
}
// A recipe shared by link, as anyone opening it on a phone sees it: the server's own page.
if (!process.env.SCREENSHOT_ONLY || process.env.SCREENSHOT_ONLY.split(',').includes('shared-recipe')) {
  const link = await call('POST', `/v1/recipes/${id}/share`, { include_notes: true });
  const reader = await browser.newContext({ baseURL: base, colorScheme: scheme, viewport: { width: 390, height: 844 } });
  const shared = await reader.newPage();
  await shared.goto(new URL(link.url).pathname);
  await shared.getByRole('heading', { level: 1 }).waitFor();
  await shared.screenshot({ path: `${out}shared-recipe-phone.png`, fullPage: true });
  console.log(`${out}shared-recipe-phone.png`);
  await reader.close();
}
await browser.close();
