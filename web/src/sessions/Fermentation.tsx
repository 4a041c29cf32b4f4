// Fermentation readings: the chart, the table, adding (offline too), editing and removing.
import { lazy, Suspense, useMemo, useState, useSyncExternalStore } from 'react';
import { ApiError, errorText, type Schemas } from '../api/client';
import { ErrorBox, Loading } from '../components/States';
import { useRestorableDelete } from '../components/Undo';
import { fromLocalInput, toLocalInput } from './timer';
import { snapshot, subscribe, waitingWrites, type QueuedWrite } from '../offline/queue';
import { useSession } from '../auth/api';
import { usePrefs } from '../prefs';
import { display, formatNumber, fromInput, symbolFor, toInput } from '../units';
import { absoluteTime } from '../time';
import {
  useAddReading,
  useDeleteReading,
  useFermentationLogs,
  useFermentationSchedule,
  useRestoreReading,
  useSaveReading,
  useSessionForecast,
  useSessionNotes,
} from './api';
import { forecastText } from './forecast';
import { alertMarks, chartMarks, noteMarks, stepMarks } from './chartMarks';
import { useAlertList, useRuleList } from '../alerts/api';
import { alertText } from '../alerts/alerts';
import { ChartMarkList, NoteForm } from './ChartNotes';

type Session = Schemas['BrewSession'];
type Log = Schemas['FermentationLog'];

const FermentationChart = lazy(() => import('./FermentationChart'));

export function Fermentation({ session }: { session: Session }) {
  const prefs = usePrefs();
  const id = session.id;
  const logs = useFermentationLogs(id);
  const blank = () => ({ gravity: '', temperature: '', ph: '', notes: '', at: toLocalInput(Date.now()) });
  const [form, setForm] = useState(blank);
  const [error, setError] = useState<unknown>(null);
  const user = useSession().data?.user.id ?? '';
  const reading = () => {
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
    return { body, label: `Reading ${what} at ${form.at.replace('T', ' ')}` };
  };
  const add = useAddReading(id, user, {
    onSent: () => {
      setError(null);
      setForm(blank());
    },
    onError: setError,
  });
  // A removed reading is deleted at once, so the figures so far (the API's, from the latest
  // reading) follow at once; Undo puts it back with its time and measurements.
  const restore = useRestoreReading(id);
  const removal = useRestorableDelete<Log>((l) => restore.mutate(l));
  const del = useDeleteReading(id, (l) => removal.removed(l.id, l, `Reading of ${absoluteTime(l.logged_at)} removed.`));
  const [editing, setEditing] = useState<string | null>(null);
  const api = error instanceof ApiError ? error : null;
  // Readings made offline show in place at once, marked as waiting, until they are sent.
  const queue = useSyncExternalStore(subscribe, snapshot);
  const waiting = useMemo(() => waitingReadings(waitingWrites(queue, user, 'POST', `/v1/sessions/${id}/fermentation-logs`), id), [queue, user, id]);
  const waitingIds = useMemo(() => new Set(waiting.map((l) => l.id)), [waiting]);
  const list = useMemo(() => [...(logs.data ?? []), ...waiting].sort((a, b) => a.logged_at.localeCompare(b.logged_at)), [logs.data, waiting]);
  // Original gravity (measured, else planned), the latest gravity and the figures between them
  // are the API's.
  const { original_gravity: og, latest_gravity: latest, apparent_attenuation_percent: attenuation, abv_percent: abv } = session.fermentation;
  const gSym = symbolFor('gravity', prefs);
  const tSym = symbolFor('temperature', prefs);
  const fieldErr = (k: string) => api?.at(k);
  // What the chart marks at an instant: the notes, the schedule's step changes and the alerts
  // (the last 200 of the session's; the Alerts page has them all).
  const notes = useSessionNotes(id);
  const alerts = useAlertList({ state: 'all', sessionId: id, page: 0, size: 200 });
  const rules = useRuleList();
  const forecast = useSessionForecast(id);
  const schedule = useFermentationSchedule(id);
  const marks = useMemo(
    () =>
      chartMarks(
        noteMarks(notes.data ?? []),
        stepMarks(
          schedule.data ?? [],
          (c) => display(c, 'temperature', prefs),
          (g) => display(g, 'mass_g', prefs),
        ),
        alertMarks(alerts.data?.items ?? [], (a) =>
          alertText(
            a,
            prefs,
            rules.data?.items.find((r) => r.id === a.rule_id),
          ),
        ),
      ),
    [notes.data, schedule.data, alerts.data, rules.data, prefs],
  );
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
          add.mutate(reading());
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
            <FermentationChart logs={list} prefs={prefs} marks={marks} forecast={forecast.data} />
          </Suspense>
        )}
        {forecast.data && list.length > 0 && (
          <p className="muted small forecast">
            <strong>Forecast:</strong> {forecastText(forecast.data, prefs)}
          </p>
        )}
      </figure>
      <section aria-labelledby="h-notes">
        <h3 id="h-notes">Marked on the chart</h3>
        <NoteForm sessionId={id} />
        {notes.isError ? <ErrorBox error={notes.error} retry={() => notes.refetch()} /> : <ChartMarkList sessionId={id} marks={marks} />}
      </section>
      {list.length > 0 && (
        <div className="table-wrap">
          <table role="table" className="rows readings">
            <caption className="sr-only">Readings, newest first</caption>
            <thead role="rowgroup">
              <tr role="row">
                <th role="columnheader" scope="col">
                  Time
                </th>
                <th role="columnheader" scope="col">
                  Gravity
                </th>
                <th role="columnheader" scope="col">
                  Temperature
                </th>
                <th role="columnheader" scope="col">
                  pH
                </th>
                <th role="columnheader" scope="col">
                  Notes
                </th>
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
                    <td role="cell" data-label="Gravity">
                      {display(l.gravity, 'gravity', prefs)}
                    </td>
                    <td role="cell" data-label="Temperature">
                      {display(l.temperature_c, 'temperature', prefs)}
                    </td>
                    <td role="cell" data-label="pH">
                      {l.ph == null ? '—' : formatNumber(l.ph, 2)}
                    </td>
                    <td role="cell" data-label="Notes">
                      {l.notes ?? ''}
                    </td>
                    <td role="cell" className="row-actions">
                      {!waitingIds.has(l.id) && (
                        <>
                          <button
                            type="button"
                            className="ghost"
                            aria-label={`Edit the reading of ${new Date(l.logged_at).toLocaleString()}`}
                            onClick={() => setEditing(l.id)}
                          >
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
  const shown = (v: number | null | undefined, unit: 'gravity' | 'temperature') => (v == null ? '' : toInput(v, unit, prefs));
  const [f, setF] = useState({
    at: toLocalInput(log.logged_at),
    gravity: shown(log.gravity, 'gravity'),
    temperature: shown(log.temperature_c, 'temperature'),
    ph: log.ph == null ? '' : toInput(log.ph, 'plain', prefs),
    notes: log.notes ?? '',
  });
  const body = () => {
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
    return body as Schemas['UpdateLogRequest'];
  };
  const save = useSaveReading(log.id, sessionId, done);
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
          if (e.key === 'Enter') save.mutate(body());
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
        <button type="button" className="primary" disabled={save.isPending} onClick={() => save.mutate(body())}>
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
