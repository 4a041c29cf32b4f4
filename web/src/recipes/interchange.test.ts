import { describe, expect, it } from 'vitest';
import { exportHref, filePath, importKind } from './interchange';

describe('recipe interchange', () => {
  it('a path into the file reads with positions from 1', () => {
    expect(filePath(['RECIPES', 'RECIPE', '0', 'HOPS', 'HOP', '2', 'AMOUNT'])).toBe('RECIPES › RECIPE 1 › HOPS › HOP 3 › AMOUNT');
    expect(filePath(['beerjson', 'recipes', 1, 'name'])).toBe('beerjson › recipes 2 › name');
    expect(filePath(['0'])).toBe('#1');
    expect(filePath([])).toBe('');
  });
  it('the format comes from the name, the type, then the first bytes', async () => {
    expect(await importKind(new File(['{}'], 'a.XML'))).toBe('beerxml');
    expect(await importKind(new File(['<x/>'], 'a.json'))).toBe('beerjson');
    expect(await importKind(new File(['x'], 'recipes', { type: 'text/xml' }))).toBe('beerxml');
    expect(await importKind(new File(['  {"beerjson":{}}'], 'recipes'))).toBe('beerjson');
    expect(await importKind(new File(['\ufeff<?xml version="1.0"?>'], 'recipes'))).toBe('beerxml');
  });
  it('export links carry the format', () => {
    expect(exportHref('42', 'beerxml')).toBe('/v1/recipes/42/export?format=beerxml');
  });
});
