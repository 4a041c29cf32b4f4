import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { api, checkPage, makeRecipe, signUp } from './helpers';

interface Stats {
  og: number;
  ibu: number;
}

/** A step mash: a protein rest struck with water, an infusion of boiling water, a decoction,
 * and a mash-out infused at 95 °C. 5 kg of grain in 20 L. */
async function makeStepMash(page: Page) {
  const r = await api<{ id: string }>(page.request, 'POST', '/v1/recipes', { name: 'Step Mash Helles', batch_size_liters: 20, boil_time_minutes: 60 });
  await api(page.request, 'POST', `/v1/recipes/${r.id}/fermentables`, { name: 'Pilsner', amount_kg: 4.5, color_srm: 2, yield_percent: 80 });
  await api(page.request, 'POST', `/v1/recipes/${r.id}/fermentables`, { name: 'Munich', amount_kg: 0.5, color_srm: 8, yield_percent: 78 });
  await api(page.request, 'POST', `/v1/recipes/${r.id}/hops`, { name: 'Hallertau', alpha_acid: 4, amount_grams: 30, time_minutes: 60 });
  await api(page.request, 'POST', `/v1/recipes/${r.id}/yeasts`, { name: 'W-34/70', attenuation: 80 });
  const steps = [
    { name: 'Protein rest', temperature_c: 52, duration_minutes: 15 },
    { name: 'Beta rest', temperature_c: 63, duration_minutes: 40 },
    { name: 'Alpha rest', type: 'decoction', temperature_c: 72, duration_minutes: 20 },
    { name: 'Mash out', temperature_c: 78, duration_minutes: 10, infuse_temperature_c: 95 },
  ];
  for (const s of steps) await api(page.request, 'POST', `/v1/recipes/${r.id}/mash-steps`, s);
  return r;
}

test('explain: how OG and IBU are computed, asked for only once a panel opens', async ({ page }) => {
  await signUp(page);
  const r = await makeRecipe(page, 'Explained Pale');
  let asked = 0;
  page.on('request', (req) => {
    if (req.url().includes('explain=true')) asked++;
  });
  await page.goto(`/recipes/${r.id}`);
  const og = page.getByRole('button', { name: 'How is OG computed?' });
  await expect(og).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByRole('button', { name: 'How is BU:GU computed?' })).toBeVisible();
  expect(asked, 'no explanation before one is opened').toBe(0);

  await og.click();
  await expect(og).toHaveAttribute('aria-expanded', 'true');
  const panel = page.getByRole('region', { name: 'How OG is computed' });
  await expect(panel).toBeFocused();
  // The formula, its source, its inputs in its own units, and each fermentable's gravity points.
  await expect(panel).toContainText('OG = 1 + Σ (lb × 46.21 × yield × efficiency ÷ gal) ÷ 1000');
  await expect(panel).toContainText('Source: John Palmer, How to Brew');
  await expect(panel).toContainText('batch size20 L');
  await expect(panel.getByRole('heading', { name: 'Per fermentable' })).toBeVisible();
  await expect(panel.getByRole('heading', { name: 'Pale malt' })).toBeVisible();
  await expect(panel.getByRole('heading', { name: 'Crystal 40' })).toBeVisible();
  // 4.5 kg is 9.9208 lb.
  await expect(panel.getByRole('definition').filter({ hasText: '9.9208 lb' })).toBeVisible();
  await expect(panel.getByRole('list', { name: 'Steps for Pale malt' })).toContainText('points = lb × 46.21 × yield × efficiency ÷ gal');
  const before = await api<Stats>(page.request, 'GET', `/v1/recipes/${r.id}/stats`);
  await expect(panel).toContainText(`Result: ${before.og}`);
  expect(asked).toBe(1);
  await checkPage(page);

  // A change to the recipe refreshes the open explanation with the statistics.
  const amount = page.getByLabel('Amount of fermentable 1 (kg)');
  await amount.fill('5.5');
  await amount.blur();
  await expect(panel).not.toContainText(`Result: ${before.og}`);
  const after = await api<Stats>(page.request, 'GET', `/v1/recipes/${r.id}/stats`);
  expect(after.og).toBeGreaterThan(before.og);
  await expect(panel).toContainText(`Result: ${after.og}`);

  // Another figure: the IBU, hop by hop. Escape closes it and gives the focus back to its button.
  const ibu = page.getByRole('button', { name: 'How is IBU computed?' });
  await ibu.click();
  await expect(og).toHaveAttribute('aria-expanded', 'false');
  const ibuPanel = page.getByRole('region', { name: 'How IBU is computed' });
  await expect(ibuPanel).toBeFocused();
  await expect(ibuPanel).toContainText('Tinseth');
  await expect(ibuPanel.getByRole('heading', { name: 'Per hop' })).toBeVisible();
  await expect(ibuPanel.getByRole('heading', { name: 'Magnum' })).toBeVisible();
  await expect(ibuPanel.getByRole('heading', { name: 'Citra' })).toBeVisible();
  await expect(ibuPanel).toContainText(`Result: ${after.ibu}`);
  await page.keyboard.press('Escape');
  await expect(ibuPanel).toHaveCount(0);
  await expect(ibu).toBeFocused();
  await expect(ibu).toHaveAttribute('aria-expanded', 'false');

  // The close button does the same.
  await ibu.press('Enter');
  await expect(ibuPanel).toBeVisible();
  await ibuPanel.getByRole('button', { name: 'Close the explanation' }).click();
  await expect(ibuPanel).toHaveCount(0);
  await expect(ibu).toBeFocused();
});

