// The brew floor forgiving (a deduction that takes what is on hand), the account's currency on
// costs (fully visible at 1366×768 and on a phone), and the water targets by beer.
// WORT_SCREENSHOTS=1 also saves docs/screenshots/partial-deduction.png (desktop) and the recipe's
// Stock and cost panel in euros (recipe-stock-currency-{phone,desktop}.png, desktop at 1366×768).
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { api, checkPage, navTo, signUp } from './helpers';

const shotDir = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));

/** 5 kg Maris Otter and 2 oz of Chinook, against 25 kg of malt and 0.75 oz of Chinook (1.25 oz short). */
async function chinookShort(page: Page) {
  const r = await api<{ id: string }>(page.request, 'POST', '/v1/recipes', { name: 'Chinook Pale', batch_size_liters: 20, boil_time_minutes: 60 });
  await api(page.request, 'POST', `/v1/recipes/${r.id}/fermentables`, { name: 'Maris Otter', amount_kg: 5, color_srm: 3, yield_percent: 80 });
  await api(page.request, 'POST', `/v1/recipes/${r.id}/hops`, { name: 'Chinook', alpha_acid: 13, amount_grams: 2 * 28.349523125, time_minutes: 60 });
  const malt = await api<{ id: string }>(page.request, 'POST', '/v1/inventory', {
    category: 'fermentable',
    name: 'Maris Otter',
    amount: 25,
    amount_unit: 'kg',
    price_per_unit: 2.4,
  });
  const hop = await api<{ id: string }>(page.request, 'POST', '/v1/inventory', {
    category: 'hop',
    name: 'Chinook',
    amount: 0.75,
    amount_unit: 'oz',
    price_per_unit: 2,
  });
  return { recipe: r, malt, hop };
}

const amountOf = async (page: Page, id: string) => (await api<{ amount: number }>(page.request, 'GET', `/v1/inventory/${id}`)).amount;

test('a short brew takes what is on hand, shows the new amounts at once, lists the rest and puts back exactly', async ({ page }, info) => {
  await signUp(page);
  await api(page.request, 'PATCH', '/v1/me/preferences', { currency: 'USD' });
  const { recipe, malt, hop } = await chinookShort(page);
  const session = await api<{ id: string }>(page.request, 'POST', '/v1/sessions', { recipe_id: recipe.id, brew_date: '2026-11-29', status: 'brewing' });

  // The inventory page first, so its answer is in the app's cache when the stock changes.
  await page.goto('/inventory');
  await expect(page.getByLabel('Maris Otter: 25 kg in stock')).toBeVisible();
  await expect(page.getByText('$2.40 per kg')).toBeVisible();
  await page.goto(`/sessions/${session.id}`);
  const take = page.getByRole('region', { name: 'Take from inventory' });
  await expect(take.getByRole('row', { name: /Chinook/ })).toContainText('Short');
  await expect(take).toContainText('One ingredient is short.');
  await checkPage(page);

  await take.getByRole('button', { name: 'Take what is on hand' }).click();
  // At once: what was taken and what each item holds now.
  const chinook = take.getByRole('row', { name: /Chinook/ });
  await expect(take.getByRole('button', { name: 'Put back in inventory' })).toBeVisible();
  await expect(take.getByRole('columnheader', { name: 'On hand now' })).toBeAttached();
  await expect(chinook.locator('td[data-label="Taken"]')).toHaveText('0.75 oz');
  await expect(chinook.locator('td[data-label="On hand now"]')).toHaveText('0 oz');
  await expect(chinook).toContainText('1.25 oz still missing');
  await expect(take.getByRole('row', { name: /Maris Otter/ }).locator('td[data-label="On hand now"]')).toHaveText('20 kg');
  await expect(take.getByRole('status')).toContainText('still missing is on the shopping list');
  expect(await amountOf(page, hop.id)).toBe(0);
  expect(await amountOf(page, malt.id)).toBe(20);
  await checkPage(page);
  if (process.env.WORT_SCREENSHOTS && info.project.name === 'desktop') {
    await take.scrollIntoViewIfNeeded();
    await take.screenshot({ path: `${shotDir}partial-deduction.png` });
  }

  // The inventory page, reached inside the app, shows the new amounts (not its cached ones).
  await navTo(page, 'Inventory');
  await expect(page.getByLabel('Maris Otter: 20 kg in stock')).toBeVisible();
  await expect(page.getByLabel('Chinook: 0 g in stock')).toBeVisible();

  // The shortfall is on the session's shopping list.
  await page.goto(`/sessions/${session.id}`);
  await take.getByRole('link', { name: 'shopping list' }).click();
  await expect(page.getByRole('checkbox', { name: 'Chinook Pale (2026-11-29)' })).toBeChecked();
  await expect(page.getByRole('region', { name: 'To buy' })).toContainText('Chinook: 1.25 oz');

  // Putting back returns exactly what was taken: 0.75 oz, not the 2 oz the recipe asks.
  await page.goto(`/sessions/${session.id}`);
  await take.getByRole('button', { name: 'Put back in inventory' }).click();
  await expect(take.getByRole('button', { name: 'Take what is on hand' })).toBeVisible();
  await expect(take.getByRole('row', { name: /Chinook/ }).locator('td[data-label="On hand"]')).toHaveText('0.75 oz');
  expect(await amountOf(page, hop.id)).toBe(0.75);
  expect(await amountOf(page, malt.id)).toBe(25);
});

