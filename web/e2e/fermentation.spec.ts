import { expect, test } from './fixtures';
import { api, checkPage, makeRecipe, signUp } from './helpers';

interface Detail {
  fermentation_steps: { name: string; temperature_c: number; days: number | null; until_gravity: number | null }[];
}

test('a recipe’s fermentation steps in °F, and the session’s schedule', async ({ page }) => {
  await signUp(page);
  await api(page.request, 'PATCH', '/v1/me/preferences', { temperature: 'f' });
  const recipe = await makeRecipe(page, 'Schedule Pale');
  await api(page.request, 'POST', `/v1/recipes/${recipe.id}/hops`, { name: 'Citra DH', alpha_acid: 12, amount_grams: 60, time_minutes: 4320, use: 'dry_hop' });
  await page.goto(`/recipes/${recipe.id}`);
  await expect(page.getByRole('heading', { name: 'Fermentation steps' })).toBeVisible();

  // A rest typed in °F, kept by the API in °C.
  await page.getByLabel('New fermentation step', { exact: true }).fill('Primary');
  await page.getByLabel('New fermentation step temperature (°F)').fill('66.2');
  await page.getByLabel('New fermentation step days').fill('10');
  await page.getByLabel('New fermentation step days').press('Enter');
  await expect(page.getByLabel('Fermentation step 1', { exact: true })).toHaveValue('Primary');
  await expect
    .poll(async () => (await api<Detail>(page.request, 'GET', `/v1/recipes/${recipe.id}`)).fermentation_steps)
    .toEqual([expect.objectContaining({ name: 'Primary', temperature_c: 19, days: 10, until_gravity: null })]);
  await checkPage(page);

  // Fermenting: the schedule shows primary due now and the dry hop 3 days before its end.
  const session = await api<{ id: string }>(page.request, 'POST', '/v1/sessions', { recipe_id: recipe.id, brew_date: '2026-11-28', status: 'fermenting' });
  await page.goto(`/sessions/${session.id}`);
  const schedule = page.getByRole('region', { name: 'Fermentation schedule' });
  await expect(schedule).toBeVisible();
  await expect(schedule.getByText('Primary')).toBeVisible();
  await expect(schedule.getByText('66.2 °F')).toBeVisible();
  await expect(schedule.getByText('Dry hop: Citra DH')).toBeVisible();
  await expect(schedule.getByText(/Due since/)).toHaveCount(1);
  await expect(schedule.getByText('Waiting')).toHaveCount(1);
  await checkPage(page);
});
