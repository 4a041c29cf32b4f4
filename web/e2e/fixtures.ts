import { test as base, expect } from '@playwright/test';

/** Every page records Content-Security-Policy violations; a test fails when there is one. */
export const test = base.extend({
  page: async ({ page }, use) => {
    const violations: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) violations.push(m.text());
    });
    page.on('pageerror', (e) => violations.push(`page error: ${e.message}`));
    await use(page);
    expect(violations, 'CSP violations or uncaught errors').toEqual([]);
  },
});

export { expect };
