// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { Status } from './Mqtt';
import type { MqttIntegration } from './mqtt';

afterEach(cleanup);

const base: MqttIntegration = {
  url: 'mqtt://192.168.1.20:1883',
  username: null,
  has_password: false,
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

describe('Status', () => {
  it('shows the last publication, the pending messages and the last error as a note', () => {
    const at = new Date(Date.now() - 5 * 60_000).toISOString();
    render(
      <Status
        mqtt={{
          ...base,
          pending_messages: 12,
          last_published_at: at,
          last_error: 'cannot reach the broker at 192.168.1.20:1883: Connection refused',
          last_error_at: at,
        }}
      />,
    );
    const region = screen.getByRole('region', { name: 'Status' });
    expect(region.textContent).toMatch(/Last published5 min ago · /);
    expect(region.textContent).toMatch(/Pending messages12/);
    expect(region.querySelector(`time[datetime="${at}"]`)).toBeTruthy();
    const note = screen.getByRole('note', { name: 'Last error' });
    expect(note.textContent).toMatch(/^Last error \(5 min ago · .+\): cannot reach the broker at 192\.168\.1\.20:1883: Connection refused$/);
    expect(screen.getByText('Enabled, not publishing')).toBeTruthy();
  });

  it('says never and shows no error note when there is none', () => {
    render(<Status mqtt={base} />);
    expect(screen.getByRole('region', { name: 'Status' }).textContent).toMatch(/Last publishednever/);
    expect(screen.queryByRole('note')).toBeNull();
  });
});
