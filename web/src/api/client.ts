import createClient from 'openapi-fetch';
import type { components, paths } from './schema';

export type Schemas = components['schemas'];

/** The typed client for every path of the committed OpenAPI snapshot. Cookie auth only. */
export const client = createClient<paths>({ baseUrl: '', credentials: 'same-origin' });

/** One detail of a `422`, as the OpenAPI document describes it (bounds in API units). */
export type Issue = Schemas['ValidationIssue'];

/** An error answer of the API, with what the page needs to show it where the person can act. */
export class ApiError extends Error {
  readonly status: number;
  readonly details: Issue[];
  /** Seconds to wait, from `Retry-After` (429, 503). */
  readonly retryAfter: number | null;

  constructor(status: number, message: string, details: Issue[] = [], retryAfter: number | null = null) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.details = details;
    this.retryAfter = retryAfter;
  }

  /** The messages of the details whose path starts with `field`. */
  at(field: string): string | undefined {
    const hits = this.details.filter((d) => String(d.path[0] ?? '') === field);
    return hits.length ? hits.map((d) => d.message).join('; ') : undefined;
  }

  /** Details not attached to any of `fields`, as a sentence for a form-wide message. */
  rest(fields: string[]): string {
    const others = this.details.filter((d) => !fields.includes(String(d.path[0] ?? '')));
    if (this.details.length && !others.length) return 'Please correct the marked fields.';
    const parts = others.map((d) => (d.path.length ? `${d.path.join('.')}: ${d.message}` : d.message));
    return parts.length ? `${this.message}: ${parts.join('; ')}` : this.message;
  }
}

export function retryAfterFrom(res: Response): number | null {
  const h = res.headers.get('Retry-After');
  if (!h) return null;
  const n = Number(h);
  if (Number.isFinite(n)) return n;
  const t = Date.parse(h);
  return Number.isNaN(t) ? null : Math.max(0, Math.round((t - Date.now()) / 1000));
}

export function toApiError(res: Response, body: unknown): ApiError {
  let message = `Request failed (${res.status})`;
  let details: Issue[] = [];
  if (body && typeof body === 'object') {
    const b = body as { error?: unknown; details?: unknown };
    if (typeof b.error === 'string') message = b.error;
    if (Array.isArray(b.details)) details = b.details as Issue[];
  }
  return new ApiError(res.status, message, details, retryAfterFrom(res));
}

interface FetchResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** Waits for an openapi-fetch call; its data, or an ApiError. */
export async function unwrap<T>(call: Promise<FetchResult<T>>): Promise<T> {
  let r: FetchResult<T>;
  try {
    r = await call;
  } catch {
    throw new ApiError(0, 'Network error: the server could not be reached');
  }
  if (!r.response.ok) throw toApiError(r.response, r.error);
  return r.data as T;
}

/** Like unwrap, and the `X-Total-Count` of a paged list. */
export async function unwrapPage<T>(call: Promise<FetchResult<T>>): Promise<{ items: T; total: number }> {
  let r: FetchResult<T>;
  try {
    r = await call;
  } catch {
    throw new ApiError(0, 'Network error: the server could not be reached');
  }
  if (!r.response.ok) throw toApiError(r.response, r.error);
  const total = Number(r.response.headers.get('X-Total-Count') ?? '0');
  return { items: r.data as T, total };
}

/**
 * A plain JSON call, for the few paths whose types are declared by hand (`extra.ts`) or chosen at
 * run time (the recipe's child tables). Same cookie and error rules as the typed client.
 */
export async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'Network error: the server could not be reached');
  }
  const text = await res.text();
  let parsed: unknown = undefined;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
  }
  if (!res.ok) throw toApiError(res, parsed);
  return parsed as T;
}

export function errorText(e: unknown): string {
  if (e instanceof ApiError) {
    if (e.status === 429 && e.retryAfter != null) return `${e.message} (${retryText(e.retryAfter)})`;
    return e.message;
  }
  return e instanceof Error ? e.message : String(e);
}

export function retryText(seconds: number, now = new Date()): string {
  const at = new Date(now.getTime() + seconds * 1000);
  const time = at.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  if (seconds < 90) return `try again in ${seconds} s`;
  if (seconds < 5400) return `try again in ${Math.ceil(seconds / 60)} min, at ${time}`;
  return `try again at ${time}`;
}
