import { describe, expect, it } from 'vitest';
import { explainedValue, explainQuestion, explainTitle, partsTitle } from './explain';

describe('explanations', () => {
  it('name each figure in a question and a heading', () => {
    expect(explainQuestion('og')).toBe('How is OG computed?');
    expect(explainQuestion('calories')).toBe('How are the calories computed?');
    expect(explainTitle('srm')).toBe('How the colour (SRM) is computed');
    expect(explainTitle('calories')).toBe('How the calories are computed');
  });
  it('say what the parts are', () => {
    expect(partsTitle('ibu')).toBe('Per hop');
    expect(partsTitle('og')).toBe('Per fermentable');
    expect(partsTitle('srm')).toBe('Per fermentable');
  });
  it('show a value as the formula has it, with its unit', () => {
    expect(explainedValue(9.9208, 'lb')).toBe('9.9208 lb');
    expect(explainedValue(20, 'L')).toBe('20 L');
    expect(explainedValue(72, '%')).toBe('72 %');
    expect(explainedValue(0.2412)).toBe('0.2412');
    expect(explainedValue(1.05541234, 'SG')).toBe('1.0554 SG');
    expect(explainedValue(null)).toBe('—');
  });
});
