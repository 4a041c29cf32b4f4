import { expect, test } from './fixtures';
import { api, checkPage, makeRecipe, navTo, signUp } from './helpers';

type Step = { id: string; boil: boolean };

test('home: what is brewing or fermenting, the running timers, then the recent recipes (US units)', async ({ page }) => {
  await signUp(page);
  await api(page.request, 'PATCH', '/v1/me/preferences', { amounts: 'us', temperature: 'f' });
  const pale = await makeRecipe(page, 'Porch Pale');
  await api(page.request, 'POST', `/v1/recipes/${pale.id}/fermentation-steps`, { name: 'Primary', temperature_c: 19, days: 7 });
  await api(page.request, 'POST', `/v1/recipes/${pale.id}/fermentation-steps`, { name: 'Cold crash', temperature_c: 2, days: 2 });
  const stout = await makeRecipe(page, 'Night Stout');

  // Fermenting: OG 1.050 measured, the latest reading 1.020 (60 % apparent attenuation).
  const fermenting = await api<{ id: string }>(page.request, 'POST', '/v1/sessions', {
    recipe_id: pale.id,
    brew_date: '2026-11-20',
    status: 'fermenting',
    name: 'Porch Pale #4',
  });
  await api(page.request, 'PATCH', `/v1/sessions/${fermenting.id}`, { measured_og: 1.05 });
  await api(page.request, 'POST', `/v1/sessions/${fermenting.id}/fermentation-logs`, { gravity: 1.02, temperature_c: 19 });
  // Brewing, with the boil running.
  const brewing = await api<{ id: string }>(page.request, 'POST', '/v1/sessions', { recipe_id: stout.id, brew_date: '2026-11-29', status: 'brewing' });
  const steps = await api<Step[]>(page.request, 'GET', `/v1/sessions/${brewing.id}/steps`);
  await api(page.request, 'POST', `/v1/steps/${steps.find((s) => s.boil)!.id}/timer`, { action: 'start' });
  // A planned session is not "happening".
  await api(page.request, 'POST', '/v1/sessions', { recipe_id: stout.id, brew_date: '2026-12-20', name: 'Later Stout' });

  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
  const active = page.getByRole('list', { name: 'Sessions brewing or fermenting' });
  const cards = active.getByRole('listitem');
  await expect(cards).toHaveCount(2);
  // Fermenting first, on its first day, with the API's figures and the next step in °F.
  const first = cards.first();
  await expect(first.getByRole('link', { name: 'Porch Pale #4' })).toBeVisible();
  await expect(first).toContainText('Day 1 of fermentation');
  await expect(first).toContainText('1.020');
  await expect(first).toContainText('60 %');
  await expect(first).toContainText(/Next: Cold crash at 35\.6 °F · .+ \(in 7 days\)/);
  const second = cards.nth(1);
  await expect(second).toContainText('Brewing');
  await expect(second).toContainText(/\d+ of \d+ done/);
  await expect(page.getByText('Later Stout')).toHaveCount(0);

  // The boil counts down here too, and links to its session.
  const timer = page.getByRole('timer', { name: /Bring to a boil/ });
  await expect(timer).toHaveText(/^59:\d\d$/);
  await expect(page.getByRole('region', { name: 'Timers' }).getByRole('link', { name: 'Night Stout' })).toBeVisible();

  // Recent recipes, newest edit first; the whole list is one link away.
  const recent = page.getByRole('list', { name: 'Recent recipes' });
  await expect(recent.getByRole('link')).toHaveText(['Night Stout', 'Porch Pale']);
  await expect(recent).toContainText('5.28 gal');
  await checkPage(page);

  await first.getByRole('link', { name: 'Porch Pale #4' }).click();
  await expect(page).toHaveURL(new RegExp(`/sessions/${fermenting.id}$`));
  await navTo(page, 'Home');
  await expect(page).toHaveURL(/\/$/);
  await page.getByRole('link', { name: 'All recipes' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Recipes' })).toBeVisible();
});

test('home: nothing happening yet says so', async ({ page }) => {
  await signUp(page);
  await page.goto('/');
  await expect(page.getByText('Nothing is brewing or fermenting')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Timers' })).toHaveCount(0);
  await expect(page.getByText('No recipes yet')).toBeVisible();
  await checkPage(page);
});
