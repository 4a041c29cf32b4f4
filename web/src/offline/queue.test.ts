import { beforeEach, describe, expect, it } from 'vitest';
import { dismissFailed, flush, newKey, setStorage, snapshot, waitingFor, writeOrQueue } from './queue';

function memory() {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), m };
}

/** A server that records what it got; `down` makes every call fail like a cut network. */
function server() {
  const got: { path: string; key: string | null; body: string }[] = [];
  const s = {
    down: false,
    status: 200,
    got,
    fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
      if (s.down) throw new TypeError('Failed to fetch');
      const headers = new Headers(init?.headers);
      got.push({ path: String(input), key: headers.get('Idempotency-Key'), body: String(init?.body) });
      return new Response(JSON.stringify(s.status < 400 ? { ok: true } : { error: 'Refused' }), { status: s.status });
    }) as typeof fetch,
  };
  return s;
}

const write = (label: string, user = 'ada') => ({ user, method: 'PATCH' as const, path: `/v1/steps/${label}`, body: { completed: true }, label });

describe('offline writes', () => {
  let store: ReturnType<typeof memory>;
  beforeEach(() => {
    store = memory();
    setStorage(store);
  });

  it('sends at once when the network is there', async () => {
    const s = server();
    const out = await writeOrQueue(write('a'), { online: true, fetcher: s.fetch });
    expect(out).toEqual({ queued: false, data: { ok: true } });
    expect(s.got[0]?.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(waitingFor('ada')).toEqual([]);
  });

  it('keeps writes in order with their keys, survives a reload and sends them once back online', async () => {
    const s = server();
    s.down = true;
    expect(await writeOrQueue(write('a'), { online: true, fetcher: s.fetch })).toEqual({ queued: true });
    // Once one waits, the next waits behind it even if the network looks back.
    s.down = false;
    expect(await writeOrQueue(write('b'), { online: true, fetcher: s.fetch })).toEqual({ queued: true });
    expect(s.got).toHaveLength(0);
    const keys = waitingFor('ada').map((w) => w.key);

    setStorage(store); // a reload reads the queue back
    expect(waitingFor('ada').map((w) => w.label)).toEqual(['a', 'b']);

    s.down = true;
    expect(await flush('ada', s.fetch)).toBe(0);
    expect(waitingFor('ada')).toHaveLength(2);
    s.down = false;
    expect(await flush('ada', s.fetch)).toBe(2);
    expect(s.got.map((g) => [g.path, g.key])).toEqual([
      ['/v1/steps/a', keys[0]],
      ['/v1/steps/b', keys[1]],
    ]);
    expect(waitingFor('ada')).toEqual([]);
  });

  it('sends only the account’s own writes, and sets aside what the server refuses', async () => {
    const s = server();
    await writeOrQueue(write('mine'), { online: false, fetcher: s.fetch });
    await writeOrQueue(write('theirs', 'bob'), { online: false, fetcher: s.fetch });
    s.status = 422;
    expect(await flush('ada', s.fetch)).toBe(0);
    expect(s.got.map((g) => g.path)).toEqual(['/v1/steps/mine']);
    expect(snapshot().failed.map((f) => [f.label, f.error])).toEqual([['mine', 'Refused']]);
    expect(waitingFor('bob')).toHaveLength(1);
    dismissFailed(snapshot().failed[0]?.key ?? '');
    expect(snapshot().failed).toEqual([]);
  });

  it('a 409 (the first attempt still running) is retried later, not dropped', async () => {
    const s = server();
    await writeOrQueue(write('a'), { online: false, fetcher: s.fetch });
    s.status = 409;
    expect(await flush('ada', s.fetch)).toBe(0);
    expect(waitingFor('ada')).toHaveLength(1);
  });

  it('makes version-4 UUID keys', () => {
    expect(newKey()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
