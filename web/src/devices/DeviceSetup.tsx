import { CopyBlock, CopyField, OnceSecret } from '../components/Secret';
import { ingestUrl, kindLabel, setupFor, type DeviceKind } from './devices';

/**
 * The token of a device, shown once (after create and after "Replace token"), with its full
 * ingest URL and the setup for its kind, ready to copy.
 */
export function DeviceToken({ name, kind, token, onDone }: { name: string; kind: DeviceKind; token: string; onDone: () => void }) {
  const url = ingestUrl(window.location.origin, token);
  const setup = setupFor(kind, url);
  return (
    <OnceSecret title={`Set up “${name}”`} label="Device token" value={token} copyLabel="Copy token" onDone={onDone}>
      <p className="small muted">The device posts its readings to this URL; the token in it is its only credential.</p>
      <CopyField label="Ingest URL" value={url} copyLabel="Copy URL" />
      <p className="small muted">
        It starts with the address this browser uses. If the device reaches wort under another one (a network name instead of localhost), keep the{' '}
        <code>/ingest/…</code> part and change the rest.
      </p>
      <h3>{kindLabel(kind)}</h3>
      <ol className="setup-steps">
        {setup.steps.map((s) => (
          <li key={s}>{s}</li>
        ))}
      </ol>
      {setup.snippet && <CopyBlock label={setup.snippet.label} text={setup.snippet.text} copyLabel={setup.snippet.copy} />}
      <p className="small muted">
        Readings go to the brew session the device is assigned to; without one, or when that session is completed or abandoned, posts are refused (409) and
        nothing is stored. Every kind and its payloads are described in <code>docs/devices.md</code> of the wort documentation.
      </p>
    </OnceSecret>
  );
}
