// Alerts: a rule made in the web app, readings posted through the API raise a temperature alert,
// the header counts it, the Alerts page acknowledges it, the session page shows it; US units;
// editing, turning off and deleting the rule.
// WORT_SCREENSHOTS=1 also saves the phone's header with the count (docs/screenshots/
// alerts-header-phone.png); the pages themselves are in `npm run screenshots`.
import { fileURLToPath } from 'node:url';
import { expect, test } from './fixtures';
import { api, checkPage, makeRecipe, signUp } from './helpers';

const shotDir = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));

test('alerts: a rule from the form, a reading raises an alert, the header counts it, acknowledge; on the session; US units', async ({ page }, info) => {
  await signUp(page);
  const r = await makeRecipe(page, 'Alert Pale');
  const s = await api<{ id: string; name: string }>(page.request, 'POST', '/v1/sessions', { recipe_id: r.id, brew_date: '2026-11-20', status: 'fermenting' });

  // Nothing yet: the header says "Alerts" and nothing more; the page explains and links the rules.
  await page.goto('/alerts');
  await expect(page.getByRole('heading', { level: 1, name: 'Alerts' })).toBeVisible();
  const header = page.locator('header.top');
  const alertsLink = header.getByRole('link', { name: /^Alerts/ });
  await expect(alertsLink).toBeVisible();
  await expect(alertsLink).toHaveAccessibleName('Alerts');
  await expect(page.getByText('No alerts yet')).toBeVisible();
  await checkPage(page);
  await page.getByRole('main').getByRole('link', { name: 'add a rule' }).click();

  // A rule for this session: the temperature fields only, the API's 422 at the field.
  await expect(page.getByRole('heading', { level: 1, name: 'Alert rules' })).toBeVisible();
  await expect(page.getByText('No alert rules yet')).toBeVisible();
  await expect(page.getByLabel('What to watch')).toHaveValue('temperature_outside');
  await expect(page.getByLabel(/Gravity/)).toHaveCount(0);
  await page.getByLabel('What to watch').selectOption({ label: 'Device silent' });
  await expect(page.getByLabel('Minutes')).toHaveValue('60');
  await expect(page.getByLabel(/temperature/)).toHaveCount(0);
  await page.getByLabel('What to watch').selectOption({ label: 'Temperature outside a range' });
  await page.getByLabel('Brew session').selectOption({ label: 'Alert Pale (brew day 2026-11-20)' });
  await page.getByLabel('Lowest temperature (°C)').fill('18');
  await page.getByLabel('Highest temperature (°C)').fill('200');
  await page.getByRole('button', { name: 'Add rule' }).click();
  const highest = page.getByLabel('Highest temperature (°C)');
  await expect(highest).toHaveAttribute('aria-invalid', 'true');
  await expect(highest).toHaveAccessibleDescription(/at most 120 °C/);
  await checkPage(page);
  await highest.fill('21');
  await page.getByRole('button', { name: 'Add rule' }).click();
  const rules = page.getByRole('list', { name: 'Alert rules' });
  await expect(rules.getByRole('heading', { name: 'Temperature outside 18–21 °C' })).toBeVisible();
  await expect(rules.getByRole('link', { name: 'Alert Pale' })).toHaveAttribute('href', `/sessions/${s.id}`);
  await expect(rules).toContainText('On');

  // Readings through the API: 19.5 °C is fine, 24.5 °C raises an alert.
  // (Ten minutes ago: the reading typed in at the end, at this minute, is the latest then.)
  const ago = (min: number) => new Date(Date.now() - min * 60_000).toISOString();
  await api(page.request, 'POST', `/v1/sessions/${s.id}/fermentation-logs`, { gravity: 1.048, temperature_c: 19.5, logged_at: ago(11) });
  await api(page.request, 'POST', `/v1/sessions/${s.id}/fermentation-logs`, { gravity: 1.04, temperature_c: 24.5, logged_at: ago(10) });
  // The header's count follows (read every 30 s; a navigation reads it now).
  await page.goto('/alerts');
  await expect(alertsLink).toHaveAccessibleName('Alerts, 1 active');
  await expect(alertsLink).toBeVisible();

  const active = page.getByRole('list', { name: 'Active alerts' });
  const item = active.getByRole('listitem').filter({ hasText: 'Temperature 24.5 °C is above 21 °C' });
  await expect(item).toBeVisible();
  await expect(item.getByRole('link', { name: 'Alert Pale' })).toHaveAttribute('href', `/sessions/${s.id}`);
  await expect(item).toContainText('Temperature outside a range');
  await expect(item).toContainText(/Raised (just now|\d+ min ago) · /);
  const history = page.getByRole('list', { name: 'Alert history' });
  await expect(history).toContainText('Temperature 24.5 °C is above 21 °C');
  // One Acknowledge per alert on the page: the active list's.
  await expect(history.getByRole('button', { name: 'Acknowledge' })).toHaveCount(0);
  await checkPage(page);
  if (process.env.WORT_SCREENSHOTS && info.project.name === 'phone') await header.screenshot({ path: `${shotDir}alerts-header-phone.png` });
  await item.getByRole('button', { name: 'Acknowledge' }).click();
  await expect(item.getByRole('button', { name: 'Acknowledge' })).toHaveCount(0);
  await expect(item).toContainText(/Acknowledged just now/);
  // Still active until the temperature is back in range.
  await expect(alertsLink).toHaveAccessibleName('Alerts, 1 active');

  // On the session page, with a link to add a rule for this session.
  await item.getByRole('link', { name: 'Alert Pale' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Alert Pale' })).toBeVisible();
  const section = page.getByRole('region', { name: 'Alerts' });
  await expect(section).toContainText('Temperature 24.5 °C is above 21 °C');
  await expect(section).toContainText(/Acknowledged just now/);
  // On the fermentation chart, at the time it was raised: a marker and a line of the list below.
  const marked = page.getByRole('region', { name: 'Marked on the chart' });
  await expect(marked).toContainText('Alert ·');
  await expect(marked).toContainText('Temperature 24.5 °C is above 21 °C');
  await expect(page.getByRole('button', { name: /^Alert, .*: Temperature 24\.5 °C is above 21 °C$/ })).toHaveCount(1);
  await section.getByRole('link', { name: 'Add an alert rule for this session' }).click();
  await expect(page.getByLabel('Brew session')).toHaveValue(s.id);
  // Home lists the active alerts after what is brewing.
  await page.goto('/');
  await expect(page.getByRole('region', { name: 'Active alerts' })).toContainText('Temperature 24.5 °C is above 21 °C');

  // US units: the alert, the rule and the form in °F; an edit sends °C.
  await api(page.request, 'PATCH', '/v1/me/preferences', { amounts: 'us', temperature: 'f' });
  await page.goto('/alerts');
  await expect(page.getByRole('list', { name: 'Active alerts' })).toContainText('Temperature 76.1 °F is above 69.8 °F');
  await page.goto(`/alerts/rules?session=${s.id}`);
  await expect(rules.getByRole('heading', { name: 'Temperature outside 64.4–69.8 °F' })).toBeVisible();
  await rules.getByRole('button', { name: 'Edit' }).click();
  await expect(rules.getByLabel('Highest temperature (°F)')).toHaveValue('69.8');
  // The API's band rule, said in °F at the field.
  await rules.getByLabel('Highest temperature (°F)').fill('65');
  await rules.getByRole('button', { name: 'Save rule' }).click();
  await expect(rules.getByLabel('Highest temperature (°F)')).toHaveAccessibleDescription(/at least 1.8 °F above the lowest temperature/);
  await rules.getByLabel('Highest temperature (°F)').fill('77');
  await rules.getByRole('button', { name: 'Save rule' }).click();
  await expect(rules.getByRole('heading', { name: 'Temperature outside 64.4–77 °F' })).toBeVisible();
  const stored = await api<{ max_c: number }[]>(page.request, 'GET', '/v1/alert-rules');
  expect(stored[0]!.max_c).toBeCloseTo(25, 9);
  await checkPage(page);

  // Turn it off, then delete it (confirmed); its alert clears and stays in the history.
  await rules.getByRole('button', { name: 'Turn off' }).click();
  await expect(rules.getByRole('button', { name: 'Turn on' })).toBeVisible();
  await expect(rules).toContainText('Off');
  await rules.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete the rule' }).click();
  await expect(page.getByText('No alert rules yet')).toBeVisible();
  await page.goto('/alerts');
  await expect(alertsLink).toHaveAccessibleName('Alerts');
  await expect(history).toContainText(/Cleared just now/);

  // A reading typed in on the session page: its alert shows there and in the header at once.
  await api(page.request, 'POST', '/v1/alert-rules', { kind: 'gravity_below', gravity: 1.03, session_id: s.id });
  await page.goto(`/sessions/${s.id}`);
  await expect(section).toContainText(/Cleared just now/);
  await page.getByLabel('Gravity').fill('1.025');
  await page.getByRole('button', { name: 'Add reading' }).click();
  await expect(section.getByRole('heading', { name: 'Gravity 1.025 is below 1.030' })).toBeVisible();
  await expect(alertsLink).toHaveAccessibleName('Alerts, 1 active');
  await checkPage(page);
});
