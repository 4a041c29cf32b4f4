import { expect, test } from './fixtures';
import { api, checkPage, navTo, signUp } from './helpers';

test('mqtt: set up a broker on the LAN, see it saved with its password, edit it, delete it', async ({ page }) => {
  await signUp(page);
  await page.goto('/recipes');
  await navTo(page, 'MQTT');
  await expect(page.getByRole('heading', { level: 1, name: 'MQTT and Home Assistant' })).toBeVisible();
  const what = page.getByRole('region', { name: 'What wort publishes' });
  await expect(what).toContainText('<prefix>/sessions/<id>/reading');
  await expect(what).toContainText('<prefix>/alerts');
  await expect(what).toContainText('gravity, temperature and ABV sensors');
  await expect(page.getByRole('button', { name: 'Delete broker' })).toHaveCount(0);
  await checkPage(page);

  // Not an MQTT address: the API's 422 at the URL field. (Whether a loopback broker is refused
  // depends on the server's WORT_WEBHOOK_ALLOW_PRIVATE, which the test server sets.)
  await page.getByLabel('Broker URL').fill('http://192.168.1.20:1883');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByLabel('Broker URL')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('alert')).toContainText('correct the marked fields');

  await page.getByLabel('Broker URL').fill('mqtt://192.168.1.20:1883');
  await page.getByLabel('Username').fill('brewer');
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill('hunter2hunter2');
  await page.getByRole('button', { name: 'Save', exact: true }).click();

  const status = page.getByRole('region', { name: 'Status' });
  await expect(status).toContainText(/Last published\s*never/);
  await expect(status).toContainText(/Pending messages\s*0/);
  await expect(page.getByLabel('Broker URL')).toHaveValue('mqtt://192.168.1.20:1883');
  await expect(page.getByRole('textbox', { name: 'Password', exact: true })).toHaveValue('');
  await expect(page.getByRole('textbox', { name: 'Password', exact: true })).toHaveAccessibleDescription('Leave empty to keep the saved password.');
  const saved = await api<{ has_password: boolean; username: string; enabled: boolean }>(page.request, 'GET', '/v1/integrations/mqtt');
  expect(saved).toMatchObject({ has_password: true, username: 'brewer', enabled: true });
  await checkPage(page);

  // Edit: a new topic prefix, switched off; the password is kept.
  await page.reload();
  await page.getByLabel('Topic prefix').fill('cellar');
  await page.getByLabel('Enabled').uncheck();
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  await expect(status).toContainText('Switched off');
  await expect(status).toContainText('cellar/alerts');
  expect(await api(page.request, 'GET', '/v1/integrations/mqtt')).toMatchObject({ topic_prefix: 'cellar', enabled: false, has_password: true });
  await page.screenshot({ path: test.info().outputPath('mqtt.png'), fullPage: true });

  // Delete, with a confirmation.
  await page.getByRole('button', { name: 'Delete broker' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete the MQTT broker?' });
  await dialog.getByRole('button', { name: 'Delete the broker' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('region', { name: 'What wort publishes' })).toContainText('The broker was removed');
  await expect(page.getByLabel('Broker URL')).toHaveValue('');
  const gone = await page.request.get('/v1/integrations/mqtt');
  expect(gone.status()).toBe(404);
});
