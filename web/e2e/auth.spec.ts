import { expect, test } from './fixtures';
import { checkPage, headers, openMenu, uniqueEmail } from './helpers';

test('sign up, sign out, and back to where I was after signing in', async ({ page }) => {
  const email = uniqueEmail();
  await page.goto('/signup');
  await checkPage(page);
  await page.getByLabel('Name').fill('Grace Hopper');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('a long enough password');
  await page.getByRole('button', { name: 'Sign up' }).click();
  // The home page: what is happening (nothing yet), then the recipes.
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
  await expect(page.getByText('Nothing is brewing or fermenting')).toBeVisible();
  await expect(page.getByText('No recipes yet')).toBeVisible();
  await openMenu(page);
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const link of ['Home', 'Recipes', 'Brew sessions', 'Inventory', 'Assistant', 'Account'])
    await expect(nav.getByRole('link', { name: link })).toBeVisible();
  await expect(page.getByText('Grace Hopper')).toBeVisible();
  await checkPage(page);

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/signin/);

  await page.goto('/inventory?x=1');
  await expect(page).toHaveURL(/\/signin\?next=/);
  await checkPage(page);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('a long enough password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/inventory\?x=1$/);
  await expect(page.getByRole('heading', { name: 'Inventory', level: 1 })).toBeVisible();
});

test('wrong password says so and stays on sign-in', async ({ page }) => {
  const account = { name: 'Pat', email: uniqueEmail(), password: 'the right password' };
  expect((await page.request.post('/api/auth/sign-up/email', { data: account, headers })).status()).toBe(200);
  await page.request.post('/api/auth/sign-out', { headers });
  await page.context().clearCookies();
  await page.goto('/signin');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill('not the password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toContainText('Invalid email or password');
  await expect(page).toHaveURL(/\/signin/);
  await expect(page.getByLabel('Password')).toHaveValue('not the password');
});

test('a 422 on sign-up is shown at the field it names', async ({ page }) => {
  await page.goto('/signup');
  await page.getByLabel('Name').fill('Short');
  await page.getByLabel('Email').fill(uniqueEmail());
  await page.getByLabel('Password').fill('short');
  await page.getByRole('button', { name: 'Sign up' }).click();
  const password = page.getByLabel('Password');
  await expect(password).toHaveAttribute('aria-invalid', 'true');
  await expect(password).toHaveAccessibleDescription(/8/);
  await expect(page).toHaveURL(/\/signup/);
  await expect(page.getByRole('link', { name: 'Sign in' })).toBeVisible();
});

test('keyboard only: sign in, open a recipe, confirm dialog closes with Escape', async ({ page }) => {
  const account = { name: 'Keys', email: uniqueEmail(), password: 'keyboard only please' };
  expect((await page.request.post('/api/auth/sign-up/email', { data: account, headers })).status()).toBe(200);
  await page.request.post('/v1/recipes', { data: { name: 'Keyboard Kölsch' }, headers });
  await page.request.post('/api/auth/sign-out', { headers });
  await page.context().clearCookies();
  await page.goto('/signin');
  await page.getByLabel('Email').focus();
  await page.keyboard.type(account.email);
  await page.keyboard.press('Tab');
  await page.keyboard.type(account.password);
  await page.keyboard.press('Enter');
  // Home lists the recent recipes.
  await expect(page).toHaveURL(/\/$/);
  const link = page.getByRole('link', { name: 'Keyboard Kölsch' });
  await link.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByLabel('Name')).toHaveValue('Keyboard Kölsch');
  await page.getByRole('button', { name: 'Delete', exact: true }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();
  await expect(page.getByLabel('Name')).toHaveValue('Keyboard Kölsch');
});
