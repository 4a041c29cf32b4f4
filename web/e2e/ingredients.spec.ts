import { expect, test } from './fixtures';
import { api, checkPage, signUp, navTo } from './helpers';

test('save a recipe hop to my ingredients, then find, edit, page and delete it on the Ingredients page', async ({ page }) => {
  await signUp(page);
  const recipe = await api<{ id: string }>(page.request, 'POST', '/v1/recipes', { name: 'House pale' });
  await api(page.request, 'POST', `/v1/recipes/${recipe.id}/hops`, { name: 'Garden Cascade', alpha_acid: 6.5, amount_grams: 30, time_minutes: 15 });
  await page.goto(`/recipes/${recipe.id}`);
  await page.getByRole('button', { name: 'Save hop 1 to my ingredients: Garden Cascade' }).click();
  await expect(page.getByText('Saved “Garden Cascade” to my ingredients.')).toBeVisible();

  // The own item is offered first, marked as mine.
  const box = page.getByRole('combobox', { name: 'New hop', exact: true });
  await box.fill('garden');
  const option = page.getByRole('listbox', { name: 'Hops in the catalogue' }).getByRole('option').first();
  await expect(option).toContainText('Garden Cascade');
  await expect(option).toContainText('mine');
  await expect(option).toContainText('6.5 % AA');

  await navTo(page, 'Ingredients');
  await expect(page).toHaveTitle(/Ingredients/);
  await expect(page.getByRole('heading', { level: 1, name: 'Ingredients' })).toBeVisible();
  await page.getByRole('button', { name: 'Hops', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Hops', exact: true })).toHaveAttribute('aria-pressed', 'true');
  const list = page.getByRole('list', { name: 'Hops' });
  await expect(list.getByRole('listitem').first()).toBeVisible();
  // Only my own: the one hop saved, none of the built-in catalogue.
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(list).toContainText('Garden Cascade');
  await checkPage(page);

  // Search: the own item first.
  await page.getByLabel('Search').fill('garden cascade');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(list.getByRole('listitem').first()).toContainText('Garden Cascade');

  // Edit: saved as typed, like every other field.
  await page.getByRole('button', { name: 'Edit Garden Cascade' }).click();
  await page.getByLabel('Alpha acid (%)').fill('7');
  await page.getByLabel('Alpha acid (%)').blur();
  await expect(list.getByRole('listitem').first()).toContainText('7 % AA');

  // Paging by the server's count: no silent cut.
  for (let i = 0; i < 21; i++) await api(page.request, 'POST', '/v1/catalog/hops', { name: `Trial hop ${String(i).padStart(2, '0')}`, alpha_acid: 8 });
  await page.goto('/ingredients?kind=hops');
  // Only my own hops are listed: the built-in catalogue is left out.
  const total = Number((await page.request.get('/v1/catalog/hops?limit=1&source=mine', { headers: {} })).headers()['x-total-count']);
  expect(total).toBe(22);
  await expect(page.getByText(`Page 1 of ${Math.ceil(total / 20)} · ${total} hops`)).toBeVisible();
  await page.getByRole('button', { name: 'Next page' }).click();
  await expect(page.getByText(`Page 2 of ${Math.ceil(total / 20)}`)).toBeVisible();
  await expect(list.getByRole('listitem')).toHaveCount(2);

  // Delete, after a confirmation.
  await page.goto('/ingredients?kind=hops&q=garden+cascade');
  await page.getByRole('button', { name: 'Delete Garden Cascade' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete “Garden Cascade”?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Delete hop' }).click();
  await expect(page.getByRole('heading', { name: 'Garden Cascade' })).toHaveCount(0);
  const left = await api<{ name: string }[]>(page.request, 'GET', '/v1/catalog/hops?q=garden+cascade&limit=5');
  expect(left.filter((h) => h.name === 'Garden Cascade')).toEqual([]);
});
