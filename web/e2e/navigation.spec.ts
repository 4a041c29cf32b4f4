import { expect, test } from './fixtures';
import { checkPage, makeRecipe, navTo, signUp } from './helpers';

test('navigation: one header row on a phone, page titles, focus on the heading and back to the opener', async ({ page }, info) => {
  await signUp(page);
  const recipe = await makeRecipe(page, 'Focus Stout');
  await page.goto('/recipes');
  await expect(page.getByRole('heading', { level: 1, name: 'Recipes' })).toBeVisible();
  await expect(page).toHaveTitle('Recipes · wort');

  const header = page.locator('header.top');
  const menu = page.getByRole('button', { name: 'Menu', exact: true });
  if (info.project.name === 'phone') {
    // The links sit behind one button: the header is a single row, not four.
    const box = await header.boundingBox();
    expect(box?.height ?? 999).toBeLessThan(70);
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Recipes' })).toBeHidden();
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await menu.click();
    await expect(page.getByRole('button', { name: 'Close menu' })).toHaveAttribute('aria-expanded', 'true');
    await checkPage(page);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Inventory' }).focus();
    await page.keyboard.press('Escape');
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await expect(menu).toBeFocused();
  } else {
    await expect(menu).toBeHidden();
  }

  // After a navigation the new page's heading has focus and names the tab.
  await navTo(page, 'Brew sessions');
  await expect(page.getByRole('heading', { level: 1, name: 'Brew sessions' })).toBeFocused();
  await expect(page).toHaveTitle('Brew sessions · wort');
  if (info.project.name === 'phone') await expect(menu).toHaveAttribute('aria-expanded', 'false');

  await navTo(page, 'Recipes');
  await page.getByRole('link', { name: 'Focus Stout' }).click();
  await expect(page).toHaveURL(new RegExp(`/recipes/${recipe.id}$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Focus Stout' })).toBeFocused();
  await expect(page).toHaveTitle('Focus Stout · wort');

  // A dialog hands focus back to the button that opened it.
  const del = page.getByRole('button', { name: 'Delete', exact: true });
  await del.click();
  const dialog = page.getByRole('dialog', { name: 'Delete “Focus Stout”?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(del).toBeFocused();
});
