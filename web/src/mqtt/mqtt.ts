// What the MQTT settings form sends: pure, unit-tested in MqttForm.test.tsx.
import type { Schemas } from '../api/client';

export type MqttIntegration = Schemas['MqttIntegration'];
export type MqttBody = Schemas['UpdateMqttRequest'];

/** The API's defaults for a new integration (docs/mqtt.md). */
export const DEFAULT_TOPIC_PREFIX = 'wort';
export const DEFAULT_DISCOVERY_PREFIX = 'homeassistant';

/** The form's fields as typed. `password` empty means "keep the saved one" (or "none" on create). */
export interface MqttDraft {
  url: string;
  username: string;
  password: string;
  /** Remove the saved password (`password: null`). */
  clearPassword: boolean;
  topic_prefix: string;
  discovery_prefix: string;
  enabled: boolean;
}

export function draftOf(saved: MqttIntegration | null): MqttDraft {
  return {
    url: saved?.url ?? '',
    username: saved?.username ?? '',
    password: '',
    clearPassword: false,
    topic_prefix: saved?.topic_prefix ?? DEFAULT_TOPIC_PREFIX,
    discovery_prefix: saved?.discovery_prefix ?? DEFAULT_DISCOVERY_PREFIX,
    enabled: saved?.enabled ?? true,
  };
}

/**
 * The `PATCH` body: on create the URL and whatever else was filled in; on update only the fields
 * that changed (an emptied username and "remove the password" send `null`). Empty when nothing did.
 */
export function mqttBody(saved: MqttIntegration | null, d: MqttDraft): MqttBody {
  const body: MqttBody = {};
  const url = d.url.trim();
  const username = d.username.trim();
  const topic = d.topic_prefix.trim();
  const discovery = d.discovery_prefix.trim();
  if (!saved) {
    body.url = url;
    if (username) body.username = username;
    if (d.password) body.password = d.password;
    if (topic !== DEFAULT_TOPIC_PREFIX) body.topic_prefix = topic;
    if (discovery !== DEFAULT_DISCOVERY_PREFIX) body.discovery_prefix = discovery;
    if (!d.enabled) body.enabled = false;
    return body;
  }
  if (url !== saved.url) body.url = url;
  if (username !== (saved.username ?? '')) body.username = username || null;
  if (d.password) body.password = d.password;
  else if (d.clearPassword && saved.has_password) body.password = null;
  if (topic !== saved.topic_prefix) body.topic_prefix = topic;
  if (discovery !== saved.discovery_prefix) body.discovery_prefix = discovery;
  if (d.enabled !== saved.enabled) body.enabled = d.enabled;
  return body;
}