test('step mash: the water of each infusion and the thick mash of a decoction, in metric and US units', async ({ page }) => {
  await signUp(page);
  const r = await makeStepMash(page);
  await page.goto(`/recipes/${r.id}`);
  const mash = page.getByRole('region', { name: 'Mash steps' });
  await expect(mash).toContainText('Add 4.62 L of boiling water');
  await expect(mash).toContainText('Pull 5.22 L of thick mash');
  await expect(mash).toContainText('Add 7.12 L of water at 95 °C');
  // The infusion's temperature is a field of the infusions after the first step only.
  await expect(page.getByLabel('Infusion temperature of mash step 4')).toHaveValue('95');
  await expect(page.getByLabel('Infusion temperature of mash step 2')).toHaveValue('');
  await expect(page.getByLabel('Infusion temperature of mash step 1')).toHaveCount(0);
  await expect(page.getByLabel('Infusion temperature of mash step 3')).toHaveCount(0);
  await checkPage(page);

  await api(page.request, 'PATCH', '/v1/me/preferences', { amounts: 'us', temperature: 'f' });
  await page.reload();
  await expect(mash).toContainText('Add 1.22 gal of boiling water');
  await expect(mash).toContainText('Pull 1.38 gal of thick mash');
  await expect(mash).toContainText('Add 1.88 gal of water at 203 °F');
  await expect(page.getByLabel('Infusion temperature of mash step 4')).toHaveValue('203');

  // A temperature typed in °F is saved in °C, and the water follows.
  const beta = page.getByLabel('Infusion temperature of mash step 2');
  await beta.fill('194');
  await beta.blur();
  await expect(mash).not.toContainText('of boiling water');
  await expect(mash).toContainText(/Add [\d.]+ gal of water at 194 °F/);
  const recipe = await api<{ mash_steps: { infuse_temperature_c: number | null }[] }>(page.request, 'GET', `/v1/recipes/${r.id}`);
  expect(recipe.mash_steps[1]!.infuse_temperature_c).toBeCloseTo(90, 6);

  // The brew day says the same, in the same units.
  const session = await api<{ id: string }>(page.request, 'POST', '/v1/sessions', { recipe_id: r.id, brew_date: '2026-11-28' });
  await page.goto(`/sessions/${session.id}`);
  await expect(page.getByRole('main')).toContainText(/Add [\d.]+ gal of water at 194 °F to bring the mash to 145(\.4)? °F\./);
  // More water in the infusion before it: a larger decoction than the 1.38 gal above.
  await expect(page.getByRole('main')).toContainText(/Pull [\d.]+ gal of thick mash, bring it to a boil and stir it back in to reach 162 °F\./);
  await checkPage(page);
});

test('step mash: an infusion no water can do is a check beside its temperature', async ({ page }) => {
  await signUp(page);
  const r = await makeStepMash(page);
  await page.goto(`/recipes/${r.id}`);
  const mash = page.getByRole('region', { name: 'Mash steps' });
  const field = page.getByLabel('Infusion temperature of mash step 4');
  await expect(field).toHaveValue('95');
  await field.fill('70');
  await field.blur();
  await expect(field).toHaveAccessibleDescription(/Error: Mash out: an infusion cannot bring the mash to 78 °C: water at 70 °C is not hotter than the rest/);
  await expect(mash).toContainText('No infusion can reach this rest');
  await expect(page.getByText('1 check beside its field below.')).toBeVisible();
  await checkPage(page);

  // Cleared, the step takes boiling water again and the check goes.
  await field.fill('');
  await field.blur();
  await expect(field).not.toHaveAccessibleDescription(/Error/);
  await expect(mash).not.toContainText('No infusion can reach this rest');
  await expect(mash.getByText(/^Add [\d.]+ L of boiling water$/)).toHaveCount(2);
  const recipe = await api<{ mash_steps: { infuse_temperature_c: number | null }[] }>(page.request, 'GET', `/v1/recipes/${r.id}`);
  expect(recipe.mash_steps[3]!.infuse_temperature_c).toBeNull();

  // A volume chosen instead: the API answers the temperature that volume needs.
  const volume = page.getByLabel('Infusion volume of mash step 2');
  await volume.fill('8');
  await volume.blur();
  await expect(mash).toContainText(/Add 8 L of water at [\d.]+ °C/);
  const after = await api<{ mash_steps: { infuse_amount_liters: number | null }[] }>(page.request, 'GET', `/v1/recipes/${r.id}`);
  expect(after.mash_steps[1]!.infuse_amount_liters).toBe(8);
});
