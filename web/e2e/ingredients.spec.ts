import { expect, test } from './fixtures';
import { api, checkPage, hasPath, signUp } from './helpers';

test('save a recipe hop to my ingredients, then find, edit, page and delete it on the Ingredients page', async ({ page }) => {
  await signUp(page);
  test.skip(!(await hasPath(page, '/v1/catalog/{kind}')), 'this server has no ingredient catalogue yet');
  const recipe = await api<{ id: string }>(page.request, 'POST', '/v1/recipes', { name: 'House pale' });
  await api(page.request, 'POST', `/v1/recipes/${recipe.id}/hops`, { name: 'Garden Cascade', alpha_acid: 6.5, amount_grams: 30, time_minutes: 15 });
  await page.goto(`/recipes/${recipe.id}`);
  await page.getByRole('button', { name: 'Save hop 1 to my ingredients: Garden Cascade' }).click();
  await expect(page.getByText('Saved “Garden Cascade” to my ingredients.')).toBeVisible();

  // The own item is offered first, marked as mine.
  const box = page.getByRole('combobox', { name: 'New hop', exact: true });
  await box.fill('garden');
  const option = page.getByRole('option').first();
  await expect(option).toContainText('Garden Cascade');
  await expect(option).toContainText('mine');
  await expect(option).toContainText('6.5 % AA');

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Ingredients', exact: true }).click();
  await expect(page).toHaveTitle(/Ingredients/);
  await expect(page.getByRole('heading', { level: 1, name: 'Ingredients' })).toBeVisible();
  await page.getByRole('button', { name: 'Hops', exact: true }).click();
  const mine = page.getByRole('list', { name: 'My hops' });
  await expect(mine.getByRole('listitem')).toHaveCount(1);
  await expect(mine).toContainText('Garden Cascade');
  await checkPage(page);

  // Edit: saved as typed, like every other field.
  await page.getByRole('button', { name: 'Edit Garden Cascade' }).click();
  await page.getByLabel('Alpha acid (%)').fill('7');
  await page.getByLabel('Alpha acid (%)').blur();
  await expect(mine).toContainText('7 % AA');

  // Paging: no silent cut.
  for (let i = 0; i < 21; i++) await api(page.request, 'POST', '/v1/catalog/hops', { name: `Trial hop ${String(i).padStart(2, '0')}`, alpha_acid: 8 });
  await page.reload();
  await expect(page.getByText(/Page 1 of 2 · 22 hops/)).toBeVisible();
  await page.getByRole('button', { name: 'Next page' }).click();
  await expect(page.getByText(/Page 2 of 2/)).toBeVisible();
  await expect(mine.getByRole('listitem')).toHaveCount(2);

  // Search.
  await page.getByLabel('Search').fill('garden');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(mine.getByRole('listitem').first()).toContainText('Garden Cascade');

  // Delete, after a confirmation.
  await page.getByRole('button', { name: 'Delete Garden Cascade' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete “Garden Cascade”?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Delete hop' }).click();
  await expect(page.getByText('Garden Cascade')).toHaveCount(0);
  const left = await api<{ name: string }[]>(page.request, 'GET', '/v1/catalog/hops?q=garden+cascade&limit=5');
  expect(left.filter((h) => h.name === 'Garden Cascade')).toEqual([]);
});
