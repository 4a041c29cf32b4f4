import { expect, test } from './fixtures';
import { api, checkPage, makeRecipe, signUp } from './helpers';

test('water: pick source and target water, add salts and acid, read ions and mash pH', async ({ page }) => {
  await signUp(page);
  await api(page.request, 'PATCH', '/v1/me/preferences', { amounts: 'us' });
  const r = await makeRecipe(page);
  await page.goto(`/recipes/${r.id}`);
  const panel = page.getByRole('region', { name: 'Water' });
  await expect(panel.getByText('Predicted mash pH')).toBeVisible();
  // No equipment profile: the batch (20 L) is the mash water, in the person's units.
  await expect(panel.getByText(/Mash water 5\.28 gal/)).toBeVisible();

  await panel.getByLabel('Source water').selectOption({ label: 'Dublin' });
  await panel.getByLabel('Target water').selectOption({ label: 'Burton-on-Trent' });
  await expect(panel.getByRole('columnheader', { name: 'Target' })).toBeVisible();
  // Dublin's 119 mg/L calcium before any salt.
  await expect(panel.getByRole('row', { name: /^Calcium 119 119 268$/ })).toBeVisible();
  const before = Number(await panel.locator('dt:text("Predicted mash pH") + dd').textContent());

  // 5 g gypsum into the mash: + 58 mg/L calcium (CaSO4·2H2O in 20 L), and the pH falls.
  const additions = page.getByRole('form', { name: 'Add a water addition' });
  await additions.getByLabel('New water addition agent').selectOption('gypsum');
  await additions.getByLabel('New water addition amount').fill('5');
  await additions.getByRole('button', { name: 'Add water addition' }).click();
  await expect(panel.getByRole('row', { name: /^Calcium 177 177 268$/ })).toBeVisible();
  await expect.poll(async () => Number(await panel.locator('dt:text("Predicted mash pH") + dd').textContent())).toBeLessThan(before);
  await expect(panel.getByText(/ml lactic acid 88 %/)).toBeVisible();
  await expect(panel.getByText(/not yet \(0 of 3 measured brews\)/)).toBeVisible();
  await checkPage(page);
});

test('water: a measured mash pH on the brew session is stored beside the prediction', async ({ page }) => {
  await signUp(page);
  const r = await makeRecipe(page);
  const s = await api<{ id: string }>(page.request, 'POST', '/v1/sessions', { recipe_id: r.id, brew_date: '2026-11-20' });
  await page.goto(`/sessions/${s.id}`);
  await page.getByLabel('Mash pH (room temperature)').fill('5.45');
  await expect(page.getByText(/Predicted for the recipe: 5\.\d\d/)).toBeVisible();
  const cal = await api<{ pairs: { measured: number }[] }>(page.request, 'GET', '/v1/me/water-calibration');
  expect(cal.pairs.map((p) => p.measured)).toEqual([5.45]);
  await checkPage(page);
});

test('water: my own tap water, saved to the account and used as the source; a 422 at its field', async ({ page }) => {
  await signUp(page);
  const r = await makeRecipe(page);
  await page.goto(`/recipes/${r.id}`);
  const panel = page.getByRole('region', { name: 'Water' });
  await expect(panel.getByText('Predicted mash pH')).toBeVisible();
  await panel.getByText('Add my water').click();
  const form = panel.getByRole('form', { name: 'New water profile' });
  await form.getByLabel('Water profile').fill('Our tap');
  await form.getByLabel('Calcium (mg/L)').fill('-4');
  await form.getByRole('button', { name: 'Save and use as source water' }).click();
  await expect(form.getByLabel('Calcium (mg/L)')).toHaveAttribute('aria-invalid', 'true');
  await form.getByLabel('Calcium (mg/L)').fill('42');
  await form.getByLabel('Bicarbonate (mg/L)').fill('150');
  await form.getByRole('button', { name: 'Save and use as source water' }).click();
  await expect(panel.getByLabel('Source water').locator('option:checked')).toHaveText('Our tap');
  await expect(panel.getByRole('row', { name: /^Calcium 42 42$/ })).toBeVisible();
  await checkPage(page);
});
