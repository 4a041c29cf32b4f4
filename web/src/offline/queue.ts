/**
 * Writes made without network wait here, on this device, and are sent when it returns.
 *
 * A brewery floor (a garage, a shed) often has no network. Ticking a checklist step, a timer's
 * start or pause and a reading are too important to lose: when the server cannot be reached they
 * are kept in `localStorage` with the `Idempotency-Key` they were first sent with, in order, and
 * sent again in that order when the network returns. The key makes the server apply each write
 * once, even when the first attempt did reach it and only the answer was lost.
 *
 * Writes belong to the account that made them and are only ever sent for that account. A write
 * the server refuses (a 4xx other than "still running") is moved to `failed`, and the page says so.
 */
import { ApiError, toApiError } from '../api/client';

export interface QueuedWrite {
  /** The Idempotency-Key, fixed when the write is first made. */
  key: string;
  /** The account that made the write. */
  user: string;
  method: 'POST' | 'PATCH';
  path: string;
  body: unknown;
  /** What the page shows while it waits ("Tick “Mash in”"). */
  label: string;
  queuedAt: number;
}

export interface FailedWrite extends QueuedWrite {
  error: string;
}

interface State {
  waiting: QueuedWrite[];
  failed: FailedWrite[];
}

const STORAGE_KEY = 'wort.offline-writes';

/** Where the queue lives; tests give a Map-backed one. */
export interface Storage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

let storage: Storage | null = typeof localStorage === 'undefined' ? null : localStorage;
let state: State = load();
const listeners = new Set<() => void>();

function load(): State {
  try {
    const raw = storage?.getItem(STORAGE_KEY);
    const parsed = raw ? (JSON.parse(raw) as Partial<State>) : {};
    return { waiting: parsed.waiting ?? [], failed: parsed.failed ?? [] };
  } catch {
    return { waiting: [], failed: [] };
  }
}

function save(next: State) {
  state = next;
  try {
    storage?.setItem(STORAGE_KEY, JSON.stringify(next));
  } catch {
    // A full or blocked storage keeps the queue in memory for this page's life.
  }
  listeners.forEach((l) => l());
}

/** For tests: another storage, and the queue read from it. */
export function setStorage(s: Storage | null) {
  storage = s;
  state = load();
}

export function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The current queue (a stable object until it changes, for useSyncExternalStore). */
export function snapshot(): State {
  return state;
}

export function waitingFor(user: string): QueuedWrite[] {
  return state.waiting.filter((w) => w.user === user);
}

export function dismissFailed(key: string) {
  save({ ...state, failed: state.failed.filter((f) => f.key !== key) });
}

/** A fresh Idempotency-Key: a random UUID (also where `crypto.randomUUID` is missing: plain http). */
export function newKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** No answer at all: the network (or the server) is out of reach. */
export function isUnreachable(e: unknown): boolean {
  return e instanceof ApiError && e.status === 0;
}

/** Sends one write with its key; its answer's body, or an ApiError (status 0: unreachable). */
export async function send(w: QueuedWrite, fetcher: typeof fetch = fetch): Promise<unknown> {
  let res: Response;
  try {
    res = await fetcher(w.path, {
      method: w.method,
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': w.key },
      body: JSON.stringify(w.body ?? {}),
    });
  } catch {
    throw new ApiError(0, 'Network error: the server could not be reached');
  }
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (!res.ok) throw toApiError(res, body);
  return body;
}

export type Outcome<T> = { queued: true } | { queued: false; data: T };

/**
 * Sends the write now, or queues it when the network is gone (or earlier writes of this account
 * still wait: they must reach the server first, in order).
 */
export async function writeOrQueue<T>(
  write: Omit<QueuedWrite, 'key' | 'queuedAt'>,
  options: { online?: boolean; fetcher?: typeof fetch } = {},
): Promise<Outcome<T>> {
  const w: QueuedWrite = { ...write, key: newKey(), queuedAt: Date.now() };
  const online = options.online ?? (typeof navigator === 'undefined' ? true : navigator.onLine);
  if (!online || waitingFor(w.user).length) {
    save({ ...state, waiting: [...state.waiting, w] });
    return { queued: true };
  }
  try {
    return { queued: false, data: (await send(w, options.fetcher)) as T };
  } catch (e) {
    if (!isUnreachable(e)) throw e;
    save({ ...state, waiting: [...state.waiting, w] });
    return { queued: true };
  }
}

let flushing: Promise<number> | null = null;

/**
 * Sends this account's waiting writes in order; stops at the first one the network cannot take
 * (or that the server still runs: 409). Answers how many were sent. One flush at a time.
 */
export function flush(user: string, fetcher: typeof fetch = fetch): Promise<number> {
  if (flushing) return flushing;
  flushing = (async () => {
    let sent = 0;
    for (;;) {
      const next = waitingFor(user)[0];
      if (!next) break;
      try {
        await send(next, fetcher);
        sent += 1;
        save({ ...state, waiting: state.waiting.filter((w) => w.key !== next.key) });
      } catch (e) {
        if (isUnreachable(e) || (e instanceof ApiError && (e.status === 409 || e.status >= 500))) break;
        const error = e instanceof Error ? e.message : String(e);
        save({
          waiting: state.waiting.filter((w) => w.key !== next.key),
          failed: [...state.failed, { ...next, error }],
        });
      }
    }
    return sent;
  })().finally(() => {
    flushing = null;
  });
  return flushing;
}

/** This account's waiting writes to `path` with `method`, oldest first (what a page shows in place, marked as waiting). */
export function waitingWrites(queue: State, user: string, method: QueuedWrite['method'], path: string | ((p: string) => boolean)): QueuedWrite[] {
  const matches = typeof path === 'string' ? (p: string) => p === path : path;
  return queue.waiting.filter((w) => w.user === user && w.method === method && matches(w.path));
}
