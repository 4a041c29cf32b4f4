import { describe, expect, it } from 'vitest';
import { ApiError } from './api/client';
import { DEFAULT_PREFERENCES, type Preferences } from './api/extra';
import { issueInUnits, withDisplayUnits } from './issueUnits';

const us: Preferences = { ...DEFAULT_PREFERENCES, amounts: 'us' };

describe('422 bounds in display units', () => {
  it('a loss larger than the batch reads in gallons', () => {
    const d = { code: 'too_big', path: ['fermenter_loss_liters'], message: 'Number must be less than or equal to 18.927058919999997', maximum: 18.92705892 };
    expect(issueInUnits(d, 'volume', us).message).toBe('Must be at most 5 gal');
    expect(issueInUnits(d, 'volume', DEFAULT_PREFERENCES).message).toBe('Must be at most 18.93 L');
  });
  it('a bound in the words of the API keeps them, in the display unit', () => {
    const d = { code: 'custom', path: ['fermenter_loss_liters'], message: 'Must not be larger than the batch (18.92705892 L)', maximum: 18.92705892 };
    expect(issueInUnits(d, 'volume', us).message).toBe('Must not be larger than the batch (5 gal)');
    const metric = { ...d, message: 'Must not be larger than the batch (20 L)', maximum: 20 };
    expect(issueInUnits(metric, 'volume', DEFAULT_PREFERENCES).message).toBe('Must not be larger than the batch (20 L)');
  });
  it('fractions read as percent, exclusive bounds say so', () => {
    expect(issueInUnits({ code: 'too_big', path: ['efficiency'], message: 'x', maximum: 1 }, 'fraction', us).message).toBe('Must be at most 100 %');
    expect(issueInUnits({ code: 'too_small', path: ['batch_size_liters'], message: 'x', minimum: 0, inclusive: false }, 'volume', us).message).toBe(
      'Must be more than 0 gal',
    );
  });
  it('other details stay as the API wrote them', () => {
    const custom = { code: 'custom', path: [], message: 'Equipment profile is used by 2 recipe(s)' };
    expect(issueInUnits(custom, 'volume', us)).toEqual(custom);
    const e = new ApiError(422, 'Validation failed', [custom, { code: 'too_big', path: ['top_up_water_liters'], message: 'm', maximum: 3.785411784 }]);
    const out = withDisplayUnits(e, { top_up_water_liters: 'volume' }, us) as ApiError;
    expect(out.at('top_up_water_liters')).toBe('Must be at most 1 gal');
    expect(out.details[0]).toEqual(custom);
    expect(withDisplayUnits(new Error('x'), {}, us)).toBeInstanceOf(Error);
  });
});
