import { describe, expect, it } from 'vitest';
import { ApiError, errorText, retryText, toApiError } from './client';

describe('API errors', () => {
  it('a 422 detail is found at the field it names', () => {
    const res = new Response(null, { status: 422 });
    const e = toApiError(res, {
      error: 'Validation failed',
      details: [
        { code: 'too_small', path: ['batch_size_liters'], message: 'Number must be greater than 0' },
        { code: 'invalid_type', path: ['fermentables', '0', 'amount_kg'], message: 'Required' },
      ],
    });
    expect(e.status).toBe(422);
    expect(e.at('batch_size_liters')).toBe('Number must be greater than 0');
    expect(e.at('name')).toBeUndefined();
    expect(e.rest(['batch_size_liters'])).toBe('Validation failed: fermentables.0.amount_kg: Required');
    expect(e.rest(['batch_size_liters', 'fermentables'])).toBe('Please correct the marked fields.');
  });
  it('a 429 says when to retry', () => {
    const res = new Response(null, { status: 429, headers: { 'Retry-After': '30' } });
    const e = toApiError(res, { error: 'Too many sign-in attempts; try again later' });
    expect(e.retryAfter).toBe(30);
    expect(errorText(e)).toBe('Too many sign-in attempts; try again later (try again in 30 s)');
    const now = new Date('2026-11-23T23:00:00Z');
    expect(retryText(3600, now)).toMatch(/^try again in 60 min, at /);
    expect(retryText(7200, now)).toMatch(/^try again at /);
  });
  it('a body that is not the error shape still reads', () => {
    expect(toApiError(new Response(null, { status: 502 }), null).message).toBe('Request failed (502)');
    expect(errorText(new ApiError(0, 'Network error'))).toBe('Network error');
  });
});
