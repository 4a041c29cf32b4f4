import { expect, test } from './fixtures';
import { checkPage, signUp } from './helpers';

// A real BeerXML file (MIT, see e2e/fixtures/README.md), copied from crates/interchange/tests/data/files/.
const punkIpa = new URL('./fixtures/bx_diydog_punk_ipa.xml', import.meta.url).pathname;

test('import a BeerXML file from the recipe list, open the recipe, export it in both formats', async ({ page }) => {
  await signUp(page);
  await page.goto('/recipes');
  await expect(page.getByText('No recipes yet')).toBeVisible();

  // With the keyboard: Enter on "Import" opens the file picker; the results' heading then has the focus.
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Import', exact: true }).focus();
  await page.keyboard.press('Enter');
  await (await chooser).setFiles(punkIpa);

  const results = page.getByRole('region', { name: 'Import results' });
  await expect(results.getByRole('heading', { name: 'Import done' })).toBeFocused();
  await expect(results).toContainText('1 recipe imported from “bx_diydog_punk_ipa.xml”');
  // Its hop forms are imported too, so nothing is left out; the one note says where the file's
  // own OG differs from the recipe wort computes, and why that may be.
  const notes = results.getByRole('list', { name: 'Import warnings' });
  await expect(notes.getByRole('listitem')).toHaveCount(1);
  await expect(notes).toContainText('EST_OG: OG: the file says 1.053, wort computes 1.058; likely cause: a different mash efficiency');
  // The list shows the new recipe too.
  await expect(page.getByRole('list', { name: 'Recipes', exact: true }).getByRole('link', { name: 'PUNK IPA 2010 - CURRENT' })).toBeVisible();
  await checkPage(page);

  await results.getByRole('link', { name: 'PUNK IPA 2010 - CURRENT' }).click();
  await expect(page.getByLabel('Name')).toHaveValue('PUNK IPA 2010 - CURRENT');
  const id = new URL(page.url()).pathname.split('/').pop();
  await expect(page.getByLabel('Hop 1', { exact: true })).not.toHaveValue('');
  await expect(page.getByLabel('Form of hop 1', { exact: true })).toHaveValue('pellet');

  const json = page.getByRole('link', { name: 'Export BeerJSON' });
  const xml = page.getByRole('link', { name: 'Export BeerXML' });
  await expect(json).toHaveAttribute('href', `/v1/recipes/${id}/export?format=beerjson`);
  await expect(xml).toHaveAttribute('href', `/v1/recipes/${id}/export?format=beerxml`);
  await expect(xml).toHaveAttribute('download', '');
  const res = await page.request.get((await xml.getAttribute('href'))!);
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toMatch(/^application\/xml/);
  expect(res.headers()['content-disposition']).toMatch(/^attachment; filename=".+\.xml"/);
  expect(await res.text()).toContain('<NAME>PUNK IPA 2010 - CURRENT</NAME>');
});

test('import warnings: what was read but not kept, with the recipe and where in the file', async ({ page }) => {
  await signUp(page);
  await page.goto('/recipes');
  const warned =
    '<RECIPES><RECIPE><NAME>Warned Ale</NAME><TYPE>All Grain</TYPE><BATCH_SIZE>20</BATCH_SIZE><BOIL_TIME>60</BOIL_TIME><EFFICIENCY>72</EFFICIENCY>' +
    '<EQUIPMENT><NAME>Pot</NAME></EQUIPMENT><HOPS><HOP><NAME>Citra</NAME><ALPHA>12</ALPHA><AMOUNT>0.03</AMOUNT><USE>Boil</USE><TIME>60</TIME>' +
    '<FORM>Powder</FORM></HOP></HOPS></RECIPE></RECIPES>';
  await page.getByLabel('Import recipes (BeerXML or BeerJSON)').setInputFiles({ name: 'warned.xml', mimeType: 'text/xml', buffer: Buffer.from(warned) });
  const results = page.getByRole('region', { name: 'Import results' });
  await expect(results).toContainText('1 recipe imported from “warned.xml”');
  const warnings = results.getByRole('list', { name: 'Import warnings' });
  await expect(warnings).toContainText('Warned Ale');
  await expect(warnings).toContainText('RECIPES › RECIPE 1 › EQUIPMENT');
  await expect(warnings).toContainText('RECIPES › RECIPE 1 › HOPS › HOP 1 › FORM');
  await checkPage(page);
});

test('import of a broken file: the error beside Import, with the places in the file, and nothing added', async ({ page }) => {
  await signUp(page);
  await page.goto('/recipes');
  await expect(page.getByText('No recipes yet')).toBeVisible();
  const input = page.getByLabel('Import recipes (BeerXML or BeerJSON)');
  const results = page.getByRole('region', { name: 'Import results' });

  // Not parseable: a 400, said as such.
  await input.setInputFiles({ name: 'truncated.xml', mimeType: 'text/xml', buffer: Buffer.from('<RECIPES><RECIPE><NAME>Half a recipe') });
  await expect(results.getByRole('alert')).toContainText('Nothing was imported from “truncated.xml”. This file is not valid BeerXML:');

  // Over the API's 5 MiB: refused before sending.
  await input.setInputFiles({ name: 'huge.json', mimeType: 'application/json', buffer: Buffer.alloc(5 * 1024 * 1024 + 1, 0x20) });
  await expect(results.getByRole('alert')).toContainText('The file is larger than 5 MiB');

  // Parseable but not usable: a 422, each detail with its path in the file.
  const badHop =
    '<RECIPES><RECIPE><NAME>Bad hop</NAME><TYPE>All Grain</TYPE><BATCH_SIZE>20</BATCH_SIZE><BOIL_TIME>60</BOIL_TIME>' +
    '<HOPS><HOP><NAME>Citra</NAME><ALPHA>12</ALPHA><AMOUNT>lots</AMOUNT><USE>Boil</USE><TIME>60</TIME></HOP></HOPS></RECIPE></RECIPES>';
  await input.setInputFiles({ name: 'bad-hop.xml', mimeType: 'text/xml', buffer: Buffer.from(badHop) });
  await expect(results.getByRole('alert')).toContainText('This BeerXML file cannot be imported');
  await expect(results.getByRole('listitem')).toContainText(['RECIPES › RECIPE 1 › HOPS › HOP 1 › AMOUNT']);

  // All or nothing: still no recipe.
  await expect(page.getByText('No recipes yet')).toBeVisible();
  const list = await page.request.get('/v1/recipes');
  expect(await list.json()).toEqual([]);
  await results.getByRole('button', { name: 'Dismiss' }).click();
  await expect(results).toHaveCount(0);
});
