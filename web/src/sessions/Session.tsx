import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, client, errorText, unwrap, type Schemas } from '../api/client';
import { AutoField } from '../components/AutoField';
import { ErrorBox, Loading } from '../components/States';
import { StatsList } from '../components/Stats';
import { clock, useNow, useTimerStart } from '../hooks';
import { usePrefs } from '../prefs';
import { display, formatNumber, fromInput, symbolFor } from '../units';
import { NotFound } from '../components/NotFound';
import { statusLabel, type Status } from './sessionStatus';
import { absoluteTime } from '../time';
import { useAutosave } from '../autosave';
import { keys } from '../api/keys';
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

function StatusBar({ session }: { session: Session }) {
  const qc = useQueryClient();
  const move = useMutation({
    mutationFn: (status: Status) => unwrap(client.PATCH('/v1/sessions/{id}', { params: { path: { id: session.id } }, body: { status } })),
    onSuccess: (s) => {
      qc.setQueryData(keys.brewSessions.detail(session.id), s);
      void qc.invalidateQueries({ queryKey: keys.brewSessions.list() });
    },
  });
  // Which moves are allowed is the API's rule: it lists them, in the order to offer them.
  const next = session.next_statuses;
  return (
    <section className="panel status-bar" aria-labelledby="h-status">
      <h2 id="h-status">
        Status: <span className={`badge ${session.status}`}>{statusLabel[session.status]}</span>
      </h2>
      {next.length ? (
        <div className="actions" role="group" aria-label="Change status">
          {next.map((st) => (
            <button key={st} type="button" className={st === 'abandoned' ? 'danger' : ''} onClick={() => move.mutate(st)} disabled={move.isPending}>
              {st === 'abandoned' ? 'Abandon' : `Move to ${statusLabel[st].toLowerCase()}`}
            </button>
          ))}
        </div>
      ) : (
        <p className="muted">This session is {statusLabel[session.status].toLowerCase()}; its status is final.</p>
      )}
      {move.error && <ErrorBox error={move.error} />}
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
          {display(h.amount_grams, 'mass_g', prefs)} {h.name} ({h.use.replace('_', ' ')}, {h.time_minutes} min)
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
  });
  const [error, setError] = useState<string | null>(null);
  // A tick shows in the same event: the query cache notifies a tick later, and a controlled
  // checkbox would flip back for that moment.
  const [ticking, setTicking] = useState<Record<string, boolean>>({});
  const toggle = useMutation({
    mutationFn: ({ id, completed }: { id: string; completed: boolean }) =>
      unwrap(client.PATCH('/v1/steps/{id}', { params: { path: { id } }, body: { completed } })),
    onMutate: ({ id, completed }) => {
      setError(null);
      qc.setQueryData<Step[]>(keys.brewSessions.steps(sessionId), (old) => old?.map((s) => (s.id === id ? { ...s, completed } : s)));
    },
    onSuccess: (step) => qc.setQueryData<Step[]>(keys.brewSessions.steps(sessionId), (old) => old?.map((s) => (s.id === step.id ? step : s))),
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
  const list = steps.data ?? [];
  const additions = boilAdditions(list);
  const done = list.filter((s) => s.completed).length;
  return (
    <section className="panel" aria-labelledby="h-checklist">
      <h2 id="h-checklist">
        Brew-day checklist {list.length > 0 && <span className="count">{done} of {list.length} done</span>}
      </h2>
      {status === 'planned' && <p className="muted">Tick the steps as you go; timers keep running if you reload the page.</p>}
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
                    toggle.mutate({ id: s.id, completed });
                  }}
                />
                <label htmlFor={`step-${s.id}`}>{s.title}</label>
              </div>
              {s.description && <p className="muted small step-desc">{s.description}</p>}
              {s.duration_minutes != null && s.duration_minutes > 0 && (
                <StepTimer step={s} additions={s.boil ? additions : []} />
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

function StepTimer({ step, additions }: { step: Step; additions: Addition[] }) {
  const [start, setStart] = useTimerStart(step.id);
  const running = start != null;
  const now = useNow(1000, running);
  const total = (step.duration_minutes ?? 0) * 60;
  const elapsed = running ? (now - start) / 1000 : 0;
  const left = Math.max(0, total - elapsed);
  const finished = running && left <= 0;
  const due = additions.filter((a) => running && elapsed >= (total / 60 - a.at) * 60);
  const upcoming = additions.filter((a) => !due.includes(a));
  const [announced, setAnnounced] = useState('');
  const seen = useRef<Set<string>>(new Set());
  useEffect(() => {
    if (!running) {
      seen.current = new Set();
      return;
    }
    const fresh = due.filter((a) => !seen.current.has(a.key));
    if (fresh.length) {
      fresh.forEach((a) => seen.current.add(a.key));
      setAnnounced(`Due now: ${fresh.map((a) => a.text).join('; ')}`);
    }
  }, [due, running]);
  return (
    <div className="timer">
      <span role="timer" aria-label={`Time left for ${step.title}`} className={`countdown ${finished ? 'finished' : ''}`}>
        {clock(running ? left : total)}
      </span>
      {running ? (
        <button type="button" onClick={() => setStart(null)}>
          {finished ? 'Reset timer' : 'Stop timer'}
        </button>
      ) : (
        <button type="button" className="primary" onClick={() => setStart(Date.now())}>
          Start timer
        </button>
      )}
      {finished && (
        <span role="status" className="finished-note">
          Time is up.
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
  const [form, setForm] = useState({ gravity: '', temperature: '', ph: '', notes: '' });
  const [error, setError] = useState<unknown>(null);
  const add = useMutation({
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
      return unwrap(
        client.POST('/v1/sessions/{id}/fermentation-logs', { params: { path: { id } }, body: body as Schemas['CreateLogRequest'] }),
      );
    },
    onSuccess: (log) => {
      setError(null);
      setForm({ gravity: '', temperature: '', ph: '', notes: '' });
      qc.setQueryData<Log[]>(keys.brewSessions.logs(id), (old) => [...(old ?? []), log].sort((a, b) => a.logged_at.localeCompare(b.logged_at)));
      // The figures so far are the session's, computed by the API from its latest reading.
      void qc.invalidateQueries({ queryKey: keys.brewSessions.detail(id) });
    },
    onError: setError,
  });
  const del = useMutation({
    mutationFn: (logId: string) => unwrap(client.DELETE('/v1/fermentation-logs/{id}', { params: { path: { id: logId } } })),
    onSuccess: (_r, logId) => {
      qc.setQueryData<Log[]>(keys.brewSessions.logs(id), (old) => old?.filter((l) => l.id !== logId));
      void qc.invalidateQueries({ queryKey: keys.brewSessions.detail(id) });
    },
  });
  const api = error instanceof ApiError ? error : null;
  const list = useMemo(() => logs.data ?? [], [logs.data]);
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
            ['gravity', gSym === 'SG' ? 'Gravity' : `Gravity (${gSym})`, 'decimal'],
            ['temperature', `Temperature (${tSym})`, 'decimal'],
            ['ph', 'pH', 'decimal'],
            ['notes', 'Notes', 'text'],
          ] as const
        ).map(([k, label, mode]) => {
          const apiKey = k === 'temperature' ? 'temperature_c' : k;
          const err = fieldErr(apiKey);
          return (
            <div className={`field ${err ? 'has-error' : ''}`} key={k}>
              <label htmlFor={`r-${k}`}>{label}</label>
              <input
                id={`r-${k}`}
                type="text"
                inputMode={mode}
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
        {error != null && (!api || !['gravity', 'temperature_c', 'ph', 'notes'].some((k) => api.at(k))) && (
          <p className="form-error" role="alert">
            Not saved: {api ? api.rest(['gravity', 'temperature_c', 'ph', 'notes']) : errorText(error)}
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
              {shown.map((l) => (
                <tr role="row" key={l.id}>
                  <td role="cell" data-label="Time">{absoluteTime(l.logged_at)}</td>
                  <td role="cell" data-label="Gravity">{display(l.gravity, 'gravity', prefs)}</td>
                  <td role="cell" data-label="Temperature">{display(l.temperature_c, 'temperature', prefs)}</td>
                  <td role="cell" data-label="pH">{l.ph == null ? '—' : formatNumber(l.ph, 2)}</td>
                  <td role="cell" data-label="Notes">{l.notes ?? ''}</td>
                  <td role="cell" className="row-actions">
                    <button type="button" className="icon danger-text" aria-label={`Remove the reading of ${new Date(l.logged_at).toLocaleString()}`} onClick={() => del.mutate(l.id)}>
                      ✕
                    </button>
                  </td>
                </tr>
              ))}
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
    </section>
  );
}
