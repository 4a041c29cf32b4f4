import { expect, test } from './fixtures';
import { api, checkPage, signUp } from './helpers';

test('inventory: add, use, add stock, below zero refused, edit, delete', async ({ page }) => {
  await signUp(page);
  await page.goto('/inventory');
  await expect(page.getByText('Nothing in stock yet')).toBeVisible();
  await checkPage(page);

  await page.getByLabel('Category').selectOption('hop');
  await page.getByLabel('Name').fill('Citra');
  await page.getByLabel('Amount').fill('100');
  await page.getByRole('button', { name: 'Add item' }).click();
  await expect(page.getByRole('heading', { name: 'Hops' })).toBeVisible();
  await expect(page.getByLabel('Citra: 100 g in stock')).toBeVisible();

  const delta = page.getByLabel('Quantity to use or add for Citra');
  await delta.fill('30');
  await page.getByRole('button', { name: 'Use Citra' }).click();
  await expect(page.getByLabel('Citra: 70 g in stock')).toBeVisible();
  await delta.fill('5');
  await page.getByRole('button', { name: 'Add stock of Citra' }).click();
  await expect(page.getByLabel('Citra: 75 g in stock')).toBeVisible();

  // Below zero: the API's error, nothing changed.
  await delta.fill('500');
  await page.getByRole('button', { name: 'Use Citra' }).click();
  await expect(page.getByRole('alert')).toContainText(/below zero/);
  await expect(page.getByLabel('Citra: 75 g in stock')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Citra: 75 g in stock')).toBeVisible();

  // Missing name: the 422 at the field.
  await page.getByRole('button', { name: 'Add item' }).click();
  await expect(page.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true');

  await page.getByRole('button', { name: 'Edit Citra' }).click();
  await page.getByLabel('Item Name').fill('Citra T90');
  await page.getByRole('button', { name: 'Save item' }).click();
  await expect(page.getByRole('heading', { name: 'Citra T90' })).toBeVisible();
  await checkPage(page);

  await page.getByRole('button', { name: 'Delete Citra T90' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete item' }).click();
  await expect(page.getByText('Nothing in stock yet')).toBeVisible();
});

test('inventory: more items than a page, every one reachable', async ({ page }) => {
  await signUp(page);
  // The page holds 50; the API sorts by category, then name: "Salt 51" and "Salt 52" are on page 2.
  for (let i = 1; i <= 52; i++)
    await api(page.request, 'POST', '/v1/inventory', { category: 'misc', name: `Salt ${String(i).padStart(2, '0')}`, amount: i, amount_unit: 'g' });
  await page.goto('/inventory');
  const pager = page.getByRole('navigation', { name: 'Inventory pages' });
  await expect(pager).toContainText('Page 1 of 2 · 52 items');
  await expect(page.getByLabel('Salt 01: 1 g in stock')).toBeVisible();
  await expect(page.getByLabel('Salt 52: 52 g in stock')).toHaveCount(0);
  await checkPage(page);

  await pager.getByRole('button', { name: 'Next page' }).click();
  await expect(pager).toContainText('Page 2 of 2');
  await expect(page.getByLabel('Salt 52: 52 g in stock')).toBeVisible();
  await expect(page.getByLabel('Salt 01: 1 g in stock')).toHaveCount(0);
  await expect(pager.getByRole('button', { name: 'Next page' })).toBeDisabled();
  await page.reload();
  await expect(page.getByLabel('Salt 51: 51 g in stock')).toBeVisible();

  // The last page emptied: back to the page before it, without a pager for one page.
  for (const name of ['Salt 51', 'Salt 52']) {
    await page.getByRole('button', { name: `Delete ${name}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete item' }).click();
  }
  await expect(page.getByLabel('Salt 50: 50 g in stock')).toBeVisible();
  await expect(pager).toHaveCount(0);
});
