// For the component tests: the API as a function of (method, path, body), behind `fetch`.
import { vi } from 'vitest';

export interface FakeAnswer {
  status: number;
  body?: unknown;
  /** The `X-Total-Count` of a list. */
  total?: number;
}

/** Answers every call with `handle`; the calls, as "METHOD /path?query body", in order. */
export function stubFetch(handle: (method: string, path: string, body: unknown) => FakeAnswer): string[] {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const req = new Request(new URL(input instanceof Request ? input.url : String(input), 'http://localhost'), input instanceof Request ? input : init);
      const url = new URL(req.url);
      const path = url.pathname + url.search;
      const text = await req.text();
      calls.push(`${req.method} ${path}${text ? ` ${text}` : ''}`);
      const r = handle(req.method, path, text ? JSON.parse(text) : undefined);
      const headers = new Headers(r.total != null ? { 'X-Total-Count': String(r.total) } : {});
      return new Response(r.body === undefined ? null : JSON.stringify(r.body), { status: r.status, headers });
    }),
  );
  return calls;
}

/** The typed client, on an absolute base (Node's `Request` wants one) and calling `fetch` as stubbed now. */
export async function testClientModule(original: () => Promise<typeof import('../../api/client')>) {
  const mod = await original();
  const { default: createClient } = await import('openapi-fetch');
  const client = createClient<import('../../api/schema').paths>({ baseUrl: 'http://localhost', fetch: (req) => globalThis.fetch(req) });
  return { ...mod, client };
}
