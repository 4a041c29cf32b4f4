import { expect, test } from './fixtures';
import { api, checkPage, makeRecipe, signUp, navTo } from './helpers';

interface Profile {
  id: string;
  name: string;
  batch_size_liters: number;
  boil_off_liters_per_hour: number;
}

const kettle = {
  name: 'Brew kettle',
  batch_size_liters: 20,
  boil_off_liters_per_hour: 4,
  trub_chiller_loss_liters: 1,
  mash_tun_deadspace_liters: 0.5,
  fermenter_loss_liters: 0.5,
};

test('equipment: create in gallons, 422 of an impossible profile at its field, edit', async ({ page }) => {
  await signUp(page);
  await api(page.request, 'PATCH', '/v1/me/preferences', { amounts: 'us' });
  await page.goto('/recipes');
  await navTo(page, 'Equipment');
  await expect(page.getByRole('heading', { level: 1, name: 'Equipment' })).toBeVisible();
  await expect(page.getByText('No equipment profiles yet')).toBeVisible();
  await expect(page.getByLabel('Hop utilisation')).toHaveValue('100');
  // Grain absorption in quarts per pound on a US account, starting at a round 0.5 qt/lb.
  await expect(page.getByLabel('Grain absorption (qt/lb)')).toHaveValue('0.5');
  await checkPage(page);

  // A fermenter loss larger than the batch: the 422 at that field, what was typed kept.
  await page.getByLabel('Name').fill('Tiny pot');
  await page.getByLabel('Batch size (gal)').fill('5');
  await page.getByLabel('Fermenter loss (gal)').fill('6');
  await page.getByRole('button', { name: 'Create profile' }).click();
  const loss = page.getByLabel('Fermenter loss (gal)');
  await expect(loss).toHaveAttribute('aria-invalid', 'true');
  await expect(loss).toHaveAccessibleDescription(/larger than the batch \(5 gal\)/);
  await expect(loss).toHaveValue('6');
  await expect(page.getByLabel('Batch size (gal)')).not.toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('list', { name: 'Equipment profiles' })).toHaveCount(0);

  await loss.fill('0.25');
  await page.getByLabel('Boil-off rate (gal/h)').fill('1');
  await page.getByRole('button', { name: 'Create profile' }).click();
  const list = page.getByRole('list', { name: 'Equipment profiles' });
  await expect(list.getByRole('link', { name: 'Tiny pot' })).toBeVisible();
  await expect(page.getByLabel('Name')).toHaveValue('');
  // Stored in litres by the API.
  const [stored] = await api<Profile[]>(page.request, 'GET', '/v1/equipment');
  expect(stored!.batch_size_liters).toBeCloseTo(18.927, 3);
  expect(stored!.boil_off_liters_per_hour).toBeCloseTo(3.785, 3);
  await checkPage(page);

  // Edit: fields save as they are edited; an impossible value is refused at its field.
  await list.getByRole('link', { name: 'Tiny pot' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Tiny pot' })).toBeVisible();
  await expect(page.getByLabel('Batch size')).toHaveValue('5');
  await checkPage(page);
  await page.getByLabel('Boil-off rate').fill('1.5');
  await page.getByLabel('Boil-off rate').blur();
  await expect(page.getByText('Saved', { exact: true })).toBeVisible();
  const hops = page.getByLabel('Hop utilisation');
  await hops.fill('250');
  await hops.blur();
  await expect(hops).toHaveAttribute('aria-invalid', 'true');
  await expect(hops).toHaveAccessibleDescription(/Not saved: Must be at most 200 %/);
  await expect(hops).toHaveValue('250');
  await page.getByLabel('Name').fill('Big pot');
  await page.getByLabel('Name').blur();
  await expect(page.getByRole('heading', { level: 1, name: 'Big pot' })).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Boil-off rate')).toHaveValue('1.5');
  await expect(page.getByLabel('Hop utilisation')).toHaveValue('100');
});

test('recipe: equipment profile and BJCP style give volumes and style-fit bars; hop form', async ({ page }) => {
  await signUp(page);
  const profile = await api<Profile>(page.request, 'POST', '/v1/equipment', kettle);
  const r = await makeRecipe(page, 'House Pale');
  await page.goto(`/recipes/${r.id}`);
  const stats = page.getByRole('region', { name: 'Statistics' });
  await expect(stats).toContainText('IBU');
  await expect(page.getByRole('region', { name: 'Volumes' })).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Style fit' })).toHaveCount(0);
  await expect(page.getByLabel('Equipment profile')).toHaveValue('');

  await page.getByLabel('Equipment profile').selectOption({ label: 'Brew kettle' });
  const volumes = page.getByRole('region', { name: 'Volumes' });
  for (const word of ['Strike water', 'Sparge water', 'Pre-boil volume', 'Pre-boil gravity', 'Post-boil volume', 'Into fermenter'])
    await expect(volumes).toContainText(word);
  await expect(volumes).toContainText(/\d+(\.\d+)? L/);

  await page.getByLabel('BJCP guideline').selectOption('18B');
  const fit = page.getByRole('region', { name: 'Style fit' });
  await expect(fit).toContainText('18B American Pale Ale');
  const rows = fit.getByRole('listitem');
  await expect(rows).toHaveCount(5);
  for (const [i, name] of ['OG', 'FG', 'IBU', 'Colour', 'ABV'].entries()) {
    await expect(rows.nth(i)).toContainText(name);
    await expect(rows.nth(i)).toContainText(/in range|below|above/);
    await expect(rows.nth(i)).toContainText(/Style range/);
  }
  await checkPage(page);

  // Both choices are saved on the recipe.
  await page.reload();
  await expect(page.getByLabel('Equipment profile')).toHaveValue(profile.id);
  await expect(page.getByLabel('BJCP guideline')).toHaveValue('18B');
  await expect(page.getByRole('region', { name: 'Volumes' })).toBeVisible();

  // Hop form: pellets raise the IBU (the API's factor), and the form is saved.
  const ibu = () => stats.getByRole('definition').nth(3).textContent().then(Number);
  const before = await ibu();
  await page.getByLabel('Form of hop 1', { exact: true }).selectOption('pellet');
  await expect.poll(ibu).toBeGreaterThan(before);
  await page.getByLabel('New hop', { exact: true }).fill('Cascade');
  await page.getByLabel('New hop form').selectOption({ label: 'Leaf' });
  await page.getByRole('button', { name: 'Add hop' }).click();
  await expect(page.getByLabel('Hop 3', { exact: true })).toHaveValue('Cascade');
  await expect(page.getByLabel('Form of hop 3', { exact: true })).toHaveValue('leaf');
  await page.reload();
  await expect(page.getByLabel('Form of hop 1', { exact: true })).toHaveValue('pellet');
  await expect(page.getByLabel('Form of hop 2', { exact: true })).toHaveValue('');

  // "None" clears both.
  await page.getByLabel('Equipment profile').selectOption({ label: 'None' });
  await expect(page.getByRole('region', { name: 'Volumes' })).toHaveCount(0);
  await page.getByLabel('BJCP guideline').selectOption({ label: 'None' });
  await expect(page.getByRole('region', { name: 'Style fit' })).toHaveCount(0);
});

test('scale: 422 at its field, then a new recipe at the new size', async ({ page }) => {
  await signUp(page);
  const r = await makeRecipe(page, 'Scalable Pale');
  await page.goto(`/recipes/${r.id}`);
  const stats = page.getByRole('region', { name: 'Statistics' });
  await expect(stats).toContainText('OG');
  const og = () => stats.getByRole('definition').first().textContent().then(Number);
  const ibu = () => stats.getByRole('definition').nth(3).textContent().then(Number);
  const ogBefore = await og();
  const ibuBefore = await ibu();

  await page.getByRole('button', { name: 'Scale', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Scale “Scalable Pale”');
  await expect(dialog.getByLabel('New batch size (L)')).toHaveValue('20');
  await checkPage(page);
  await dialog.getByLabel('New batch size (L)').fill('0');
  await dialog.getByLabel('New efficiency (%)').fill('150');
  await dialog.getByRole('button', { name: 'Create scaled recipe' }).click();
  await expect(dialog.getByLabel('New batch size (L)')).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByLabel('New efficiency (%)')).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByLabel('New efficiency (%)')).toHaveAccessibleDescription(/at most 100 %/);
  await expect(page).toHaveURL(new RegExp(`/recipes/${r.id}$`));

  await dialog.getByLabel('New batch size (L)').fill('40');
  await dialog.getByLabel('New efficiency (%)').fill('');
  await dialog.getByLabel('New name').fill('Scalable Pale 40 L');
  await dialog.getByRole('button', { name: 'Create scaled recipe' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Scalable Pale 40 L' })).toBeVisible();
  await expect(page).not.toHaveURL(new RegExp(`/recipes/${r.id}$`));
  await expect(page).toHaveURL(/\/recipes\/[0-9a-f-]{36}$/);
  await expect(page.getByLabel('Batch size')).toHaveValue('40');
  await expect(stats).toContainText('OG');
  // The API keeps OG and IBU when it scales; the page only shows its numbers.
  await expect.poll(og).toBeCloseTo(ogBefore, 2);
  await expect.poll(ibu).toBeCloseTo(ibuBefore, 0);
});

test('deleting a profile a recipe uses shows why it is refused; an unused one goes', async ({ page }) => {
  await signUp(page);
  const profile = await api<Profile>(page.request, 'POST', '/v1/equipment', kettle);
  const r = await makeRecipe(page, 'Uses the kettle');
  await api(page.request, 'PATCH', `/v1/recipes/${r.id}`, { equipment_id: profile.id });

  await page.goto(`/equipment/${profile.id}`);
  await page.getByRole('button', { name: 'Delete profile' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Delete “Brew kettle”?');
  await dialog.getByRole('button', { name: 'Delete equipment profile' }).click();
  await expect(dialog.getByRole('alert')).toContainText(/used by 1 recipe/);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('heading', { level: 1, name: 'Brew kettle' })).toBeVisible();

  await api(page.request, 'PATCH', `/v1/recipes/${r.id}`, { equipment_id: null });
  await page.getByRole('button', { name: 'Delete profile' }).click();
  await expect(dialog.getByRole('alert')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Delete equipment profile' }).click();
  await expect(page).toHaveURL(/\/equipment$/);
  await expect(page.getByText('No equipment profiles yet')).toBeVisible();

  await page.goto(`/equipment/${profile.id}`);
  await expect(page.getByRole('heading', { name: 'Not found' })).toBeVisible();
});

test('fermentables: when each goes in, set on its row, moves the OG and keeps the sugar in the ABV (US)', async ({ page }) => {
  await signUp(page);
  await api(page.request, 'PATCH', '/v1/me/preferences', { amounts: 'us', temperature: 'f' });
  const r = await makeRecipe(page, 'Honey Ale');
  // 2 lb of honey: by the API's default for its type, added to the boil.
  await api(page.request, 'POST', `/v1/recipes/${r.id}/fermentables`, {
    name: 'Clover honey',
    type: 'honey',
    amount_kg: 0.907,
    color_srm: 2,
    yield_percent: 75,
  });
  await page.goto(`/recipes/${r.id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Honey Ale' })).toBeVisible();
  const added = page.getByLabel('Added of fermentable 3', { exact: true });
  await expect(added).toHaveValue('boil');
  // The malt's row says the mash, the type's default for grain.
  await expect(page.getByLabel('Added of fermentable 1', { exact: true })).toHaveValue('mash');
  const stats = page.getByRole('region', { name: 'Statistics' });
  const figure = (name: string) => stats.locator('div', { has: page.getByRole('term').filter({ hasText: new RegExp(`^${name}$`) }) }).getByRole('definition');
  type Stats = { og: number; abv: number };
  const inBoil = await api<Stats>(page.request, 'GET', `/v1/recipes/${r.id}/stats`);
  await expect(figure('OG')).toHaveText(inBoil.og.toFixed(3));
  await checkPage(page);

  // In the fermenter: its sugar leaves the OG but still ferments, so the ABV barely moves.
  await added.selectOption({ label: 'Fermenter' });
  await expect
    .poll(
      async () =>
        (await api<{ added: string; name: string }[]>(page.request, 'GET', `/v1/recipes/${r.id}/fermentables`)).find((f) => f.name === 'Clover honey')?.added,
    )
    .toBe('fermenter');
  const inFermenter = await api<Stats>(page.request, 'GET', `/v1/recipes/${r.id}/stats`);
  expect(inFermenter.og).toBeLessThan(inBoil.og - 0.01);
  expect(inFermenter.abv).toBeGreaterThan(inBoil.abv - 0.3);
  await expect(figure('OG')).toHaveText(inFermenter.og.toFixed(3));
  await expect(figure('ABV')).toHaveText(`${Number(inFermenter.abv.toFixed(2))} %`);

  // Kept across a reload.
  await page.reload();
  await expect(page.getByLabel('Added of fermentable 3', { exact: true })).toHaveValue('fermenter');
  await checkPage(page);
});

test('a hop stand takes its temperature on its row, in °F; other hops have no such field', async ({ page }) => {
  await signUp(page);
  await api(page.request, 'PATCH', '/v1/me/preferences', { amounts: 'us', temperature: 'f' });
  const r = await makeRecipe(page, 'Stand Ale');
  const stand = await api<{ id: string }>(page.request, 'POST', `/v1/recipes/${r.id}/hops`, {
    name: 'Citra',
    alpha_acid: 12.5,
    amount_grams: 50,
    time_minutes: 20,
    use: 'whirlpool',
  });
  await page.goto(`/recipes/${r.id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Stand Ale' })).toBeVisible();
  // Hops are listed in the order they go in: Magnum (60), Citra (5), then the whirlpool.
  const temperature = page.getByLabel(/^Stand temperature of hop 3/);
  await expect(temperature).toHaveValue('');
  await expect(page.getByLabel(/^Stand temperature of hop 1/)).toHaveCount(0);
  const ibu = () =>
    api<{ ibu_by_hop: { hop_id: string; ibu: number }[] }>(page.request, 'GET', `/v1/recipes/${r.id}/stats`).then(
      (s) => s.ibu_by_hop.find((h) => h.hop_id === stand.id)!.ibu,
    );
  const before = await ibu();
  await temperature.fill('176');
  await temperature.blur();
  await expect.poll(async () => (await api<{ temperature_c: number | null }>(page.request, 'GET', `/v1/hops/${stand.id}`)).temperature_c).toBeCloseTo(80, 1);
  // A cooler stand isomerises less than the stand without a temperature.
  await expect.poll(ibu).toBeLessThan(before);
  await checkPage(page);
});
