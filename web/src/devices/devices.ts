// Devices: the kinds' names and the copy-paste setup shown with a new token.
// Pure functions: unit-tested in devices.test.ts.
import type { Schemas } from '../api/client';
import { allOf } from '../api/enums';

export type DeviceKind = Schemas['DeviceKind'];

/** Every kind, in the order the select offers them, with the name a brewer knows it by. */
export const deviceKinds: readonly (readonly [DeviceKind, string])[] = allOf<DeviceKind>()([
  ['ispindel', 'iSpindel'],
  ['gravitymon', 'GravityMon'],
  ['tilt', 'Tilt'],
  ['rapt', 'RAPT Pill'],
  ['stream', 'Brewfather/Brewer’s Friend stream'],
  ['generic', 'Other (generic JSON)'],
]);

export function kindLabel(kind: string): string {
  return deviceKinds.find(([k]) => k === kind)?.[1] ?? kind;
}

/** The URL a device posts its readings to: the only credential is the token in it. */
export function ingestUrl(origin: string, token: string): string {
  return `${origin.replace(/\/+$/, '')}/ingest/${encodeURIComponent(token)}`;
}

/** RAPT's custom-webhook body: the portal fills in the `@` placeholders. */
export const raptTemplate = '{"name":"@device_name","temp":@temperature,"temp_unit":"C","gravity":@gravity,"gravity_unit":"G","battery":@battery}';

/** The smallest body any script can post. */
export const genericExample = '{"gravity":1.050,"temperature":20,"temp_units":"C"}';

export interface Setup {
  /** What to do, step by step, in the device's own words for its settings. */
  steps: string[];
  /** Text to paste as it is (a JSON template or an example command), with what it is. */
  snippet?: { label: string; text: string; copy: string };
}

/** Host, port and path of a URL, for settings that take them apart (the iSpindel's HTTP service). */
export function urlParts(url: string): { host: string; port: string; path: string } {
  try {
    const u = new URL(url);
    return { host: u.hostname, port: u.port || (u.protocol === 'https:' ? '443' : '80'), path: u.pathname };
  } catch {
    return { host: url, port: '', path: '' };
  }
}

/** The setup for one kind of device, with the device's full ingest URL filled in. */
export function setupFor(kind: DeviceKind, url: string): Setup {
  const interval =
    'Set the interval to 60 seconds or more (900, a quarter of an hour, is usual): wort stores one reading a minute per device (a faster post is answered 429).';
  switch (kind) {
    case 'ispindel': {
      const { host, port, path } = urlParts(url);
      return {
        steps: [
          'Open the iSpindel’s configuration portal and choose the service type “HTTP”.',
          `Server address: ${host} · Server port: ${port} · Path / URI (“Server URL” in some firmwares): ${path}`,
          interval,
          'Save. The next reading shows on the device’s page as “Last seen”, with what it sent.',
        ],
      };
    }
    case 'gravitymon':
      return {
        steps: [
          'In GravityMon’s web interface, open Push targets → HTTP Post (“Push settings → HTTP 1” in older versions): the service type “HTTP”.',
          `HTTP URL: ${url}`,
          interval,
          'Save. The next reading shows on the device’s page as “Last seen”, with what it sent.',
        ],
      };
    case 'tilt':
      return {
        steps: [
          'In the Tilt app, open Logging.',
          `Cloud URL: ${url}`,
          'Turn cloud logging on (it posts every 15 minutes). The app sends SG and °F; wort stores SG and °C.',
        ],
      };
    case 'rapt':
      return {
        steps: [
          'In the RAPT portal, open Integrations and add a Custom webhook.',
          `URL: ${url}`,
          'Method: POST. Content type: application/json.',
          'Payload: the template below, as it is. If the portal fills in °F or °Plato, change "temp_unit" to "F" or "gravity_unit" to "P".',
        ],
        snippet: { label: 'RAPT payload template', text: raptTemplate, copy: 'Copy template' },
      };
    case 'stream':
      return {
        steps: [
          'Where your device or app posts to a Brewfather custom stream or a Brewer’s Friend stream, put this URL instead of that one:',
          url,
          'Both streams’ JSON is read (gravity and temperature with their units, pH, comment). Post at most once a minute.',
        ],
      };
    case 'generic':
      return {
        steps: [
          `POST JSON to: ${url}`,
          'No other credential: the token in the URL is the device’s. Gravity in SG, temperature with "temp_units" C, F or K.',
          'One reading a minute is stored; a faster post is answered 429.',
        ],
        snippet: {
          label: 'Example request',
          copy: 'Copy command',
          text: `curl -X POST -H 'Content-Type: application/json' -d '${genericExample}' ${url}`,
        },
      };
  }
}
