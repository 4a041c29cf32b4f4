// The session's status and the moves it can make next (final moves ask first).
import { useEffect, useRef, useState } from 'react';
import type { Schemas } from '../api/client';
import { ErrorBox } from '../components/States';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { statusLabel, type Status } from './sessionStatus';
import { useMoveStatus } from './api';

type Session = Schemas['BrewSession'];

/** Moves that end the session ask first: abandoning and completing are final. */
const confirmText: Partial<Record<Status, { title: string; body: string; label: string }>> = {
  abandoned: {
    title: 'Abandon this brew session?',
    body: 'An abandoned session is final: its status cannot change again. Its checklist and readings stay.',
    label: 'Abandon session',
  },
  completed: {
    title: 'Complete this brew session?',
    body: 'A completed session is final: its status cannot change again.',
    label: 'Complete session',
  },
};

export function StatusBar({ session }: { session: Session }) {
  const move = useMoveStatus(session.id, () => setMenuOpen(false));
  // On a phone the moves sit behind "Change status" (one line instead of half a screen).
  const [menuOpen, setMenuOpen] = useState(false);
  const [asking, setAsking] = useState<Status | null>(null);
  const opener = useRef<HTMLButtonElement | null>(null);
  const refocus = useRef(false);
  // Set when a confirmed move succeeded: both moves that ask first are final, so their buttons go.
  const moved = useRef(false);
  const close = () => {
    refocus.current = true;
    setAsking(null);
  };
  // Focus returns to the button that opened the question when it was cancelled, or goes to the
  // heading once the move is made (the status became final). Decided by the move's outcome, not
  // by whether the button is still in the page: the new status may arrive a render later than the
  // dialog closes, and on a phone the moves are hidden by then. This runs after the dialog's own
  // effect has closed it.
  useEffect(() => {
    if (asking || !refocus.current) return;
    refocus.current = false;
    const toHeading = moved.current || !opener.current?.isConnected;
    moved.current = false;
    (toHeading ? document.getElementById('h-status') : opener.current)?.focus();
  }, [asking, session.status]);
  // Which moves are allowed is the API's rule: it lists them, in the order to offer them.
  const next = session.next_statuses;
  const ask = asking ? confirmText[asking] : undefined;
  return (
    <section className="panel status-bar" aria-labelledby="h-status">
      <div className="status-head">
        <h2 id="h-status" tabIndex={-1}>
          Status: <span className={`badge ${session.status}`}>{statusLabel[session.status]}</span>
        </h2>
        {next.length > 0 && (
          <button type="button" className="status-menu-toggle" aria-expanded={menuOpen} aria-controls="status-moves" onClick={() => setMenuOpen((o) => !o)}>
            Change status
          </button>
        )}
      </div>
      {next.length ? (
        <div id="status-moves" className={menuOpen ? 'actions status-moves open' : 'actions status-moves'} role="group" aria-label="Status moves">
          {next.map((st) => (
            <button
              key={st}
              type="button"
              className={st === 'abandoned' ? 'danger' : ''}
              onClick={(e) => {
                if (confirmText[st]) {
                  opener.current = e.currentTarget;
                  setAsking(st);
                } else move.mutate(st);
              }}
              disabled={move.isPending}
            >
              {st === 'abandoned' ? 'Abandon' : `Move to ${statusLabel[st].toLowerCase()}`}
            </button>
          ))}
        </div>
      ) : (
        <p className="muted">This session is {statusLabel[session.status].toLowerCase()}; its status is final.</p>
      )}
      {move.error && <ErrorBox error={move.error} />}
      <ConfirmDialog
        open={ask != null}
        title={ask?.title ?? ''}
        confirmLabel={ask?.label ?? ''}
        danger={asking === 'abandoned'}
        busy={move.isPending}
        onCancel={close}
        onConfirm={() => {
          const st = asking;
          if (st)
            move.mutate(st, {
              onSuccess: () => {
                moved.current = true;
              },
              onSettled: close,
            });
        }}
      >
        <p>{ask?.body}</p>
      </ConfirmDialog>
    </section>
  );
}
