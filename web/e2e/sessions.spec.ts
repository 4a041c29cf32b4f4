import { expect, test } from './fixtures';
import { api, checkPage, makeRecipe, signUp, statusMove } from './helpers';

test('brew session: status, checklist that saves, timer that survives a reload, readings, chart', async ({ page }) => {
  await signUp(page);
  const r = await makeRecipe(page, 'Session Pale');
  const s = await api<{ id: string }>(page.request, 'POST', '/v1/sessions', { recipe_id: r.id, brew_date: '2026-11-20' });

  await page.goto('/sessions');
  await expect(page.getByRole('heading', { name: /Planned/ })).toBeVisible();
  await checkPage(page);
  await page.getByRole('link', { name: 'Session Pale' }).click();
  await expect(page).toHaveURL(new RegExp(`/sessions/${s.id}$`));
  await expect(page.getByRole('heading', { name: /Status: Planned/ })).toBeVisible();

  // Checklist: a tick saves at once and survives a reload.
  const strike = page.getByRole('checkbox').first();
  await strike.check();
  await expect(page.getByText('1 of')).toBeVisible();
  // The boil timer: start it, reload, still counting down; the 60-minute hop is announced.
  const boil = page.getByRole('listitem').filter({ hasText: 'Bring to a boil' });
  await boil.getByRole('button', { name: 'Start timer' }).click();
  await expect(page.getByRole('status', { name: 'Boil additions' })).toContainText('Magnum');
  await page.waitForTimeout(1200);
  await page.reload();
  await expect(page.getByRole('checkbox').first()).toBeChecked();
  const timer = page.getByRole('timer', { name: /Bring to a boil/ });
  await expect(timer).toHaveText(/^59:5\d$|^59:4\d$/);
  await expect(page.getByRole('listitem').filter({ hasText: 'Bring to a boil' }).getByRole('button', { name: 'Pause timer' })).toBeVisible();

  // Status: the forward states and "abandon" are offered.
  await (await statusMove(page, 'Move to fermenting')).click();
  await expect(page.getByRole('heading', { name: /Status: Fermenting/ })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Move to brewing' })).toHaveCount(0);

  // Readings.
  await page.getByLabel('Gravity').fill('1.050');
  await page.getByLabel(/Temperature/).fill('19');
  await page.getByRole('button', { name: 'Add reading' }).click();
  await expect(page.getByRole('table', { name: 'Readings, newest first' })).toContainText('1.050');
  await page.getByLabel('Gravity').fill('1.020');
  await page.getByLabel('pH', { exact: true }).fill('4.4');
  await page.getByLabel('Notes').fill('Krausen dropped');
  await page.getByRole('button', { name: 'Add reading' }).click();
  await expect(page.getByRole('table', { name: 'Readings, newest first' })).toContainText('Krausen dropped');
  await expect(page.getByRole('figure', { name: 'Fermentation chart' })).toBeVisible();
  await expect(page.getByRole('figure', { name: 'Fermentation chart' })).toContainText('2 readings');
  await expect(page.getByText('Latest gravity', { exact: true })).toBeVisible();
  await expect(page.getByLabel('Fermentation so far')).toContainText('%');

  // A reading out of range: the API's 422 at its field, nothing added.
  await page.getByLabel('Gravity').fill('2.5');
  await page.getByRole('button', { name: 'Add reading' }).click();
  await expect(page.getByLabel('Gravity')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Gravity')).toHaveValue('2.5');
  await checkPage(page);
});
