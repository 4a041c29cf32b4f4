import { expect, test } from './fixtures';
import { api, checkPage, hasPath, makeRecipe, signUp } from './helpers';

test('inventory follows the brewing: take from stock, undo, cost, shopping list, US units', async ({ page }) => {
  await signUp(page);
  test.skip(!(await hasPath(page, '/v1/shopping-list')), 'this server has no /v1/shopping-list yet');
  const recipe = await makeRecipe(page, 'Stock Pale');
  const malt = await api<{ id: string }>(page.request, 'POST', '/v1/inventory', {
    category: 'fermentable',
    name: 'pale malt',
    amount: 20,
    amount_unit: 'kg',
    price_per_unit: 2,
  });
  await api(page.request, 'POST', '/v1/inventory', { category: 'hop', name: 'Magnum', amount: 100, amount_unit: 'g', price_per_unit: 0.1 });
  const citra = await api<{ id: string }>(page.request, 'POST', '/v1/inventory', { category: 'hop', name: 'Citra', amount: 10, amount_unit: 'g' });

  // The recipe page: cost and whether the stock covers each ingredient.
  await page.goto(`/recipes/${recipe.id}`);
  const stock = page.getByRole('region', { name: 'Stock and cost' });
  await expect(stock).toContainText('Batch cost 10.50');
  await expect(stock.getByRole('row', { name: /Citra/ })).toContainText('Short');
  await expect(stock.getByRole('row', { name: /Pale malt/ })).toContainText('In stock');
  await checkPage(page);

  // A brewing session offers the deduction: preview, take, put back.
  const session = await api<{ id: string }>(page.request, 'POST', '/v1/sessions', { recipe_id: recipe.id, brew_date: '2026-11-27', status: 'brewing' });
  await api(page.request, 'POST', `/v1/inventory/${citra.id}/adjust`, { delta: 100 });
  await page.goto(`/sessions/${session.id}`);
  const take = page.getByRole('region', { name: 'Take from inventory' });
  await expect(take.getByRole('row', { name: /Pale malt/ })).toContainText('4.5 kg');
  await take.getByRole('button', { name: 'Take from inventory' }).click();
  await expect(take.getByRole('button', { name: 'Put back in inventory' })).toBeVisible();
  await expect.poll(async () => (await api<{ amount: number }>(page.request, 'GET', `/v1/inventory/${malt.id}`)).amount).toBe(15.5);
  await checkPage(page);
  await take.getByRole('button', { name: 'Put back in inventory' }).click();
  await expect(take.getByRole('button', { name: 'Take from inventory' })).toBeVisible();
  await expect.poll(async () => (await api<{ amount: number }>(page.request, 'GET', `/v1/inventory/${malt.id}`)).amount).toBe(20);

  // The shopping list of the recipe: what the stock lacks.
  await page.goto('/shopping-list');
  await page.getByRole('checkbox', { name: 'Stock Pale', exact: true }).check();
  const list = page.getByRole('region', { name: 'To buy' });
  await expect(list).toContainText('US-05');
  await expect(list).toContainText('Crystal 40: 300 g');
  await checkPage(page);

  // US units: the inventory and the list follow the account's units.
  await api(page.request, 'PATCH', '/v1/me/preferences', { amounts: 'us' });
  await page.goto('/inventory');
  await expect(page.getByLabel('pale malt: 44.09 lb in stock')).toBeVisible();
  await page.goto(`/shopping-list?recipe_id=${recipe.id}`);
  await expect(page.getByRole('region', { name: 'To buy' })).toContainText('Crystal 40: 10.58 oz');
});

test('nothing of the brew in stock: one line instead of a card each, and no batch cost without prices', async ({ page }) => {
  await signUp(page);
  const recipe = await makeRecipe(page, 'No Stock Ale');
  await page.goto(`/recipes/${recipe.id}`);
  const stock = page.getByRole('region', { name: 'Stock and cost' });
  // A total of 0.00 would be no figure at all.
  await expect(stock).toContainText('No batch cost yet: none of these ingredients has a price.');
  await expect(stock).not.toContainText('Batch cost');

  const session = await api<{ id: string }>(page.request, 'POST', '/v1/sessions', { recipe_id: recipe.id, brew_date: '2026-11-27', status: 'brewing' });
  await page.goto(`/sessions/${session.id}`);
  const take = page.getByRole('region', { name: 'Take from inventory' });
  await expect(take).toContainText(/None of this brew’s 5 ingredients is in your inventory/);
  await expect(take.getByRole('button', { name: 'Take from inventory' })).toHaveCount(0);
  await expect(take.getByRole('row', { name: /Pale malt/ })).toBeHidden();
  await take.getByText('What this brew uses').click();
  await expect(take.getByRole('row', { name: /Pale malt/ })).toContainText('Not in stock');
  await checkPage(page);

  // One item in stock brings the whole table and the button back.
  await api(page.request, 'POST', '/v1/inventory', { category: 'hop', name: 'Magnum', amount: 100, amount_unit: 'g' });
  await page.reload();
  await expect(take.getByRole('button', { name: 'Take from inventory' })).toBeVisible();
  await expect(take.getByRole('row', { name: /Magnum/ })).toContainText('In stock');
});
