import { expect, test } from './fixtures';
import { api, checkPage, makeRecipe, signUp, navTo } from './helpers';

test('recipe list: search, sort, paging', async ({ page }) => {
  await signUp(page);
  for (let i = 0; i < 22; i++)
    await api(page.request, 'POST', '/v1/recipes', { name: `Batch ${String(i).padStart(2, '0')}`, style: i % 2 ? 'Stout' : 'Saison' });
  await page.goto('/recipes');
  await expect(page.getByText(/Page 1 of 2 · 22 recipes/)).toBeVisible();
  await checkPage(page);
  await page.getByRole('button', { name: 'Next page' }).click();
  await expect(page.getByText(/Page 2 of 2/)).toBeVisible();
  await expect(page.getByRole('list', { name: 'Recipes' }).getByRole('listitem')).toHaveCount(2);
  await page.getByLabel('Search').fill('stout');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByText(/11 recipes/)).toBeVisible();
  await page.getByLabel('Sort').selectOption('name');
  await expect(page.getByRole('list', { name: 'Recipes' }).getByRole('link').first()).toHaveText('Batch 01');
  await page.getByRole('link', { name: 'Batch 01' }).click();
  await expect(page.getByLabel('Name')).toHaveValue('Batch 01');
});

test('recipe editor: fields autosave, ingredients, statistics from the API, 422 at its field', async ({ page }) => {
  await signUp(page);
  await page.goto('/recipes');
  await page.getByRole('button', { name: 'New recipe' }).click();
  await expect(page).toHaveURL(/\/recipes\/[0-9a-f-]{36}$/);
  const stats = page.getByRole('region', { name: 'Statistics' });
  await expect(stats).toContainText('OG');
  await expect(stats).toContainText('1.000');

  await page.getByLabel('Name').fill('Brew Day IPA');
  await page.getByLabel('Style').fill('American IPA');
  await page.getByLabel('Style').blur();
  await expect(page.getByRole('heading', { level: 1, name: 'Brew Day IPA' })).toBeVisible();

  // Fermentable: add, then stats move.
  await page.getByLabel('New fermentable', { exact: true }).fill('Maris Otter');
  await page.getByLabel(/New fermentable amount/).fill('5');
  await page.getByRole('button', { name: 'Add fermentable' }).click();
  await expect(page.getByLabel('Fermentable 1', { exact: true })).toHaveValue('Maris Otter');
  await expect(stats.getByText('1.000')).toHaveCount(0);
  // OG from /stats: 5 kg at 80 % yield, 72 % efficiency in 20 L.
  const og = await stats.getByRole('definition').first().textContent();
  expect(Number(og)).toBeGreaterThan(1.04);

  await page.getByLabel('New hop', { exact: true }).fill('Centennial');
  await page.getByLabel(/New hop alpha acid/).fill('10');
  await page.getByLabel(/New hop amount/).fill('30');
  await page.getByRole('button', { name: 'Add hop' }).click();
  await expect(page.getByLabel('Hop 1', { exact: true })).toHaveValue('Centennial');
  await expect(stats).not.toContainText(/IBU\s*0$/);

  await page.getByLabel('New yeast', { exact: true }).fill('WLP001');
  await page.getByRole('button', { name: 'Add yeast' }).click();
  await page.getByLabel('New other ingredient', { exact: true }).fill('Irish moss');
  await page.getByRole('button', { name: 'Add other ingredient' }).click();
  await page.getByLabel('New mash step', { exact: true }).fill('Single infusion');
  await page.getByRole('button', { name: 'Add mash step' }).click();
  await expect(page.getByLabel('Mash step 1', { exact: true })).toHaveValue('Single infusion');
  await expect(page.getByLabel('Other ingredient 1', { exact: true })).toHaveValue('Irish moss');

  // Inline edit: more malt, OG goes up (from the API).
  const before = Number(await stats.getByRole('definition').first().textContent());
  await page.getByLabel(/Amount of fermentable 1/).fill('6');
  await page.getByLabel(/Amount of fermentable 1/).blur();
  await expect.poll(async () => Number(await stats.getByRole('definition').first().textContent())).toBeGreaterThan(before);

  // Reorder two fermentables.
  await page.getByLabel('New fermentable', { exact: true }).fill('Crystal 60');
  await page.getByRole('button', { name: 'Add fermentable' }).click();
  await expect(page.getByLabel('Fermentable 2', { exact: true })).toHaveValue('Crystal 60');
  await page.getByRole('button', { name: 'Move fermentable 2 up' }).click();
  await expect(page.getByLabel('Fermentable 1', { exact: true })).toHaveValue('Crystal 60');
  await page.getByRole('button', { name: /Remove fermentable 1/ }).click();
  await expect(page.getByLabel('Fermentable 2', { exact: true })).toHaveCount(0);

  // A 422 is shown at the field it names, and what was typed stays.
  await page.getByLabel('Batch size').fill('0');
  await page.getByLabel('Batch size').blur();
  await expect(page.getByLabel('Batch size')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Batch size')).toHaveAccessibleDescription(/Not saved/);
  await expect(page.getByLabel('Batch size')).toHaveValue('0');
  await page.getByLabel('Batch size').fill('23');
  await page.getByLabel('Batch size').blur();
  await expect(page.getByLabel('Batch size')).not.toHaveAttribute('aria-invalid', 'true');

  await expect(stats.getByRole('img', { name: /Colour swatch/ })).toBeVisible();
  await checkPage(page);

  // No lost edit on navigation.
  await page.getByLabel('Notes').fill('Dry hop on day 3');
  await navTo(page, 'Recipes');
  await expect(page.getByRole('heading', { level: 1, name: 'Recipes' })).toBeVisible();
  await page.getByRole('link', { name: 'Brew Day IPA' }).click();
  await expect(page.getByLabel('Notes')).toHaveValue('Dry hop on day 3');
  await expect(page.getByLabel('Batch size')).toHaveValue('23');
});

test('copy, delete with confirmation, brew, analyse without AI', async ({ page }) => {
  await signUp(page);
  const r = await makeRecipe(page, 'Oatmeal Stout');
  await page.goto(`/recipes/${r.id}`);
  await expect(page.getByRole('region', { name: 'Statistics' })).toContainText('ABV');

  await page.getByRole('button', { name: 'Analyse' }).click();
  await expect(page.getByRole('alert')).toContainText(/not configured/i);

  await page.getByRole('button', { name: 'Copy' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Oatmeal Stout (copy)' })).toBeVisible();
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Delete “Oatmeal Stout (copy)”?');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete recipe' }).click();
  await expect(page).toHaveURL(/\/recipes$/);
  await expect(page.getByRole('link', { name: 'Oatmeal Stout (copy)' })).toHaveCount(0);

  await page.getByRole('link', { name: 'Oatmeal Stout' }).click();
  await page.getByRole('button', { name: 'Brew this recipe' }).click();
  await page.getByRole('dialog').getByLabel('Brew date').fill('2026-12-05');
  await page.getByRole('dialog').getByRole('button', { name: 'Create brew session' }).click();
  await expect(page).toHaveURL(/\/sessions\/[0-9a-f-]{36}$/);
  await expect(page.getByText('Brew day 2026-12-05')).toBeVisible();
});

test("another account's recipe link is not found", async ({ browser, page }) => {
  await signUp(page);
  const mine = await makeRecipe(page, 'Secret Recipe');
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await signUp(otherPage, 'Eve');
  await otherPage.goto(`/recipes/${mine.id}`);
  await expect(otherPage.getByRole('heading', { name: 'Not found' })).toBeVisible();
  await expect(otherPage.getByText('Secret Recipe')).toHaveCount(0);
  await otherPage.goto('/recipes/not-a-uuid');
  await expect(otherPage.getByRole('heading', { name: 'Not found' })).toBeVisible();
  await otherPage.goto('/no/such/page');
  await expect(otherPage.getByRole('heading', { name: 'Not found' })).toBeVisible();
  await other.close();
});
