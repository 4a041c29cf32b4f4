import AxeBuilder from '@axe-core/playwright';
import { expect, type APIRequestContext, type Page } from '@playwright/test';

export const baseURL = process.env.WORT_BASE_URL ?? 'http://127.0.0.1:5173';
const origin = new URL(baseURL).origin;
export const headers = { Origin: origin };

let n = 0;
export function uniqueEmail(tag = 'brewer'): string {
  return `${tag}-${Date.now().toString(36)}-${process.pid}-${n++}@example.test`;
}

export interface Account {
  email: string;
  password: string;
  name: string;
}

/** Signs up a fresh account through the API; the page's context gets its session cookie. */
export async function signUp(page: Page, name = 'Ada Brewer'): Promise<Account> {
  const account = { email: uniqueEmail(), password: 'correct horse battery', name };
  const res = await page.request.post('/api/auth/sign-up/email', { data: account, headers });
  expect(res.status(), await res.text()).toBe(200);
  return account;
}

/**
 * A read that met a kept-alive connection the server was closing just then (its idle timeout
 * and the reuse crossing) is sent again once: a transport race, not an answer. Writes are never
 * sent twice.
 */
async function fetchOnce(req: APIRequestContext, method: string, path: string, data?: unknown) {
  try {
    return await req.fetch(path, { method, data, headers });
  } catch (e) {
    const reset = e instanceof Error && /ECONNRESET|socket hang up/.test(e.message);
    if (method !== 'GET' || !reset) throw e;
    return req.fetch(path, { method, data, headers });
  }
}

/** A JSON call with the page's cookie (and the Origin the CSRF rule wants). */
export async function api<T = unknown>(req: APIRequestContext, method: string, path: string, data?: unknown): Promise<T> {
  const res = await fetchOnce(req, method, path, data);
  const text = await res.text();
  if (!res.ok()) throw new Error(`${method} ${path}: ${res.status()} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

export interface RecipeFixture {
  id: string;
  name: string;
}

/** A recipe with a fermentable, two hops, a yeast and a mash step. */
export async function makeRecipe(page: Page, name = 'Citra Pale Ale'): Promise<RecipeFixture> {
  const r = await api<{ id: string; name: string }>(page.request, 'POST', '/v1/recipes', {
    name,
    style: 'American Pale Ale',
    batch_size_liters: 20,
    boil_time_minutes: 60,
  });
  await api(page.request, 'POST', `/v1/recipes/${r.id}/fermentables`, { name: 'Pale malt', amount_kg: 4.5, color_srm: 3, yield_percent: 80 });
  await api(page.request, 'POST', `/v1/recipes/${r.id}/fermentables`, { name: 'Crystal 40', amount_kg: 0.3, color_srm: 40, yield_percent: 74 });
  await api(page.request, 'POST', `/v1/recipes/${r.id}/hops`, { name: 'Magnum', alpha_acid: 12, amount_grams: 15, time_minutes: 60 });
  await api(page.request, 'POST', `/v1/recipes/${r.id}/hops`, { name: 'Citra', alpha_acid: 12.5, amount_grams: 30, time_minutes: 5 });
  await api(page.request, 'POST', `/v1/recipes/${r.id}/yeasts`, { name: 'US-05', attenuation: 78, form: 'dry', lab: 'Fermentis' });
  await api(page.request, 'POST', `/v1/recipes/${r.id}/mash-steps`, { name: 'Saccharification', temperature_c: 66, duration_minutes: 60 });
  return r;
}

export async function hasPath(page: Page, path: string): Promise<boolean> {
  const res = await page.request.get('/v1/openapi.json');
  if (!res.ok()) return false;
  const doc = (await res.json()) as { paths: Record<string, unknown> };
  return path in doc.paths;
}

/** No serious or critical axe-core violation on the page as it is now. */
export async function checkA11y(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual([]);
}

/** No horizontal scrolling at this viewport. */
export async function checkNoHorizontalScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, 'page scrolls horizontally').toBeLessThanOrEqual(0);
}

/** Every visible button, link and form control is at least 44 px in both directions (or is inline text). */
export async function checkTapTargets(page: Page) {
  const small = await page.evaluate(() => {
    const out: string[] = [];
    for (const el of Array.from(document.querySelectorAll<HTMLElement>('button, a, input, select, textarea'))) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      if (el instanceof HTMLInputElement && el.type === 'checkbox') {
        // The checkbox's label row is the target.
        const row = el.closest('.check');
        const rr = row?.getBoundingClientRect();
        if (rr && rr.height >= 44) continue;
      }
      if (el.tagName === 'A' && getComputedStyle(el).display === 'inline') continue; // links in running text
      if (r.height < 43.5 || r.width < 24)
        out.push(
          `${el.tagName} "${(el.textContent || el.getAttribute('aria-label') || '').trim().slice(0, 30)}" ${Math.round(r.width)}x${Math.round(r.height)}`,
        );
    }
    return out;
  });
  expect(small).toEqual([]);
}

/** The page's layout and accessibility checks, in one call. */
export async function checkPage(page: Page) {
  await checkNoHorizontalScroll(page);
  await checkTapTargets(page);
  await checkA11y(page);
}

/** Follows a link of the main navigation; on a phone the links are behind the Menu button. */
export async function navTo(page: Page, name: string): Promise<void> {
  await openMenu(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();
}

/** Opens the Menu (below 1280 px the links, the name and Sign out live there); no-op on a desktop. */
export async function openMenu(page: Page): Promise<void> {
  // The header first: right after a navigation the page may not be drawn yet.
  await page.locator('header.top').waitFor();
  const toggle = page.getByRole('button', { name: 'Menu', exact: true });
  if (await toggle.isVisible()) await toggle.click();
}

/** A status move of a brew session ("Move to fermenting", "Abandon"): on a phone the moves sit
 * behind "Change status", which this opens first when the button is hidden. */
export async function statusMove(page: Page, name: string) {
  const button = page.getByRole('button', { name, exact: true });
  const toggle = page.getByRole('button', { name: 'Change status' });
  if (!(await button.isVisible()) && (await toggle.isVisible())) await toggle.click();
  return button;
}
