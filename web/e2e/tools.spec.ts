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

test('tools: a pitch rate from the pack’s production date, with a starter in steps; a refractometer by Novotný', async ({ page }) => {
  await signUp(page);
  await page.goto('/tools');
  await expect(page.getByRole('heading', { level: 1, name: 'Tools' })).toBeVisible();

  // 40 L of 1.070 lager from a pack made 92 days before pitching: the API's viability from its
  // age (100 − 0.7 × 92 = 35.6 %) and a starter in two steps of at most 4 L.
  const pitch = page.getByRole('form', { name: 'Pitch rate' });
  await pitch.getByLabel('Wort volume (L)').fill('40');
  await pitch.getByLabel('Original gravity (SG)').fill('1.070');
  await pitch.getByLabel('Beer').selectOption('lager');
  await expect(pitch.getByLabel('Production date')).toHaveCount(0);
  await pitch.getByLabel('Viability from').selectOption('date');
  await expect(pitch.getByLabel('Viability (%)')).toHaveCount(0);
  await pitch.getByLabel('Production date').fill('2026-08-01');
  await pitch.getByLabel('Pitching day').fill('2026-11-01');
  const result = page.getByLabel('Pitch rate result');
  await expect(result).toContainText('Cells to pitch1023 billion');
  await expect(result).toContainText('Viability used35.6 %');
  await expect(result).toContainText('Age of the pack92 days');
  await expect(result).toContainText('Or one pack and a starter7.85 L at 1.036');
  const steps = page.getByRole('table', { name: 'Starter steps' });
  await expect(steps.getByRole('row')).toHaveCount(3);
  await expect(steps.getByRole('row').nth(1).getByRole('cell')).toHaveText(['4 L', '1.036', '373.9 g', '35.6 → 559.1']);
  await expect(steps.getByRole('row').nth(2).getByRole('cell')).toHaveText(['3.85 L', '1.036', '360 g', '559.1 → 1023.3']);
  await checkPage(page);

  // A pack made after the pitching day is the API's 422, at the production date.
  await pitch.getByLabel('Pitching day').fill('2026-07-01');
  await expect(pitch.getByLabel('Production date')).toHaveAccessibleDescription(/Must not be after/);

  // Back to a viability in per cent: the dates go, the viability comes back as it was.
  await pitch.getByLabel('Viability from').selectOption('percent');
  await expect(pitch.getByLabel('Production date')).toHaveCount(0);
  await expect(pitch.getByLabel('Viability (%)')).toHaveValue('90');
  await expect(result).not.toContainText('Age of the pack');

  // The refractometer: Terrill's cubic by default, Novotný's on request (12.5 → 6.5 °Bx).
  const refractometer = page.getByRole('form', { name: 'Refractometer' });
  const refractometerResult = page.getByLabel('Refractometer result');
  await expect(refractometer.getByLabel('Correction', { exact: true })).toHaveValue('terrill');
  await expect(refractometerResult).toContainText('ABV4.72 %');
  await refractometer.getByLabel('Correction', { exact: true }).selectOption('novotny');
  await expect(refractometerResult).toContainText('Gravity now1.010');
  await expect(refractometerResult).toContainText('ABV4.99 %');
});
