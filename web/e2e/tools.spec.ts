import { expect, test } from './fixtures';
import { api, checkPage, signUp, navTo } from './helpers';

test('tools: calculators in US units, answers as the brewer types, a 422 at its field', async ({ page }) => {
  await signUp(page);
  await api(page.request, 'PATCH', '/v1/me/preferences', { amounts: 'us', temperature: 'f' });
  await page.goto('/recipes');
  await navTo(page, 'Tools');
  await expect(page.getByRole('heading', { level: 1, name: 'Tools' })).toBeVisible();

  // Priming: the form starts in gallons and °F; 5 gal at 68 °F to 2.4 volumes with corn sugar
  // is 128.0 g, shown as 4.52 oz.
  const priming = page.getByRole('form', { name: 'Priming sugar' });
  // Round numbers in the person's units: 5 gal, not 20 L read as 5.28 gal.
  await expect(priming.getByLabel('Beer to bottle (gal)')).toHaveValue('5');
  await expect(priming.getByLabel('Warmest beer temperature (°F)')).toHaveValue('68');
  await priming.getByLabel('Beer to bottle (gal)').fill('5');
  const primingResult = page.getByLabel('Priming sugar result').getByRole('definition').first();
  await expect(primingResult).toHaveText('4.52 oz');
  await priming.getByLabel('Sugar').selectOption('table');
  await expect(primingResult).toHaveText('4.11 oz');

  // Keg pressure: psi first for a US account. 38 °F and 2.5 volumes → 11.2 psi.
  const keg = page.getByRole('form', { name: 'Keg pressure' });
  await expect(keg.getByLabel('Beer temperature (°F)')).toHaveValue('38');
  await keg.getByLabel('Beer temperature (°F)').fill('38');
  await keg.getByLabel('Carbonation (vol CO₂)').fill('2.5');
  const kegResult = page.getByLabel('Keg pressure result').getByRole('definition').first();
  await expect(kegResult).toHaveText('11.2 psi');

  // Dilution: a target above the gravity is the API's 422, shown at its field.
  const dilution = page.getByRole('form', { name: 'Dilution' });
  await dilution.getByLabel('Gravity wanted (SG)').fill('1.070');
  await expect(dilution.getByLabel('Gravity wanted (SG)')).toHaveAttribute('aria-invalid', 'true');
  await expect(dilution.getByLabel('Gravity wanted (SG)')).toHaveAccessibleDescription('Must be less than 1.060');
  await dilution.getByLabel('Gravity wanted (SG)').fill('1.040');
  await expect(dilution.getByLabel('Gravity wanted (SG)')).not.toHaveAttribute('aria-invalid', 'true');
  // 5 gal at 1.060 to 1.040: 2.5 gal of water.
  await expect(page.getByText('2.5 gal', { exact: true })).toBeVisible();

  // Text that is not a number waits, and says so.
  const pitch = page.getByRole('form', { name: 'Pitch rate' });
  await pitch.getByLabel('Viability (%)').fill('lots');
  await expect(pitch.getByLabel('Viability (%)')).toHaveAccessibleDescription('Enter a number');
  await pitch.getByLabel('Viability (%)').fill('90');
  // 5 gal (18.93 L) of 1.050 wort at 0.75 million cells per ml and °P.
  await expect(page.getByText('176 billion', { exact: true })).toBeVisible();

  await checkPage(page);
});
