import { lazy, Suspense, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { Link, useParams } from 'react-router-dom';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, client, errorText, unwrap, type Schemas } from '../api/client';
import { AutoField } from '../components/AutoField';
import { ErrorBox, Loading } from '../components/States';
import { StatsList } from '../components/Stats';
import { clock, useNow } from '../hooks';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { useRestorableDelete } from '../components/Undo';
import { alarm, askNotifications, primeAudio, useWakeLock } from './alarm';
import { expectedTimer, fromLocalInput, shouldAlarm, skewOf, timerActions, timerView, toLocalInput } from './timer';
import { snapshot, subscribe, waitingWrites, writeOrQueue, type QueuedWrite } from '../offline/queue';
import { useSession } from '../auth/session';
import { usePrefs } from '../prefs';
import { display, formatNumber, fromInput, symbolFor, toInput } from '../units';
import { NotFound } from '../components/NotFound';
import { statusLabel, type Status } from './sessionStatus';
import { absoluteTime } from '../time';
import { useAutosave } from '../autosave';
import { keys } from '../api/keys';
import { Brewhouse } from './Brewhouse';
import { DeductionPanel } from '../stock/DeductionPanel';
import { FermentationSchedule } from './FermentationSchedule';

const FermentationChart = lazy(() => import('./FermentationChart'));

type Session = Schemas['BrewSession'];
type Step = Schemas['BrewStep'];
type Log = Schemas['FermentationLog'];

/** Sessions created by earlier versions of wort may lack fields added to recipes since. */
type Snapshot = Partial<Schemas['RecipeSnapshot']>;

export default function SessionPage() {
  const { id = '' } = useParams();
  const session = useQuery({
    queryKey: keys.brewSessions.detail(id),
    queryFn: () => unwrap(client.GET('/v1/sessions/{id}', { params: { path: { id } } })),
  });
  const save = useAutosave({
    patch: (body: Schemas['UpdateSessionRequest']) => unwrap(client.PATCH('/v1/sessions/{id}', { params: { path: { id } }, body })),
    detail: keys.brewSessions.detail(id),
    refresh: [keys.brewSessions.list()],
  });
  if (session.isPending) return <Loading what="the brew session" />;
  if (session.isError)
    return session.error instanceof ApiError && [400, 404].includes(session.error.status) ? (
      <NotFound what="brew session" />
    ) : (
      <ErrorBox error={session.error} retry={() => session.refetch()} />
    );
  const s = session.data;
  const snap: Snapshot = s.recipe_snapshot;
  return (
    <div className="session-page">
      <div className="page-head">
        <div>
          <h1>{s.name}</h1>
          <p className="muted">
            Brew day {s.brew_date}
            {s.recipe_id ? (
              <>
                {' · '}
                <Link to={`/recipes/${s.recipe_id}`}>Open the recipe</Link>
              </>
            ) : null}
          </p>
        </div>
      </div>
      <StatusBar session={s} />
      <div className="session-grid">
        <div>
          <DeductionPanel sessionId={id} status={s.status} />
          <Checklist sessionId={id} status={s.status} />
          <Fermentation session={s} />
          <FermentationSchedule sessionId={id} />
        </div>
        <aside>
          <section className="panel" aria-labelledby="h-measured">
            <h2 id="h-measured">Measured</h2>
            <div className="form-grid one">
              <AutoField label="Measured OG" field="measured_og" type="number" unit="gravity" nullable value={s.measured_og ?? null} save={save('measured_og')} />
              <AutoField label="Measured FG" field="measured_fg" type="number" unit="gravity" nullable value={s.measured_fg ?? null} save={save('measured_fg')} />
              <AutoField
                label="Measured batch size"
                field="measured_batch_size_liters"
                type="number"
                unit="volume"
                nullable
                value={s.measured_batch_size_liters ?? null}
                save={save('measured_batch_size_liters')}
              />
              <p>Measured ABV: {s.measured_abv == null ? '—' : `${formatNumber(s.measured_abv, 2)} %`}</p>
              <Brewhouse numbers={s.brewhouse} />
              <AutoField
                label="Mash pH (room temperature)"
                field="measured_mash_ph"
                type="number"
                nullable
                value={s.measured_mash_ph ?? null}
                save={save('measured_mash_ph')}
              />
              {s.predicted_mash_ph != null && (
                <p className="muted small">Predicted for the recipe: {formatNumber(s.predicted_mash_ph, 2, true)} (this pair calibrates the recipe page’s Water panel)</p>
              )}
              <AutoField label="Brew log" field="notes" type="textarea" nullable value={s.notes ?? null} save={save('notes')} />
            </div>
          </section>
          <section className="panel" aria-labelledby="h-snapshot">
            <h2 id="h-snapshot">Recipe snapshot</h2>
            <p className="muted">The recipe as it was when this session was planned.</p>
            {snap.stats && <StatsList stats={snap.stats} />}
            <SnapshotLists snap={snap} />
          </section>
        </aside>
      </div>
    </div>
  );
}

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

