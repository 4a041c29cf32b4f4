import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { api, checkPage, hasPath, makeRecipe, signUp } from './helpers';

interface Recipe {
  id: string;
  name: string;
  efficiency: number;
  notes?: string | null;
  fermentables: { id: string; name: string; amount_kg: number }[];
}

async function skipWithoutHistory(page: Page) {
  test.skip(!(await hasPath(page, '/v1/recipes/{id}/versions')), 'this server has no recipe history yet');
}

/** Opens the History panel (its versions are asked for only then). */
async function openHistory(page: Page) {
  const toggle = page.getByRole('button', { name: 'History', exact: true });
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  return page.getByRole('region', { name: 'History' });
}

test('history: name a version, see what the next one changed, restore it', async ({ page }) => {
  await signUp(page);
  await skipWithoutHistory(page);
  const r = await makeRecipe(page, 'History Pale');
  await api(page.request, 'PATCH', `/v1/recipes/${r.id}`, { efficiency: 0.7 });
  let asked = 0;
  page.on('request', (req) => {
    if (new URL(req.url()).pathname.includes('/versions')) asked++;
  });
  await page.goto(`/recipes/${r.id}`);
  await expect(page.getByRole('heading', { name: 'History Pale', level: 1 })).toBeVisible();
  expect(asked, 'no versions before the panel opens').toBe(0);

  // One open version: the recipe as it is now.
  const history = await openHistory(page);
  const versions = history.getByRole('list', { name: 'Versions' });
  await expect(versions.getByRole('listitem')).toHaveCount(1);
  await expect(versions.getByRole('listitem').first()).toContainText('Current');

  // Naming it closes it.
  await history.getByLabel('Version name').fill('First brew');
  await history.getByRole('button', { name: 'Save version' }).click();
  await expect(history.getByText('Saved as “First brew”.')).toBeVisible();
  await expect(history.getByRole('heading', { name: /^First brew/ })).toBeVisible();
  await expect(history.getByLabel('Version name')).toHaveValue('');

  // Edits after it make version 2, the current one.
  const efficiency = page.getByLabel('Efficiency (%)');
  await efficiency.fill('78');
  await efficiency.blur();
  const amount = page.getByLabel('Amount of fermentable 1 (kg)');
  await amount.fill('5');
  await amount.blur();
  const v2 = versions.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Version 2' }) });
  await expect(v2).toContainText('Current');
  await expect(versions.getByRole('listitem').filter({ hasText: 'First brew' })).not.toContainText('Current');

  // What version 2 changed, in the account's units.
  await v2.getByRole('button', { name: 'Show changes in version 2' }).click();
  await expect(v2.getByRole('heading', { name: 'Changes from version 1' })).toBeVisible();
  await expect(v2.getByRole('list', { name: 'Recipe' })).toContainText('Efficiency: 70 % → 78 %');
  await expect(v2.getByRole('list', { name: 'Fermentables' })).toContainText('Fermentable Pale malt changed: amount 4.5 kg → 5 kg');
  await checkPage(page);

  // Restore version 1, with a confirm step.
  const v1 = versions.getByRole('listitem').filter({ hasText: 'First brew' });
  await v1.getByRole('button', { name: 'Show changes in version 1' }).click();
  await v1.getByRole('button', { name: 'Restore version 1' }).click();
  const dialog = page.getByRole('dialog', { name: 'Restore version 1?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Restore', exact: true }).click();
  await expect(dialog).toHaveCount(0);
  await expect(history.getByText(/Restored version 1: the recipe is as it was then/)).toBeVisible();
  const restored = versions.getByRole('listitem').filter({ has: page.getByRole('heading', { name: /^Restored version 1/ }) });
  await expect(restored).toContainText('Current');

  // The page shows the recipe as it was, and so does the API.
  await expect(efficiency).toHaveValue('70');
  await expect(amount).toHaveValue('4.5');
  const now = await api<Recipe>(page.request, 'GET', `/v1/recipes/${r.id}`);
  expect(now.efficiency).toBeCloseTo(0.7);
  expect(now.fermentables.find((f) => f.name === 'Pale malt')?.amount_kg).toBeCloseTo(4.5);
});

test('lineage: a copy says where it came from, the original lists its copies', async ({ page }) => {
  await signUp(page);
  await skipWithoutHistory(page);
  const r = await makeRecipe(page, 'Lineage Pale');
  const copy = await api<{ id: string; name: string }>(page.request, 'POST', `/v1/recipes/${r.id}/copy`);

  await page.goto(`/recipes/${copy.id}`);
  let history = await openHistory(page);
  await expect(history.getByText(/Copied from Lineage Pale \(version \d+\)\./)).toBeVisible();
  await history.getByRole('link', { name: 'Lineage Pale' }).click();
  await expect(page).toHaveURL(new RegExp(`/recipes/${r.id}$`));

  history = await openHistory(page);
  const copies = history.getByRole('list', { name: 'Copies' });
  await expect(copies.getByRole('link', { name: copy.name })).toHaveAttribute('href', `/recipes/${copy.id}`);
  await checkPage(page);
});

