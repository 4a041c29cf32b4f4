import { expect, test } from './fixtures';
import { api, checkPage, makeRecipe, signUp } from './helpers';

// The service worker is on here (the config blocks it elsewhere).
test.use({ serviceWorkers: 'allow' });

type Step = { id: string; title: string; completed: boolean; timer: { state: string } | null };

test('offline on the brewery floor: the session opens, ticks, a timer and a reading wait and are sent', async ({ page, context }) => {
  await signUp(page);
  const recipe = await makeRecipe(page, 'Garage Pale');
  const session = await api<{ id: string }>(page.request, 'POST', '/v1/sessions', { recipe_id: recipe.id, brew_date: '2026-11-28', status: 'brewing' });
  const path = `/sessions/${session.id}`;

  // First visit online: the worker installs and takes the page; a reload keeps the API answers.
  await page.goto(path);
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Garage Pale' })).toBeVisible();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller != null)).toBe(true);
  await expect(page.getByText('Heat strike water')).toBeVisible();

  // The network goes; the page still opens from the cache, with the session in it.
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Garage Pale' })).toBeVisible();
  await expect(page.getByText('Offline: what you do is kept on this device')).toBeVisible();

  await page.getByLabel('Heat strike water').check();
  await expect(page.getByLabel('Heat strike water')).toBeChecked();
  await page.getByRole('button', { name: 'Start timer' }).first().click();
  await expect(page.getByRole('button', { name: 'Pause timer' }).first()).toBeVisible();
  await page.getByLabel('Gravity').fill('1.048');
  await page.getByRole('button', { name: 'Add reading' }).click();
  // The reading and the tick show in place at once, marked as waiting.
  const readings = page.getByRole('table', { name: 'Readings, newest first' });
  const waitingRow = readings.getByRole('row').filter({ hasText: '1.048' });
  await expect(waitingRow).toContainText('Waiting to send');
  await expect(waitingRow.getByRole('button')).toHaveCount(0);
  await expect(page.getByRole('figure', { name: 'Fermentation chart' })).toContainText('1 reading');
  const strike = page.getByRole('listitem').filter({ hasText: 'Heat strike water' });
  await expect(strike).toContainText('Waiting to send');
  // A reload from the worker's cache (the server's copy from before) keeps showing them.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Garage Pale' })).toBeVisible();
  await expect(waitingRow).toContainText('Waiting to send');
  await expect(page.getByLabel('Heat strike water')).toBeChecked();
  await expect(strike).toContainText('Waiting to send');
  const waiting = page.getByText('3 changes wait to be sent');
  await expect(waiting).toBeVisible();
  await waiting.click();
  await expect(page.getByText('Tick “Heat strike water”')).toBeVisible();
  await checkPage(page);
  // Nothing reached the server yet.
  // The network returns. (Playwright switches the page first and the service worker a moment
  // later, as a flickering connection can: reads in between must not show the worker's copies
  // from before the writes, src/offline/keptAnswers.ts.)
  await context.setOffline(false);
  // The browser's `online` event sends them, in order, each once.
  await expect(page.getByText(/waits? to be sent/)).toHaveCount(0);
  await expect(page.getByText('Not saved')).toHaveCount(0);
  await expect(page.getByText('Offline:')).toHaveCount(0);

  const steps = await api<Step[]>(page.request, 'GET', `/v1/sessions/${session.id}/steps`);
  expect(steps.find((s) => s.title === 'Heat strike water')?.completed).toBe(true);
  expect(steps.filter((s) => s.timer?.state === 'running')).toHaveLength(1);
  const logs = await api<{ gravity: number }[]>(page.request, 'GET', `/v1/sessions/${session.id}/fermentation-logs`);
  expect(logs.map((l) => l.gravity)).toEqual([1.048]);
  // The page now shows what the server holds, not the worker's copy from before the writes:
  // the reading once, no longer waiting.
  await expect(page.getByLabel('Heat strike water')).toBeChecked();
  await expect(page.getByText('Waiting to send')).toHaveCount(0);
  await expect(readings.getByRole('row').filter({ hasText: '1.048' })).toHaveCount(1);
  await expect(page.getByRole('button', { name: 'Pause timer' }).first()).toBeVisible();
});