function StatusBar({ session }: { session: Session }) {
  const qc = useQueryClient();
  const move = useMutation({
    mutationFn: (status: Status) => unwrap(client.PATCH('/v1/sessions/{id}', { params: { path: { id: session.id } }, body: { status } })),
    onSuccess: (s) => {
      qc.setQueryData(keys.brewSessions.detail(session.id), s);
      void qc.invalidateQueries({ queryKey: keys.brewSessions.list() });
      void qc.invalidateQueries({ queryKey: keys.home.all() });
      setMenuOpen(false);
    },
  });
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

function SnapshotLists({ snap }: { snap: Snapshot }) {
  const prefs = usePrefs();
  return (
    <ul className="plain-list small">
      {(snap.fermentables ?? []).map((f) => (
        <li key={f.id}>
          {display(f.amount_kg, 'mass_kg', prefs)} {f.name}
        </li>
      ))}
      {(snap.hops ?? []).map((h) => (
        <li key={h.id}>
          {display(h.amount_grams, 'mass_g', prefs)} {h.name} ({h.use.replace('_', ' ')},{' '}
          {/* A dry hop's time is its contact time: days read better than 4320 min. */}
          {h.use === 'dry_hop' ? `${formatNumber(h.time_minutes / 1440, 1)} days` : `${h.time_minutes} min`})
        </li>
      ))}
      {(snap.yeasts ?? []).map((y) => (
        <li key={y.id}>Yeast: {y.name}</li>
      ))}
    </ul>
  );
}

interface Addition {
  key: string;
  text: string;
  /** minutes before the end of the boil */
  at: number;
}

/** The boil additions as the API generated them: each step says when it is due. */
function boilAdditions(steps: Step[]): Addition[] {
  return steps
    .filter((s) => s.boil_addition_at != null)
    .map((s) => ({ key: s.id, text: s.title, at: s.boil_addition_at ?? 0 }))
    .sort((a, b) => b.at - a.at);
}

function Checklist({ sessionId, status }: { sessionId: string; status: Status }) {
  const qc = useQueryClient();
  const steps = useQuery({
    queryKey: keys.brewSessions.steps(sessionId),
    queryFn: () => unwrap(client.GET('/v1/sessions/{id}/steps', { params: { path: { id: sessionId } } })),
    // The timers are the server's: another device may start or pause one. Refetched on focus
    // (the default) and every 15 s.
    refetchInterval: 15_000,
  });
  const [error, setError] = useState<string | null>(null);
  // A tick shows in the same event: the query cache notifies a tick later, and a controlled
  // checkbox would flip back for that moment.
  const [ticking, setTicking] = useState<Record<string, boolean>>({});
  const user = useSession().data?.user.id ?? '';
  const toggle = useMutation({
    // Sent even offline: without network the tick waits on this device (offline/queue.ts).
    networkMode: 'always',
    mutationFn: ({ id, completed, title }: { id: string; completed: boolean; title: string }) =>
      writeOrQueue<Step>({ user, method: 'PATCH', path: `/v1/steps/${id}`, body: { completed }, label: `${completed ? 'Tick' : 'Untick'} “${title}”` }),
    onMutate: ({ id, completed }) => {
      setError(null);
      qc.setQueryData<Step[]>(keys.brewSessions.steps(sessionId), (old) => old?.map((s) => (s.id === id ? { ...s, completed } : s)));
    },
    onSuccess: (out) => {
      if (out.queued) return;
      const step = out.data;
      qc.setQueryData<Step[]>(keys.brewSessions.steps(sessionId), (old) => old?.map((s) => (s.id === step.id ? step : s)));
    },
    onError: (e, { id, completed }) => {
      qc.setQueryData<Step[]>(keys.brewSessions.steps(sessionId), (old) => old?.map((s) => (s.id === id ? { ...s, completed: !completed } : s)));
      setError(`Not saved: ${errorText(e)}`);
    },
    onSettled: (_data, _error, { id }) =>
      setTicking((t) => {
        const rest = { ...t };
        delete rest[id];
        return rest;
      }),
  });
  // Ticks made offline show in place at once, marked as waiting, until they are sent (a reload
  // from the worker's cache shows the server's copy from before them: the queue says better).
  const queue = useSyncExternalStore(subscribe, snapshot);
  const waitingTicks = useMemo(() => {
    const ticks = new Map<string, boolean>();
    for (const w of waitingWrites(queue, user, 'PATCH', (p) => p.startsWith('/v1/steps/'))) {
      const body = w.body as { completed?: unknown };
      if (typeof body?.completed === 'boolean') ticks.set(w.path.slice('/v1/steps/'.length), body.completed);
    }
    return ticks;
  }, [queue, user]);
  const list = useMemo(
    () => (steps.data ?? []).map((s) => (waitingTicks.has(s.id) ? { ...s, completed: waitingTicks.get(s.id) ?? s.completed } : s)),
    [steps.data, waitingTicks],
  );
  const additions = boilAdditions(list);
  const now = useNow(1000, list.some((s) => s.timer?.state === 'running'));
  // How far the server's clock is ahead of this device's, from the last answer with a running
  // timer (a phone whose clock is a minute off still shows the laptop's countdown).
  const [skew, setSkew] = useState(0);
  const received = steps.dataUpdatedAt;
  useEffect(() => {
    const learnt = (steps.data ?? []).map((s) => skewOf(s.timer, received)).find((k) => k != null);
    if (learnt != null) setSkew(learnt);
    // Only a fetched list says "now" for every step; a step answered alone is learnt below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [received]);
  // The screen stays awake while any timer runs here.
  useWakeLock(list.some((s) => s.timer && timerView(s.timer, now, skew).state === 'running'));
  const done = list.filter((s) => s.completed).length;
  return (
    <section className="panel" aria-labelledby="h-checklist">
      <h2 id="h-checklist">
        Brew-day checklist {list.length > 0 && <span className="count">{done} of {list.length} done</span>}
      </h2>
      {status === 'planned' && <p className="muted">Tick the steps as you go. Timers run on the server: every device shows the same countdown.</p>}
      {steps.isPending ? (
        <Loading what="the checklist" />
      ) : steps.isError ? (
        <ErrorBox error={steps.error} retry={() => steps.refetch()} />
      ) : list.length === 0 ? (
        <p className="muted">No steps.</p>
      ) : (
        <ol className="checklist">
          {list.map((s) => (
            <li key={s.id} className={s.completed ? 'done' : ''}>
              <div className="check">
                <input
                  type="checkbox"
                  id={`step-${s.id}`}
                  checked={ticking[s.id] ?? s.completed}
                  onChange={(e) => {
                    const completed = e.target.checked;
                    setTicking((t) => ({ ...t, [s.id]: completed }));
                    toggle.mutate({ id: s.id, completed, title: s.title });
                  }}
                />
                <label htmlFor={`step-${s.id}`}>{s.title}</label>
                {waitingTicks.has(s.id) && <span className="badge waiting">Waiting to send</span>}
              </div>
              {s.description && <p className="muted small step-desc">{s.description}</p>}
              {s.timer && <StepTimer step={s} timer={s.timer} now={now} skew={skew} learn={setSkew} sessionId={sessionId} additions={s.boil ? additions : []} />}
            </li>
          ))}
        </ol>
      )}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

const actionLabel = { start: 'Start timer', pause: 'Pause timer', resume: 'Resume timer', reset: 'Reset timer' } as const;

function StepTimer({
  step,
  timer,
  now,
  skew,
  learn,
  sessionId,
  additions,
}: {
  step: Step;
  timer: NonNullable<Step['timer']>;
  now: number;
  skew: number;
  learn: (skew: number) => void;
  sessionId: string;
  additions: Addition[];
}) {
  const qc = useQueryClient();
  const user = useSession().data?.user.id ?? '';
  const act = useMutation({
    networkMode: 'always',
    mutationFn: (action: Schemas['StepTimerRequest']['action']) =>
      writeOrQueue<Step>({ user, method: 'POST', path: `/v1/steps/${step.id}/timer`, body: { action }, label: `${actionLabel[action]}: “${step.title}”` }),
    onSuccess: (out, action) => {
      if (out.queued) {
        // Offline: the countdown the server will hold once it gets the action.
        const guess = expectedTimer(timer, action, Date.now() + skew, (step.duration_minutes ?? 0) * 60);
        qc.setQueryData<Step[]>(keys.brewSessions.steps(sessionId), (old) => old?.map((s) => (s.id === step.id ? { ...s, timer: guess } : s)));
        return;
      }
      const saved = out.data;
      const learnt = skewOf(saved.timer, Date.now());
      if (learnt != null) learn(learnt);
      qc.setQueryData<Step[]>(keys.brewSessions.steps(sessionId), (old) => old?.map((s) => (s.id === saved.id ? saved : s)));
    },
    // Another device got there first (422): show what the server holds now.
    onError: () => void qc.invalidateQueries({ queryKey: keys.brewSessions.steps(sessionId) }),
  });
  const { state, left } = timerView(timer, now, skew);
  const finished = state === 'done';
  const total = (step.duration_minutes ?? 0) * 60;
  const started = state !== 'idle';
  const elapsed = started ? total - left : 0;
  const due = additions.filter((a) => started && elapsed >= (total / 60 - a.at) * 60);
  const upcoming = additions.filter((a) => !due.includes(a));
  const [announced, setAnnounced] = useState('');
  const seen = useRef<Set<string>>(new Set());
  useEffect(() => {
    if (!started) {
      seen.current = new Set();
      return;
    }
    const fresh = due.filter((a) => !seen.current.has(a.key));
    if (fresh.length) {
      fresh.forEach((a) => seen.current.add(a.key));
      setAnnounced(`Due now: ${fresh.map((a) => a.text).join('; ')}`);
    }
  }, [due, started]);
  // The end sounds once per run (keyed by its ends_at), on every device that has the page open.
  const rang = useRef<string | null>(null);
  useEffect(() => {
    if (finished && timer.ends_at && rang.current !== timer.ends_at && shouldAlarm(timer, now, skew)) {
      rang.current = timer.ends_at;
      alarm(step.title);
    }
  }, [finished, timer, now, skew, step.title]);
  return (
    <div className="timer">
      <span role="timer" aria-label={`Time left for ${step.title}`} className={`countdown ${finished ? 'finished' : ''}`}>
        {clock(left)}
      </span>
      <span className="muted small timer-state">{state === 'paused' ? 'Paused' : state === 'running' ? 'Running' : ''}</span>
      {timerActions(state).map((action) => (
        <button
          key={action}
          type="button"
          className={action === 'start' || action === 'resume' ? 'primary' : ''}
          disabled={act.isPending}
          onClick={() => {
            if (action === 'start') {
              // From a tap: the audio may play later, and the question is asked once.
              primeAudio();
              askNotifications();
            }
            act.mutate(action);
          }}
        >
          {actionLabel[action]}
        </button>
      ))}
      {finished && (
        <span role="status" className="finished-note">
          Time is up.
        </span>
      )}
      {act.error && (
        <span role="alert" className="form-error">
          {errorText(act.error)}
        </span>
      )}
      {additions.length > 0 && (
        <div className="additions">
          <div aria-live="assertive" role="status" className="announce" aria-label="Boil additions">
            {announced}
          </div>
          {upcoming.length > 0 && (
            <p className="muted small">
              Next: {upcoming.map((a) => a.text).join('; ')}
            </p>
          )}
        </div>
      )}
    </div>
  );
}

function Fermentation({ session }: { session: Session }) {
  const prefs = usePrefs();
  const qc = useQueryClient();
  const id = session.id;
  const logs = useQuery({
    queryKey: keys.brewSessions.logs(id),
    queryFn: () => unwrap(client.GET('/v1/sessions/{id}/fermentation-logs', { params: { path: { id }, query: { limit: 5000 } } })),
  });
  const blank = () => ({ gravity: '', temperature: '', ph: '', notes: '', at: toLocalInput(Date.now()) });
  const [form, setForm] = useState(blank);
  const [error, setError] = useState<unknown>(null);
  const user = useSession().data?.user.id ?? '';
  const add = useMutation({
    networkMode: 'always',
    mutationFn: () => {
      const body: Record<string, unknown> = {};
      const g = fromInput(form.gravity, 'gravity', prefs);
      const t = fromInput(form.temperature, 'temperature', prefs);
      const ph = fromInput(form.ph, 'plain', prefs);
      if (g != null) body.gravity = Number.isNaN(g) ? form.gravity : g;
      if (g != null) body.gravity_unit = prefs.gravity;
      if (t != null) body.temperature_c = Number.isNaN(t) ? form.temperature : t;
      if (ph != null) body.ph = Number.isNaN(ph) ? form.ph : ph;
      if (form.notes.trim()) body.notes = form.notes;
      // Yesterday's reading entered today: the time it was taken (default now).
      const at = fromLocalInput(form.at);
      if (at) body.logged_at = at;
      const what = g != null && !Number.isNaN(g) ? display(g, 'gravity', prefs) : t != null && !Number.isNaN(t) ? display(t, 'temperature', prefs) : 'reading';
      return writeOrQueue<Log>({ user, method: 'POST', path: `/v1/sessions/${id}/fermentation-logs`, body, label: `Reading ${what} at ${form.at.replace('T', ' ')}` });
    },
    onSuccess: (out) => {
      setError(null);
      setForm(blank());
      // Offline, the reading waits on this device; it shows here once the server has it.
      if (out.queued) return;
      const log = out.data;
      qc.setQueryData<Log[]>(keys.brewSessions.logs(id), (old) => [...(old ?? []), log].sort((a, b) => a.logged_at.localeCompare(b.logged_at)));
      // The figures so far are the session's, computed by the API from its latest reading.
      void qc.invalidateQueries({ queryKey: keys.brewSessions.detail(id) });
    },
    onError: setError,
  });
  // A removed reading is deleted at once, so the figures so far (the API's, from the latest
  // reading) follow at once; Undo puts it back with its time and measurements.
  const restore = useMutation({
    mutationFn: (l: Log) =>
      unwrap(
        client.POST('/v1/sessions/{id}/fermentation-logs', {
          params: { path: { id } },
          body: { logged_at: l.logged_at, gravity: l.gravity, gravity_unit: l.gravity_unit, temperature_c: l.temperature_c, ph: l.ph, notes: l.notes } as Schemas['CreateLogRequest'],
        }),
      ),
    onSuccess: (log) => {
      qc.setQueryData<Log[]>(keys.brewSessions.logs(id), (old) => [...(old ?? []), log].sort((a, b) => a.logged_at.localeCompare(b.logged_at)));
      void qc.invalidateQueries({ queryKey: keys.brewSessions.detail(id) });
    },
  });
  const removal = useRestorableDelete<Log>((l) => restore.mutate(l));
  const del = useMutation({
    mutationFn: (l: Log) => unwrap(client.DELETE('/v1/fermentation-logs/{id}', { params: { path: { id: l.id } } })),
    onMutate: (l) => qc.setQueryData<Log[]>(keys.brewSessions.logs(id), (old) => old?.filter((x) => x.id !== l.id)),
    onSuccess: (_r, l) => removal.removed(l.id, l, `Reading of ${absoluteTime(l.logged_at)} removed.`),
    onError: () => void qc.invalidateQueries({ queryKey: keys.brewSessions.logs(id) }),
    onSettled: () => qc.invalidateQueries({ queryKey: keys.brewSessions.detail(id) }),
  });
  const [editing, setEditing] = useState<string | null>(null);
  const api = error instanceof ApiError ? error : null;
  // Readings made offline show in place at once, marked as waiting, until they are sent.
  const queue = useSyncExternalStore(subscribe, snapshot);
  const waiting = useMemo(() => waitingReadings(waitingWrites(queue, user, 'POST', `/v1/sessions/${id}/fermentation-logs`), id), [queue, user, id]);
  const waitingIds = useMemo(() => new Set(waiting.map((l) => l.id)), [waiting]);
  const list = useMemo(
    () => [...(logs.data ?? []), ...waiting].sort((a, b) => a.logged_at.localeCompare(b.logged_at)),
    [logs.data, waiting],
  );
  // Original gravity (measured, else planned), the latest gravity and the figures between them
  // are the API's.
  const { original_gravity: og, latest_gravity: latest, apparent_attenuation_percent: attenuation, abv_percent: abv } = session.fermentation;
  const gSym = symbolFor('gravity', prefs);
  const tSym = symbolFor('temperature', prefs);
  const fieldErr = (k: string) => api?.at(k);
  const [showAll, setShowAll] = useState(false);
  const shown = (showAll ? list : list.slice(-10)).slice().reverse();
  return (
    <section className="panel" aria-labelledby="h-ferm">
      <h2 id="h-ferm">Fermentation</h2>
      <dl className="stats compact" aria-label="Fermentation so far">
        <div>
          <dt>Original gravity{session.measured_og == null ? ' (planned)' : ''}</dt>
          <dd>{og == null ? '—' : display(og, 'gravity', prefs)}</dd>
        </div>
        <div>
          <dt>Latest gravity</dt>
          <dd>{latest == null ? '—' : display(latest, 'gravity', prefs)}</dd>
        </div>
        <div>
          <dt>Apparent attenuation</dt>
          <dd>{attenuation == null ? '—' : `${formatNumber(attenuation, 1)} %`}</dd>
        </div>
        <div>
          <dt>ABV so far</dt>
          <dd>{abv == null ? '—' : `${formatNumber(abv, 2)} %`}</dd>
        </div>
      </dl>
      <form
        className="reading-form"
        aria-label="New reading"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          add.mutate();
        }}
      >
        {(
          [
            ['at', 'Time', 'datetime'],
            ['gravity', gSym === 'SG' ? 'Gravity' : `Gravity (${gSym})`, 'decimal'],
            ['temperature', `Temperature (${tSym})`, 'decimal'],
            ['ph', 'pH', 'decimal'],
            ['notes', 'Notes', 'text'],
          ] as const
        ).map(([k, label, mode]) => {
          const apiKey = k === 'temperature' ? 'temperature_c' : k === 'at' ? 'logged_at' : k;
          const err = fieldErr(apiKey);
          return (
            <div className={`field ${err ? 'has-error' : ''}`} key={k}>
              <label htmlFor={`r-${k}`}>{label}</label>
              <input
                id={`r-${k}`}
                type={mode === 'datetime' ? 'datetime-local' : 'text'}
                inputMode={mode === 'datetime' ? undefined : mode}
                value={form[k]}
                aria-invalid={err ? true : undefined}
                aria-describedby={err ? `r-${k}-err` : undefined}
                onChange={(e) => setForm({ ...form, [k]: e.target.value })}
              />
              {err && (
                <span className="field-error" id={`r-${k}-err`}>
                  {err}
                </span>
              )}
            </div>
          );
        })}
        <button type="submit" className="primary" disabled={add.isPending}>
          Add reading
        </button>
        {error != null && (!api || !['logged_at', 'gravity', 'temperature_c', 'ph', 'notes'].some((k) => api.at(k))) && (
          <p className="form-error" role="alert">
            Not saved: {api ? api.rest(['logged_at', 'gravity', 'temperature_c', 'ph', 'notes']) : errorText(error)}
          </p>
        )}
      </form>
      <figure className="chart" aria-label="Fermentation chart">
        <figcaption>
          Fermentation chart
          <span className="muted small">
            {' '}
            — {list.length} {list.length === 1 ? 'reading' : 'readings'}
            {latest != null ? `, latest gravity ${display(latest, 'gravity', prefs)}` : ''}
          </span>
        </figcaption>
        {logs.isPending ? (
          <Loading what="readings" />
        ) : logs.isError ? (
          <ErrorBox error={logs.error} retry={() => logs.refetch()} />
        ) : list.length === 0 ? (
          <p className="muted">No readings yet. Add the first one above.</p>
        ) : (
          <Suspense fallback={<Loading what="the chart" />}>
            <FermentationChart logs={list} prefs={prefs} />
          </Suspense>
        )}
      </figure>
      {list.length > 0 && (
        <div className="table-wrap">
          <table role="table" className="rows readings">
            <caption className="sr-only">Readings, newest first</caption>
            <thead role="rowgroup">
              <tr role="row">
                <th role="columnheader" scope="col">Time</th>
                <th role="columnheader" scope="col">Gravity</th>
                <th role="columnheader" scope="col">Temperature</th>
                <th role="columnheader" scope="col">pH</th>
                <th role="columnheader" scope="col">Notes</th>
                <th role="columnheader" scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody role="rowgroup">
              {shown.map((l) =>
                editing === l.id ? (
                  <ReadingEditor key={l.id} log={l} sessionId={id} done={() => setEditing(null)} />
                ) : (
                  <tr role="row" key={l.id} className={waitingIds.has(l.id) ? 'waiting' : undefined}>
                    <td role="cell" data-label="Time">
                      {absoluteTime(l.logged_at)}
                      {waitingIds.has(l.id) && <span className="badge waiting">Waiting to send</span>}
                    </td>
                    <td role="cell" data-label="Gravity">{display(l.gravity, 'gravity', prefs)}</td>
                    <td role="cell" data-label="Temperature">{display(l.temperature_c, 'temperature', prefs)}</td>
                    <td role="cell" data-label="pH">{l.ph == null ? '—' : formatNumber(l.ph, 2)}</td>
                    <td role="cell" data-label="Notes">{l.notes ?? ''}</td>
                    <td role="cell" className="row-actions">
                      {!waitingIds.has(l.id) && (
                        <>
                          <button type="button" className="ghost" aria-label={`Edit the reading of ${new Date(l.logged_at).toLocaleString()}`} onClick={() => setEditing(l.id)}>
                            Edit
                          </button>
                          <button
                            type="button"
                            className="icon danger-text"
                            aria-label={`Remove the reading of ${new Date(l.logged_at).toLocaleString()}`}
                            disabled={del.isPending}
                            onClick={() => del.mutate(l)}
                          >
                            ✕
                          </button>
                        </>
                      )}
                    </td>
                  </tr>
                ),
              )}
            </tbody>
          </table>
          {list.length > 10 && (
            <p className="muted small">
              {showAll ? `All ${list.length} readings.` : `The latest 10 of ${list.length} readings.`}{' '}
              <button type="button" className="ghost" onClick={() => setShowAll(!showAll)}>
                {showAll ? 'Show the latest 10' : 'Show all readings'}
              </button>
            </p>
          )}
        </div>
      )}
      {del.error != null && (
        <p className="form-error" role="alert">
          Not removed: {errorText(del.error)}
        </p>
      )}
      {removal.toast}
    </section>
  );
}

/** Readings waiting on this device to be sent, as the table and chart show them (the API's
 * figures so far leave them out until the server has them). */
function waitingReadings(writes: QueuedWrite[], sessionId: string): Log[] {
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  return writes.map((w) => {
    const body = (w.body ?? {}) as Record<string, unknown>;
    const at = typeof body.logged_at === 'string' ? body.logged_at : new Date(w.queuedAt).toISOString();
    return {
      id: w.key,
      session_id: sessionId,
      logged_at: at,
      gravity: num(body.gravity),
      gravity_unit: (typeof body.gravity_unit === 'string' ? body.gravity_unit : 'sg') as Log['gravity_unit'],
      temperature_c: num(body.temperature_c),
      ph: num(body.ph),
      notes: typeof body.notes === 'string' ? body.notes : null,
      device_id: null,
      created_at: new Date(w.queuedAt).toISOString(),
    };
  });
}

/** A reading corrected in place: its time and measurements, saved together. */
function ReadingEditor({ log, sessionId, done }: { log: Log; sessionId: string; done: () => void }) {
  const prefs = usePrefs();
  const qc = useQueryClient();
  const shown = (v: number | null | undefined, unit: 'gravity' | 'temperature') => (v == null ? '' : toInput(v, unit, prefs));
  const [f, setF] = useState({
    at: toLocalInput(log.logged_at),
    gravity: shown(log.gravity, 'gravity'),
    temperature: shown(log.temperature_c, 'temperature'),
    ph: log.ph == null ? '' : toInput(log.ph, 'plain', prefs),
    notes: log.notes ?? '',
  });
  const save = useMutation({
    mutationFn: () => {
      // An untouched field keeps the stored number exactly (no round trip through the display).
      const num = (text: string, unit: 'gravity' | 'temperature' | 'plain', current?: number | null) => {
        const v = fromInput(text, unit, prefs, current);
        return v == null ? null : Number.isNaN(v) ? text : v;
      };
      const body: Record<string, unknown> = {
        gravity: num(f.gravity, 'gravity', log.gravity),
        temperature_c: num(f.temperature, 'temperature', log.temperature_c),
        ph: num(f.ph, 'plain', log.ph),
        notes: f.notes.trim() ? f.notes : null,
      };
      if (f.gravity.trim()) body.gravity_unit = prefs.gravity;
      const at = fromLocalInput(f.at);
      if (at && f.at !== toLocalInput(log.logged_at)) body.logged_at = at;
      return unwrap(client.PATCH('/v1/fermentation-logs/{id}', { params: { path: { id: log.id } }, body: body as Schemas['UpdateLogRequest'] }));
    },
    onSuccess: (saved) => {
      qc.setQueryData<Log[]>(keys.brewSessions.logs(sessionId), (old) =>
        old?.map((l) => (l.id === saved.id ? saved : l)).sort((a, b) => a.logged_at.localeCompare(b.logged_at)),
      );
      void qc.invalidateQueries({ queryKey: keys.brewSessions.detail(sessionId) });
      done();
    },
  });
  const api = save.error instanceof ApiError ? save.error : null;
  const when = new Date(log.logged_at).toLocaleString();
  const input = (k: keyof typeof f, label: string, type = 'text', apiKey: string = k) => (
    <td role="cell" data-label={label}>
      <input
        aria-label={`${label} of the reading of ${when}`}
        type={type}
        inputMode={type === 'text' && k !== 'notes' ? 'decimal' : undefined}
        value={f[k]}
        aria-invalid={api?.at(apiKey) ? true : undefined}
        onChange={(e) => setF({ ...f, [k]: e.target.value })}
        onKeyDown={(e) => {
          if (e.key === 'Enter') save.mutate();
          if (e.key === 'Escape') done();
        }}
      />
    </td>
  );
  return (
    <tr role="row" className="editing">
      {input('at', 'Time', 'datetime-local', 'logged_at')}
      {input('gravity', 'Gravity')}
      {input('temperature', 'Temperature', 'text', 'temperature_c')}
      {input('ph', 'pH')}
      {input('notes', 'Notes')}
      <td role="cell" className="row-actions">
        <button type="button" className="primary" disabled={save.isPending} onClick={() => save.mutate()}>
          Save
        </button>
        <button type="button" className="ghost" onClick={done}>
          Cancel
        </button>
        {save.error != null && (
          <span role="alert" className="form-error">
            Not saved: {errorText(save.error)}
          </span>
        )}
      </td>
    </tr>
  );
}
