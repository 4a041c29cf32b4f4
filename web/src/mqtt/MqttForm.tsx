import { useState } from 'react';
import { ApiError } from '../api/client';
import { TextField } from '../components/Field';
import { ErrorBox } from '../components/States';
import { draftOf, mqttBody, type MqttBody, type MqttDraft, type MqttIntegration } from './mqtt';

const FIELDS = ['url', 'username', 'password', 'topic_prefix', 'discovery_prefix', 'enabled'];

/**
 * The broker's settings: on create every field, on update the saved values with the password left
 * empty. `onSubmit` gets only what changed (`mqttBody`); nothing changed sends nothing.
 */
export function MqttForm({
  saved,
  error,
  pending,
  onSubmit,
}: {
  saved: MqttIntegration | null;
  error: unknown;
  pending: boolean;
  onSubmit: (body: MqttBody) => void;
}) {
  const [d, setD] = useState<MqttDraft>(() => draftOf(saved));
  const [unchanged, setUnchanged] = useState(false);
  const set = (patch: Partial<MqttDraft>) => {
    setD((old) => ({ ...old, ...patch }));
    setUnchanged(false);
  };
  const api = error instanceof ApiError ? error : null;
  const rest = api ? api.rest(FIELDS) : null;
  return (
    <form
      noValidate
      aria-label="Broker settings"
      onSubmit={(e) => {
        e.preventDefault();
        const body = mqttBody(saved, d);
        if (saved && Object.keys(body).length === 0) return setUnchanged(true);
        onSubmit(body);
      }}
    >
      <TextField
        label="Broker URL"
        type="url"
        inputMode="url"
        autoComplete="off"
        spellCheck={false}
        placeholder="mqtt://192.168.1.20:1883"
        hint="mqtt:// or mqtts:// (TLS), a host and an optional port: 1883 and 8883 by default."
        value={d.url}
        error={api?.at('url')}
        onChange={(e) => set({ url: e.target.value })}
      />
      <div className="account-grid">
        <TextField
          label="Username"
          autoComplete="off"
          spellCheck={false}
          hint="Empty when the broker takes anonymous clients."
          value={d.username}
          error={api?.at('username')}
          onChange={(e) => set({ username: e.target.value })}
        />
        <TextField
          label="Password"
          type="password"
          autoComplete="new-password"
          hint={saved?.has_password ? 'Leave empty to keep the saved password.' : undefined}
          value={d.password}
          disabled={d.clearPassword}
          error={api?.at('password')}
          onChange={(e) => set({ password: e.target.value })}
        />
      </div>
      {saved?.has_password && (
        <div className="check">
          <input type="checkbox" id="mqtt-clear-password" checked={d.clearPassword} onChange={(e) => set({ clearPassword: e.target.checked, password: '' })} />
          <label htmlFor="mqtt-clear-password">Remove the saved password</label>
        </div>
      )}
      <div className="account-grid">
        <TextField
          label="Topic prefix"
          autoComplete="off"
          spellCheck={false}
          hint="Readings go to <prefix>/sessions/<id>/reading, alerts to <prefix>/alerts."
          value={d.topic_prefix}
          error={api?.at('topic_prefix')}
          onChange={(e) => set({ topic_prefix: e.target.value })}
        />
        <TextField
          label="Discovery prefix"
          autoComplete="off"
          spellCheck={false}
          hint="Home Assistant’s, homeassistant unless you changed it there."
          value={d.discovery_prefix}
          error={api?.at('discovery_prefix')}
          onChange={(e) => set({ discovery_prefix: e.target.value })}
        />
      </div>
      <div className="check">
        <input
          type="checkbox"
          id="mqtt-enabled"
          checked={d.enabled}
          onChange={(e) => set({ enabled: e.target.checked })}
          aria-describedby="mqtt-enabled-hint"
        />
        <label htmlFor="mqtt-enabled">Enabled</label>
        <span className="hint" id="mqtt-enabled-hint">
          Messages are written and published only while it is on; switching it off drops those waiting.
        </span>
      </div>
      {api && api.at('enabled') && <p className="field-error">{api.at('enabled')}</p>}
      {error && (!api || rest !== 'Please correct the marked fields.') ? (
        <ErrorBox error={api ? new ApiError(api.status, rest ?? api.message) : error} />
      ) : error ? (
        <p className="form-error" role="alert">
          Not saved: please correct the marked fields.
        </p>
      ) : null}
      <div className="actions">
        <button type="submit" className="primary" disabled={pending}>
          {saved ? 'Save changes' : 'Save'}
        </button>
        <span role="status" className="muted">
          {unchanged ? 'Nothing changed.' : ''}
        </span>
      </div>
    </form>
  );
}
