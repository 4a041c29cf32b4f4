import { useEffect, useState, useSyncExternalStore } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { forgetKeptAnswers } from './keptAnswers';
import { dismissFailed, flush, snapshot, subscribe } from './queue';

function useOnline(): boolean {
  const [online, setOnline] = useState(() => navigator.onLine);
  useEffect(() => {
    const on = () => setOnline(true);
    const off = () => setOnline(false);
    window.addEventListener('online', on);
    window.addEventListener('offline', off);
    return () => {
      window.removeEventListener('online', on);
      window.removeEventListener('offline', off);
    };
  }, []);
  return online;
}

/**
 * Says when the app is offline and what waits to be sent, and sends it when the network returns
 * (at once on the browser's `online` event, and every 15 s while anything waits, since a
 * server that was down comes back without such an event).
 */
export function OfflineStatus({ user }: { user: string }) {
  const online = useOnline();
  const queue = useSyncExternalStore(subscribe, snapshot);
  const waiting = queue.waiting.filter((w) => w.user === user);
  const failed = queue.failed.filter((w) => w.user === user);
  const qc = useQueryClient();
  const pending = waiting.length > 0;

  useEffect(() => {
    if (!online || !pending) return;
    const send = () =>
      void flush(user).then((sent) => {
        // What the server now holds replaces what the page guessed while offline; the worker's
        // copies from before these writes must not stand in for it (keptAnswers.ts).
        if (sent > 0) void forgetKeptAnswers().then(() => qc.invalidateQueries());
      });
    send();
    const timer = window.setInterval(send, 15_000);
    return () => window.clearInterval(timer);
  }, [online, pending, user, qc]);

  // The live region stays in the page (empty) so what appears in it is announced.
  const quiet = online && !pending && !failed.length;
  return (
    <div className={quiet ? 'offline-status quiet' : 'offline-status'} role="status" aria-live="polite">
      {!online && <p className="offline-line">Offline: what you do is kept on this device and sent when the network returns.</p>}
      {pending && (
        <details>
          <summary>{waiting.length === 1 ? '1 change waits' : `${waiting.length} changes wait`} to be sent</summary>
          <ul>
            {waiting.map((w) => (
              <li key={w.key}>{w.label}</li>
            ))}
          </ul>
        </details>
      )}
      {failed.map((f) => (
        <p key={f.key} className="offline-failed">
          Not saved: {f.label}: {f.error}{' '}
          <button type="button" className="ghost" onClick={() => dismissFailed(f.key)}>
            Dismiss
          </button>
        </p>
      ))}
    </div>
  );
}
