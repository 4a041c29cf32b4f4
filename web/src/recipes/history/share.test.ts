import { describe, expect, it } from 'vitest';
import { absoluteLink } from './share';

describe('share links', () => {
  it('keep an absolute link as it is', () => {
    expect(absoluteLink('https://brew.example/shared/abc', 'http://127.0.0.1:5173')).toBe('https://brew.example/shared/abc');
  });
  it('make a path absolute against the page', () => {
    expect(absoluteLink('/shared/abc', 'http://127.0.0.1:5173')).toBe('http://127.0.0.1:5173/shared/abc');
  });
  it('give back what is not a link', () => {
    expect(absoluteLink('/shared/abc', 'not an origin')).toBe('/shared/abc');
  });
});
