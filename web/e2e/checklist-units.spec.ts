import { expect, test } from './fixtures';
import { api, checkPage, makeRecipe, signUp } from './helpers';

test('the brew-day checklist reads in the account’s units', async ({ page }) => {
  await signUp(page);
  await api(page.request, 'PATCH', '/v1/me/preferences', { amounts: 'us', temperature: 'f', gravity: 'plato' });
  const recipe = await makeRecipe(page, 'US Pale');
  const session = await api<{ id: string }>(page.request, 'POST', '/v1/sessions', { recipe_id: recipe.id, brew_date: '2026-11-28' });
  await page.goto(`/sessions/${session.id}`);
  const checklist = page.getByRole('main');
  await expect(checklist.getByText('Add 0.53 oz Magnum at 60 min').first()).toBeVisible();
  await expect(checklist.getByText('Mash: Saccharification at 151 °F for 60 min').first()).toBeVisible();
  await expect(checklist.getByText('Heat the strike water for a 151 °F rest.')).toBeVisible();
  // No metric figure is left in the generated text.
  await expect(checklist.getByText(/\d g (Magnum|Citra)|\d °C/)).toHaveCount(0);
  await checkPage(page);

  // Back to metric: the same steps, read again.
  await page.goto('/account');
  await page.getByLabel('Amounts').selectOption('metric');
  await page.getByLabel('Temperature').selectOption('c');
  await expect
    .poll(async () => await api<Record<string, string>>(page.request, 'GET', '/v1/me/preferences'))
    .toMatchObject({ amounts: 'metric', temperature: 'c' });
  await page.goto(`/sessions/${session.id}`);
  await expect(page.getByRole('main').getByText('Add 15 g Magnum at 60 min').first()).toBeVisible();
});
