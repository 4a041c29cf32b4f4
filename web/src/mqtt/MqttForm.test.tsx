// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ApiError } from '../api/client';
import { MqttForm } from './MqttForm';
import { draftOf, mqttBody, type MqttIntegration } from './mqtt';

afterEach(cleanup);

const saved: MqttIntegration = {
  url: 'mqtt://192.168.1.20:1883',
  username: 'wort',
  has_password: true,
  topic_prefix: 'wort',
  discovery_prefix: 'homeassistant',
  enabled: true,
  last_error: null,
  last_error_at: null,
  last_published_at: null,
  pending_messages: 0,
  created_at: '2026-12-08T10:00:00Z',
  updated_at: '2026-12-08T10:00:00Z',
};

function setup(over: Partial<Parameters<typeof MqttForm>[0]> = {}) {
  const onSubmit = vi.fn();
  render(<MqttForm saved={null} error={null} pending={false} onSubmit={onSubmit} {...over} />);
  return onSubmit;
}

describe('mqttBody', () => {
  it('sends nothing when nothing changed, and null to clear', () => {
    expect(mqttBody(saved, draftOf(saved))).toEqual({});
    expect(mqttBody(saved, { ...draftOf(saved), username: ' ', clearPassword: true })).toEqual({ username: null, password: null });
    // A typed password wins over "remove".
    expect(mqttBody(saved, { ...draftOf(saved), password: 'new', clearPassword: true })).toEqual({ password: 'new' });
  });

  it('leaves the defaults out on create', () => {
    expect(mqttBody(null, { ...draftOf(null), url: ' mqtt://broker.lan ' })).toEqual({ url: 'mqtt://broker.lan' });
  });
});

describe('MqttForm', () => {
  it('creates with the URL and the credentials typed', async () => {
    const onSubmit = setup();
    const user = userEvent.setup();
    expect(screen.getByLabelText('Discovery prefix')).toHaveProperty('value', 'homeassistant');
    expect(screen.getByLabelText('Enabled')).toHaveProperty('checked', true);
    expect(screen.queryByLabelText('Remove the saved password')).toBeNull();
    await user.type(screen.getByLabelText('Broker URL'), 'mqtt://192.168.1.20:1883');
    await user.type(screen.getByLabelText('Username'), 'brewer');
    await user.type(screen.getByLabelText('Password'), 's3cret');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit).toHaveBeenCalledWith({ url: 'mqtt://192.168.1.20:1883', username: 'brewer', password: 's3cret' });
  });

  it('sends only the changed fields, never the empty password', async () => {
    const onSubmit = setup({ saved });
    const user = userEvent.setup();
    const password = screen.getByLabelText('Password');
    expect(password).toHaveProperty('value', '');
    expect(password.getAttribute('aria-describedby')).toBeTruthy();
    expect(screen.getByText('Leave empty to keep the saved password.')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(screen.getByRole('status').textContent).toBe('Nothing changed.');

    await user.clear(screen.getByLabelText('Topic prefix'));
    await user.type(screen.getByLabelText('Topic prefix'), 'cellar');
    await user.click(screen.getByLabelText('Enabled'));
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(onSubmit).toHaveBeenLastCalledWith({ topic_prefix: 'cellar', enabled: false });

    await user.click(screen.getByLabelText('Remove the saved password'));
    expect(password).toHaveProperty('disabled', true);
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(onSubmit).toHaveBeenLastCalledWith({ topic_prefix: 'cellar', enabled: false, password: null });
  });

  it('shows the API’s 422 at its field', () => {
    const error = new ApiError(422, 'Validation failed', [
      { path: ['url'], code: 'invalid', message: 'the broker’s address 127.0.0.1 is loopback: not allowed' },
    ] as ApiError['details']);
    setup({ saved, error });
    const url = screen.getByLabelText('Broker URL');
    expect(url.getAttribute('aria-invalid')).toBe('true');
    const described = url
      .getAttribute('aria-describedby')!
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent);
    expect(described).toContain('the broker’s address 127.0.0.1 is loopback: not allowed');
    expect(screen.getByLabelText('Topic prefix').getAttribute('aria-invalid')).toBeNull();
    expect(screen.getByRole('alert').textContent).toMatch(/correct the marked fields/);
  });
});