test('sharing: a public link, its page, a copy in another account, and stopping it', async ({ browser, page }, testInfo) => {
  await signUp(page);
  await skipWithoutHistory(page);
  const r = await makeRecipe(page, 'Shared Pale');
  await api(page.request, 'PATCH', `/v1/recipes/${r.id}`, { notes: 'Mash at 67 for the body' });
  await page.goto(`/recipes/${r.id}`);

  await page.getByRole('button', { name: 'Share', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Share “Shared Pale”' });
  await expect(dialog).toContainText('Anyone with the link can see this recipe, and nothing else of your account.');
  await expect(dialog.getByRole('status').filter({ hasText: 'Not shared.' })).toBeVisible();
  await expect(dialog.getByLabel('Include notes')).not.toBeChecked();
  await dialog.getByRole('button', { name: 'Create link' }).click();
  const linkField = dialog.getByLabel('Share link');
  await expect(linkField).toHaveValue(/\/shared\/[^/]+$/);
  await expect(dialog.getByRole('button', { name: 'Copy link' })).toBeVisible();
  await checkPage(page);
  const link = new URL(await linkField.inputValue());
  const token = link.pathname.split('/').pop()!;

  // The public page: the server's plain HTML, without the notes.
  const publicPage = await page.context().newPage();
  await publicPage.goto(link.pathname);
  await expect(publicPage.locator('body')).toContainText('Shared Pale');
  await expect(publicPage.locator('body')).not.toContainText('Mash at 67 for the body');
  await expect(publicPage.locator('#root')).toHaveCount(0);
  await expect(publicPage.getByRole('link', { name: 'Copy to my recipes' })).toHaveAttribute('href', new RegExp(`/copy/${token}$`));

  // With the notes: the same link shows them.
  await dialog.getByLabel('Include notes').check();
  await expect.poll(async () => (await api<{ include_notes: boolean }>(page.request, 'GET', `/v1/recipes/${r.id}/share`)).include_notes).toBe(true);
  await expect(linkField).toHaveValue(link.href);
  await publicPage.reload();
  await expect(publicPage.locator('body')).toContainText('Mash at 67 for the body');

  // Another brewer, signed out: signs in first, then copies it into their recipes.
  const other = await browser.newContext({ ...testInfo.project.use });
  const otherPage = await other.newPage();
  await otherPage.goto(`/copy/${token}`);
  await expect(otherPage).toHaveURL(/\/signin\?next=%2Fcopy%2F/);
  await signUp(otherPage, 'Bea Brewer');
  await otherPage.reload();
  await expect(otherPage.getByRole('heading', { name: 'Copy a shared recipe' })).toBeVisible();
  await checkPage(otherPage);
  await otherPage.getByRole('button', { name: 'Copy to my recipes' }).click();
  await expect(otherPage).toHaveURL(/\/recipes\/[0-9a-f-]{36}$/);
  await expect(otherPage.getByRole('heading', { name: 'Shared Pale', level: 1 })).toBeVisible();
  const copyId = otherPage.url().split('/').pop()!;
  expect(copyId).not.toBe(r.id);
  // The copy names the link it came from, not the other account's recipe.
  const copyHistory = await openHistory(otherPage);
  await expect(copyHistory.getByRole('link', { name: 'a shared recipe' })).toHaveAttribute('href', link.href);

  // Stopping: the link is gone at once, for the page and for copying.
  await dialog.getByRole('button', { name: 'Stop sharing' }).click();
  await expect(dialog.getByRole('status').filter({ hasText: 'Not shared: the link no longer works.' })).toBeVisible();
  await expect(linkField).toHaveCount(0);
  expect((await page.request.get(link.pathname)).status()).toBe(404);
  await otherPage.goto(`/copy/${token}`);
  await otherPage.getByRole('button', { name: 'Copy to my recipes' }).click();
  await expect(otherPage.getByText('This link is no longer shared.')).toBeVisible();

  // Sharing again makes a new link.
  await dialog.getByRole('button', { name: 'Create link' }).click();
  await expect(linkField).toHaveValue(/\/shared\/[^/]+$/);
  expect(new URL(await linkField.inputValue()).pathname).not.toBe(link.pathname);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Share', exact: true })).toBeFocused();
  await other.close();
});

test('compare: how a recipe differs from another of the account', async ({ page }) => {
  await signUp(page);
  test.skip(!(await hasPath(page, '/v1/recipes/{id}/diff')), 'this server cannot compare two recipes yet');
  const mine = await makeRecipe(page, 'Compare Pale');
  const other = await makeRecipe(page, 'Compare IPA');
  await api(page.request, 'PATCH', `/v1/recipes/${mine.id}`, { efficiency: 0.7 });
  await api(page.request, 'PATCH', `/v1/recipes/${other.id}`, { efficiency: 0.75 });
  await api(page.request, 'POST', `/v1/recipes/${other.id}/hops`, { name: 'Simcoe', alpha_acid: 13, amount_grams: 40, time_minutes: 0 });
  let compared = 0;
  page.on('request', (req) => {
    if (new URL(req.url()).pathname.endsWith('/diff')) compared++;
  });

  await page.goto(`/recipes/${mine.id}`);
  await expect(page.getByRole('heading', { name: 'Compare Pale', level: 1 })).toBeVisible();
  const history = await openHistory(page);
  const select = history.getByLabel('Compare with', { exact: true });
  await expect(select.getByRole('option', { name: 'Compare IPA' })).toHaveCount(1);
  await expect(select.getByRole('option', { name: 'Compare Pale' })).toHaveCount(0);
  expect(compared, 'nothing compared before a recipe is chosen').toBe(0);

  await select.selectOption({ label: 'Compare IPA' });
  const form = history.getByRole('form', { name: 'Compare with another recipe' });
  await expect(form.getByRole('heading', { name: 'Differences from Compare IPA' })).toBeVisible();
  // The other recipe's value first, this one's after.
  await expect(form.getByRole('list', { name: 'Recipe' })).toContainText('Efficiency: 75 % → 70 %');
  await expect(form.getByRole('list', { name: 'Hops' })).toContainText('Hop Simcoe: only in Compare IPA');
  await checkPage(page);
});
