import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import openapiTS, { astToString } from 'openapi-typescript';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

describe('generated API types', () => {
  it('src/api/schema.d.ts matches the committed OpenAPI snapshot (run `npm run gen:api`)', async () => {
    const spec = readFileSync(here('../../../api/openapi.json'), 'utf8');
    const fresh = astToString(await openapiTS(JSON.parse(spec), { defaultNonNullable: false }));
    const committed = readFileSync(here('./schema.d.ts'), 'utf8');
    const strip = (s: string) => s.replace(/^\/\*\*[\s\S]*?\*\/\s*/, '').trim();
    expect(strip(committed)).toBe(strip(fresh));
  }, 30000);
});
