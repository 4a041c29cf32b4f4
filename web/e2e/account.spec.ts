import { expect, test } from './fixtures';
import { api, checkPage, hasPath, headers, makeRecipe, openMenu, signUp } from './helpers';

test('account: API keys are shown once, listed and deleted', async ({ page }) => {
  const me = await signUp(page, 'Key Keeper');
  await page.goto('/account');
  await expect(page.getByLabel('Email')).toHaveValue(me.email);
  await expect(page.getByText('No API keys yet.')).toBeVisible();
  await page.getByLabel('Key label').fill('iSpindel');
  await page.getByRole('button', { name: 'Create key' }).click();
  await expect(page.getByText('it will not be shown again')).toBeVisible();
  const key = await page.getByLabel('New API key').textContent();
  expect(key).toMatch(/^wort_[A-Za-z0-9]{43}$/);
  await expect(page.getByRole('button', { name: 'Copy key' })).toBeVisible();
  const res = await page.request.get('/v1/me', { headers: { 'X-API-Key': key! } });
  expect(res.status()).toBe(200);
  await expect(page.getByRole('table', { name: 'Your API keys' })).toContainText('iSpindel');
  await checkPage(page);
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByLabel('New API key')).toHaveCount(0);

  await page.getByRole('button', { name: 'Delete key iSpindel' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete key' }).click();
  await expect(page.getByText('No API keys yet.')).toBeVisible();

  await openMenu(page);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/signin/);
});

test('account: name, password and units', async ({ page }) => {
  test.skip(!(await hasPath(page, '/v1/me/preferences')), 'this server has no /v1/me/preferences yet');
  const me = await signUp(page, 'Unit Fan');
  const r = await makeRecipe(page, 'Units Ale');
  await page.goto('/account');

  await page.getByLabel('Name').fill('Unit Fanatic');
  await page.getByRole('button', { name: 'Save name' }).click();
  await expect(page.getByText('Name saved.')).toBeVisible();
  await openMenu(page);
  await expect(page.getByRole('banner').getByText('Unit Fanatic')).toBeVisible();

  // Wrong current password: said at the field.
  await page.getByLabel('Current password').fill('not my password');
  await page.getByLabel('New password').fill('a brand new password');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByLabel('Current password')).toHaveAttribute('aria-invalid', 'true');
  await page.getByLabel('Current password').fill(me.password);
  await expect(page.getByLabel('Sign out other devices')).toBeChecked();
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Password changed.')).toBeVisible();

  // Each choice saves on its own; wait until every one is in the account before moving on (a
  // navigation would cancel a save still in flight).
  await page.getByLabel('Amounts').selectOption('us');
  await expect(page.getByText('Units saved.')).toBeVisible();
  await page.getByLabel('Gravity').selectOption('plato');
  await page.getByLabel('Temperature').selectOption('f');
  await expect
    .poll(async () => await api<Record<string, string>>(page.request, 'GET', '/v1/me/preferences'))
    .toMatchObject({ amounts: 'us', gravity: 'plato', temperature: 'f' });
  await expect(page.getByText('Units saved.')).toBeVisible();
  await checkPage(page);

  // The recipe now reads in US units; 5 gal entered stays 5 gal.
  await page.goto(`/recipes/${r.id}`);
  await expect(page.getByLabel('Batch size (gal)')).toHaveValue('5.28');
  await page.getByLabel('Batch size (gal)').fill('5');
  await page.getByLabel('Batch size (gal)').blur();
  await expect
    .poll(async () => (await api<{ batch_size_liters: number }>(page.request, 'GET', `/v1/recipes/${r.id}`)).batch_size_liters)
    .toBeCloseTo(18.927, 2);
  await page.reload();
  await expect(page.getByLabel('Batch size (gal)')).toHaveValue('5');
  await expect(page.getByRole('region', { name: 'Statistics' })).toContainText('°P');
  void headers;
});
