// The brew-day checklist: steps ticked on any device, each step's shared server timer.
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { errorText, type Schemas } from '../api/client';
import { ErrorBox, Loading } from '../components/States';
import { clock, useNow } from '../hooks';
import { alarm, askNotifications, primeAudio, useWakeLock } from './alarm';
import { expectedTimer, shouldAlarm, skewOf, timerActions, timerView } from './timer';
import { snapshot, subscribe, waitingWrites } from '../offline/queue';
import { useSession } from '../auth/api';
import type { Status } from './sessionStatus';
import { useSessionSteps, useStepTimer, useTickStep } from './api';

type Step = Schemas['BrewStep'];

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

export function Checklist({ sessionId, status }: { sessionId: string; status: Status }) {
  const steps = useSessionSteps(sessionId);
  const [error, setError] = useState<string | null>(null);
  // A tick shows in the same event: the query cache notifies a tick later, and a controlled
  // checkbox would flip back for that moment.
  const [ticking, setTicking] = useState<Record<string, boolean>>({});
  const user = useSession().data?.user.id ?? '';
  const toggle = useTickStep(sessionId, user, {
    onStart: () => setError(null),
    onFailed: (e) => setError(`Not saved: ${errorText(e)}`),
    onDone: (id) =>
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
  const now = useNow(
    1000,
    list.some((s) => s.timer?.state === 'running'),
  );
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
        Brew-day checklist{' '}
        {list.length > 0 && (
          <span className="count">
            {done} of {list.length} done
          </span>
        )}
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
              {s.timer && (
                <StepTimer step={s} timer={s.timer} now={now} skew={skew} learn={setSkew} sessionId={sessionId} additions={s.boil ? additions : []} />
              )}
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
  const user = useSession().data?.user.id ?? '';
  const act = useStepTimer(sessionId, step, user, (action) => `${actionLabel[action]}: “${step.title}”`, {
    // Offline: the countdown the server will hold once it gets the action.
    guess: (action) => expectedTimer(timer, action, Date.now() + skew, (step.duration_minutes ?? 0) * 60),
    onSaved: (saved) => {
      const learnt = skewOf(saved.timer, Date.now());
      if (learnt != null) learn(learnt);
    },
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
          {upcoming.length > 0 && <p className="muted small">Next: {upcoming.map((a) => a.text).join('; ')}</p>}
        </div>
      )}
    </div>
  );
}
