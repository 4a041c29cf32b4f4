import { expect, test } from './fixtures';
import { api, checkPage, makeRecipe, signUp } from './helpers';

interface Note {
  id: string;
  at: string;
  text: string;
}

/** A fermenting session whose schedule's first rest became due now, with a day of readings. */
async function fermentingSession(page: import('@playwright/test').Page, name: string): Promise<string> {
  const recipe = await makeRecipe(page, name);
  await api(page.request, 'POST', `/v1/recipes/${recipe.id}/fermentation-steps`, { name: 'Primary', temperature_c: 19, days: 10 });
  const session = await api<{ id: string }>(page.request, 'POST', '/v1/sessions', { recipe_id: recipe.id, brew_date: '2026-11-28', status: 'fermenting' });
  const now = Date.now();
  for (const [hoursAgo, gravity, temperature_c] of [
    [30, 1.052, 18.5],
    [20, 1.047, 19],
    [10, 1.04, 19.5],
    [1, 1.034, 19.5],
  ] as const) {
    await api(page.request, 'POST', `/v1/sessions/${session.id}/fermentation-logs`, {
      logged_at: new Date(now - hoursAgo * 3_600_000).toISOString(),
      gravity,
      temperature_c,
    });
  }
  return session.id;
}

test('notes and the schedule’s changes on the fermentation chart, in US units', async ({ page }, testInfo) => {
  await signUp(page);
  await api(page.request, 'PATCH', '/v1/me/preferences', { temperature: 'f', volume: 'gal', mass: 'lb' });
  const sessionId = await fermentingSession(page, 'Notes Saison');
  // A note written earlier, before the last readings.
  await api(page.request, 'POST', `/v1/sessions/${sessionId}/notes`, { at: new Date(Date.now() - 25 * 3_600_000).toISOString(), text: 'Pitched two packs' });
  await page.goto(`/sessions/${sessionId}`);

  const chart = page.getByRole('figure', { name: 'Fermentation chart' });
  await expect(chart).toBeVisible();
  const marks = page.getByRole('list', { name: 'On the chart' });
  // The schedule's rest, named with its temperature in the account's units, and the note.
  await expect(marks.getByRole('listitem')).toHaveCount(2);
  await expect(marks.getByRole('listitem').nth(1)).toContainText('Primary · 66.2 °F');
  await expect(marks.getByRole('listitem').nth(0)).toContainText('Pitched two packs');
  await expect(chart.getByRole('button', { name: /^Schedule, .*: Primary · 66\.2 °F$/ })).toBeVisible();

  // A new note at the default time (now).
  await expect(page.getByLabel('Note time', { exact: true })).not.toHaveValue('');
  await page.getByLabel('Note text', { exact: true }).fill('Krausen up, smells of pear');
  await page.getByRole('button', { name: 'Add note' }).click();
  await expect(marks.getByRole('listitem')).toHaveCount(3);
  await expect(marks.getByRole('listitem').nth(2)).toContainText('Krausen up, smells of pear');
  await expect(page.getByLabel('Note text', { exact: true })).toHaveValue('');

  // Its marker shows the text on hover and on keyboard focus.
  const marker = chart.getByRole('button', { name: /^Note, .*: Krausen up, smells of pear$/ });
  await expect(marker).toBeVisible();
  await marker.hover();
  await expect(marker.getByText('Krausen up, smells of pear')).toBeVisible();
  await page.mouse.move(0, 0);
  await marker.focus();
  await expect(marker.getByText('Krausen up, smells of pear')).toBeVisible();
  await checkPage(page);
  await page.getByRole('region', { name: 'Fermentation', exact: true }).screenshot({ path: testInfo.outputPath(`notes-${testInfo.project.name}-us.png`) });

  // Edit the first note's text.
  await marks
    .getByRole('button', { name: /^Edit the note of/ })
    .first()
    .click();
  const editor = page.getByRole('form', { name: /^Edit the note of/ });
  await editor.getByLabel('Note text', { exact: true }).fill('Pitched two packs at 66 °F');
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(marks.getByText('Pitched two packs at 66 °F')).toBeVisible();
  await expect
    .poll(async () => (await api<Note[]>(page.request, 'GET', `/v1/sessions/${sessionId}/notes`)).map((n) => n.text))
    .toEqual(['Pitched two packs at 66 °F', 'Krausen up, smells of pear']);

  // Delete the new one: gone from the list at once, Undo offered, deleted once it has passed.
  await marks
    .getByRole('button', { name: /^Delete the note of/ })
    .last()
    .click();
  await expect(page.getByRole('button', { name: 'Undo' })).toBeVisible();
  await expect(marks.getByRole('listitem')).toHaveCount(2);
  await expect(chart.getByRole('button', { name: /Krausen up/ })).toHaveCount(0);
  await expect.poll(async () => (await api<Note[]>(page.request, 'GET', `/v1/sessions/${sessionId}/notes`)).length, { timeout: 15_000 }).toBe(1);
});

test('a note placed in the future is refused next to its time, and the text is kept', async ({ page }, testInfo) => {
  await signUp(page);
  const sessionId = await fermentingSession(page, 'Notes Lager');
  await page.goto(`/sessions/${sessionId}`);
  await expect(page.getByRole('figure', { name: 'Fermentation chart' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'On the chart' }).getByText('Primary · 19 °C')).toBeVisible();
  await page.getByLabel('Note time', { exact: true }).fill('2035-01-01T10:00');
  await page.getByLabel('Note text', { exact: true }).fill('Bottled');
  await page.getByRole('button', { name: 'Add note' }).click();
  await expect(page.getByText('A note cannot be placed more than 5 minutes in the future')).toBeVisible();
  await expect(page.getByLabel('Note time', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Note text', { exact: true })).toHaveValue('Bottled');
  expect(await api<Note[]>(page.request, 'GET', `/v1/sessions/${sessionId}/notes`)).toEqual([]);
  await checkPage(page);
  await page.getByRole('region', { name: 'Fermentation', exact: true }).screenshot({ path: testInfo.outputPath(`notes-${testInfo.project.name}-metric.png`) });
});
