import { expect, test } from './fixtures';
import { api, checkPage, makeRecipe, signUp } from './helpers';

const shotDir = new URL('../../docs/screenshots/', import.meta.url).pathname;

test('recipe checks: beside their fields and at the top, in US units, refreshed as the recipe changes', async ({ page }, info) => {
  await signUp(page);
  await api(page.request, 'PATCH', '/v1/me/preferences', { amounts: 'us', temperature: 'f' });
  const r = await makeRecipe(page, 'Hop Bomb');
  // The cases: a 90-minute hop in a 60-minute boil, and a kilogram of hops in 20 L.
  await api(page.request, 'POST', `/v1/recipes/${r.id}/hops`, { name: 'Hallertau', alpha_acid: 4, amount_grams: 20, time_minutes: 90 });
  await api(page.request, 'POST', `/v1/recipes/${r.id}/hops`, { name: 'Tettnang', alpha_acid: 4, amount_grams: 1000, time_minutes: 30 });
  await page.goto(`/recipes/${r.id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Hop Bomb' })).toBeVisible();

  // The hop rate names no single field: in the list at the top, in ounces per gallon.
  const top = page.getByRole('list', { name: 'Checks of the recipe' });
  // 1065 g in 20 L = 53.25 g/L = 7.11 oz/gal.
  await expect(top).toContainText('Warning: 2.35 lb of hops in the boil and whirlpool is 7.11 oz/gal of batch, more than 3.34 oz/gal');
  await expect(page.getByText('1 check beside its field below.')).toBeVisible();

  // The 90-minute hop: said beside its time, and read with it.
  const time = page.getByLabel(/^Time of hop 3/);
  await expect(time).toHaveValue('90');
  await expect(time).toHaveAccessibleDescription(/Warning: Hallertau: 90 min is longer than the 60 min boil/);
  await checkPage(page);
  if (info.project.name === 'desktop') {
    // Tall enough to hold the list at the top and the hop row's check in one picture.
    await page.setViewportSize({ width: 1440, height: 1500 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${shotDir}recipe-checks.png`, fullPage: false });
    await page.setViewportSize({ width: 1440, height: 900 });
  }

  // Shortening the hop takes its check away; an unusual efficiency brings one to its field.
  await time.fill('60');
  await time.blur();
  await expect(time).not.toHaveAccessibleDescription(/longer than the/);
  const efficiency = page.getByLabel(/^Efficiency/);
  await efficiency.fill('40');
  await efficiency.blur();
  await expect(efficiency).toHaveAccessibleDescription(/Note: An efficiency of 40 % is unusually low/);
  await expect(page.getByText('1 check beside its field below.')).toBeVisible();
});

test('recipe checks: a full-volume profile whose mash tun is too small, and an import report with checks', async ({ page }) => {
  await signUp(page);
  await api(page.request, 'PATCH', '/v1/me/preferences', { amounts: 'us' });
  await page.goto('/equipment');
  await expect(page.getByRole('heading', { level: 1, name: 'Equipment' })).toBeVisible();
  await page.getByLabel('Name').fill('All-in-one');
  await page.getByLabel('Mash method').selectOption('full_volume');
  await page.getByLabel('Batch size (gal)').fill('5');
  await page.getByLabel('Mash tun volume (gal)').fill('6');
  await page.getByRole('button', { name: 'Create profile' }).click();
  await expect(page.getByRole('list', { name: 'Equipment profiles' }).getByRole('link', { name: 'All-in-one' })).toBeVisible();
  const [profile] = await api<{ id: string; mash_method: string; mash_tun_volume_liters: number }[]>(page.request, 'GET', '/v1/equipment');
  expect(profile!.mash_method).toBe('full_volume');
  expect(profile!.mash_tun_volume_liters).toBeCloseTo(22.712, 2);
  await checkPage(page);

  // A 20 L recipe with 4.8 kg of grain: all 25.0 L of water in the mash (the new profile keeps
  // 0.5 qt/lb, a round US default), plus the grain, 7.46 gal.
  const r = await makeRecipe(page, 'Big Mash');
  await api(page.request, 'PATCH', `/v1/recipes/${r.id}`, { equipment_id: profile!.id });
  await page.goto(`/recipes/${r.id}`);
  const picker = page.getByLabel('Equipment profile');
  await expect(picker).toHaveAccessibleDescription(
    /Error: The mash takes 7\.46 gal \(6\.61 gal of strike water and 0\.85 gal of grain\) but the mash tun holds 6\.00 gal/,
  );
  await expect(page.getByRole('region', { name: 'Volumes' })).toContainText('Sparge water');
  await expect(page.getByRole('region', { name: 'Volumes' })).toContainText('6.61 gal');

  // An imported file's recipe comes with its checks in the report.
  await page.goto('/recipes');
  const file =
    '<?xml version="1.0"?><RECIPES><RECIPE><NAME>Long Boil</NAME><TYPE>All Grain</TYPE><BATCH_SIZE>20</BATCH_SIZE>' +
    '<BOIL_TIME>60</BOIL_TIME><EFFICIENCY>75</EFFICIENCY><FERMENTABLES><FERMENTABLE><NAME>Pale</NAME><TYPE>Grain</TYPE>' +
    '<AMOUNT>4</AMOUNT><YIELD>80</YIELD><COLOR>3</COLOR></FERMENTABLE></FERMENTABLES><HOPS><HOP><NAME>Magnum</NAME>' +
    '<ALPHA>12</ALPHA><AMOUNT>0.02</AMOUNT><USE>Boil</USE><TIME>90</TIME></HOP></HOPS></RECIPE></RECIPES>';
  await page
    .getByLabel('Import recipes (BeerXML or BeerJSON)')
    .setInputFiles({ name: 'long-boil.xml', mimeType: 'application/xml', buffer: Buffer.from(file) });
  const checks = page.getByRole('list', { name: 'Checks of Long Boil' });
  await expect(checks).toContainText('Warning: Magnum: 90 min is longer than the 60 min boil');
  await expect(checks).toContainText('Warning: No yeast');
  await checkPage(page);
});