/** The region holds its content without cutting it: nothing scrolls sideways and every cost cell is inside. */
async function expectCostsWhole(region: Locator) {
  const scroller = region.getByRole('region', { name: /Ingredients against the stock/ });
  const { scrollWidth, clientWidth } = await scroller.evaluate((el) => ({ scrollWidth: el.scrollWidth, clientWidth: el.clientWidth }));
  expect(scrollWidth, 'the stock table scrolls sideways').toBeLessThanOrEqual(clientWidth + 1);
  const box = await scroller.boundingBox();
  const cells = region.locator('td[data-label="Cost"]');
  expect(await cells.count()).toBe(2);
  for (const cell of await cells.all()) {
    await expect(cell).toBeVisible();
    const c = await cell.boundingBox();
    expect(c && box && c.x + c.width <= box.x + box.width + 1, 'a cost cell is cut off').toBe(true);
  }
}

test('the currency chosen on the account page writes costs with its symbol, whole at 1366×768 and on a phone', async ({ page }, info) => {
  if (info.project.name === 'desktop') await page.setViewportSize({ width: 1366, height: 768 });
  await signUp(page);
  const { recipe } = await chinookShort(page);

  // Without a currency: plain numbers, as before.
  await page.goto(`/recipes/${recipe.id}`);
  const stock = page.getByRole('region', { name: 'Stock and cost' });
  // 5 kg × 2.40 = 12.00 and 2 oz × 2.00 = 4.00 (a cost counts what the recipe needs).
  await expect(stock).toContainText('Batch cost 16.00');

  await navTo(page, 'Account');
  const currency = page.getByRole('region', { name: 'Currency' });
  await currency.getByLabel('Currency').selectOption({ label: 'EUR — Euro' });
  await expect(currency.getByRole('status')).toHaveText('Currency saved.');
  await expect(currency).toContainText('Example: €12.50');
  await checkPage(page);
  expect((await api<{ currency: string | null }>(page.request, 'GET', '/v1/me/preferences')).currency).toBe('EUR');

  await navTo(page, 'Recipes');
  await page.getByRole('link', { name: 'Chinook Pale' }).click();
  await expect(stock).toContainText('Batch cost €16.00');
  await expect(stock).toContainText('€0.80 per litre');
  await expect(stock.getByRole('row', { name: /Maris Otter/ })).toContainText('€12.00');
  await expectCostsWhole(stock);
  await checkPage(page);
  if (process.env.WORT_SCREENSHOTS) await stock.screenshot({ path: `${shotDir}recipe-stock-currency-${info.project.name}.png` });

  // Back to none: plain numbers again.
  await page.goto('/account');
  await currency.getByLabel('Currency').selectOption({ label: 'None (plain numbers)' });
  await expect(currency.getByRole('status')).toHaveText('Currency saved.');
  await page.goto(`/recipes/${recipe.id}`);
  await expect(stock).toContainText('Batch cost 16.00');
});

test('the Water panel offers the targets by beer first, then the cities, with their source', async ({ page }) => {
  await signUp(page);
  const { recipe } = await chinookShort(page);
  await page.goto(`/recipes/${recipe.id}`);
  const panel = page.getByRole('region', { name: 'Water', exact: true });
  const target = panel.getByLabel('Target water');
  await expect(target.locator('optgroup').first()).toHaveAttribute('label', 'By beer');
  await expect(target.locator('optgroup').nth(1)).toHaveAttribute('label', 'Cities');
  const byBeer = await target.locator('optgroup[label="By beer"] option').allTextContents();
  expect(byBeer).toEqual(expect.arrayContaining(['Pale and hoppy', 'Balanced', 'Malty', 'Amber', 'Dark and roasty', 'Light lager']));
  await expect(target.locator('optgroup[label="Cities"] option', { hasText: 'Munich' })).toBeAttached();
  await target.selectOption({ label: 'Pale and hoppy' });
  await expect(panel.getByRole('columnheader', { name: 'Target' })).toBeVisible();
  await expect(panel.getByRole('row', { name: /^Sulfate .* 275$/ })).toBeVisible();
  await expect(panel).toContainText('Target “Pale and hoppy”: Sulfate-forward');
  await expect(panel).toContainText('not a published profile');
  await checkPage(page);
});
