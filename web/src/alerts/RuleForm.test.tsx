// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ApiError } from '../api/client';
import { DEFAULT_PREFERENCES, type Preferences } from '../api/extra';
import { RuleForm } from './RuleForm';

const us: Preferences = { ...DEFAULT_PREFERENCES, amounts: 'us', temperature: 'f' };
const sessions = [{ id: 's1', name: 'Pale', status: 'fermenting' as const, brew_date: '2026-11-20' }];

afterEach(cleanup);

function setup(over: Partial<Parameters<typeof RuleForm>[0]> = {}) {
  const onSubmit = vi.fn();
  render(<RuleForm sessions={sessions} prefs={us} error={null} pending={false} submitLabel="Add rule" onSubmit={onSubmit} {...over} />);
  return onSubmit;
}

describe('RuleForm', () => {
  it('shows only the chosen kind’s fields, in the account’s units', async () => {
    setup();
    const user = userEvent.setup();
    expect(screen.getByLabelText('Lowest temperature (°F)')).toHaveProperty('value', '64');
    expect(screen.getByLabelText('Highest temperature (°F)')).toHaveProperty('value', '70');
    expect(screen.queryByLabelText(/Gravity/)).toBeNull();

    await user.selectOptions(screen.getByLabelText('What to watch'), 'gravity_below');
    expect(screen.getByLabelText('Gravity (SG)')).toHaveProperty('value', '1.010');
    expect(screen.queryByLabelText(/temperature/)).toBeNull();

    await user.selectOptions(screen.getByLabelText('What to watch'), 'stalled');
    expect(screen.getByLabelText('Gravity points')).toBeTruthy();
    expect(screen.getByLabelText('Hours')).toBeTruthy();
    expect(screen.queryByLabelText('Gravity (SG)')).toBeNull();

    await user.selectOptions(screen.getByLabelText('What to watch'), 'device_silent');
    expect(screen.getAllByRole('textbox')).toEqual([screen.getByLabelText('Minutes')]);
  });

  it('sends °C and the session picked', async () => {
    const onSubmit = setup({ initialSession: 's1' });
    const user = userEvent.setup();
    expect(screen.getByLabelText('Brew session')).toHaveProperty('value', 's1');
    await user.clear(screen.getByLabelText('Highest temperature (°F)'));
    await user.type(screen.getByLabelText('Highest temperature (°F)'), '68');
    await user.click(screen.getByRole('button', { name: 'Add rule' }));
    const sent = onSubmit.mock.calls[0]![0] as { kind: string; session_id: string | null; fields: Record<string, number> };
    expect(sent.kind).toBe('temperature_outside');
    expect(sent.session_id).toBe('s1');
    expect(sent.fields.min_c).toBeCloseTo((64 - 32) / 1.8, 9);
    expect(sent.fields.max_c).toBeCloseTo(20, 9);

    await user.selectOptions(screen.getByLabelText('Brew session'), '');
    await user.click(screen.getByRole('button', { name: 'Add rule' }));
    expect((onSubmit.mock.calls[1]![0] as { session_id: string | null }).session_id).toBeNull();
  });

  it('shows the API’s 422 at the field, with its bound in °F', () => {
    const error = new ApiError(422, 'Validation failed', [{ path: ['max_c'], code: 'too_big', message: 'Must be at most 120', maximum: 120 }]);
    setup({ error });
    const max = screen.getByLabelText('Highest temperature (°F)');
    expect(max.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(max.getAttribute('aria-describedby')!.split(' ')[0]!)?.textContent).toBe('Must be at most 248 °F');
    expect(screen.getByRole('alert').textContent).toMatch(/correct the marked fields/);
  });

  it('keeps the kind of a rule being edited', () => {
    setup({
      rule: { id: 'r', kind: 'gravity_above', gravity: 1.02, enabled: true, session_id: null, created_at: '', updated_at: '' },
      submitLabel: 'Save rule',
    });
    expect(screen.queryByLabelText('What to watch')).toBeNull();
    expect(screen.getByText(/Gravity above a mark/)).toBeTruthy();
    expect(screen.getByLabelText('Gravity (SG)')).toHaveProperty('value', '1.020');
  });
});
