import type { Schemas } from '../api/client';
import { useFermentationSchedule } from './api';
import { usePrefs } from '../prefs';
import { display } from '../units';
import { absoluteTime } from '../time';
import { ErrorBox } from '../components/States';

type Step = Schemas['ScheduledStep'];

/** When a step is due, in words: a gravity or attenuation (not before its minimum, at the latest by a time), a time,
 * days after the step before, or by hand. */
export function dueText(s: Step, gravity: (sg: number) => string, time: (iso: string) => string): string {
  const when: string[] = [];
  if (s.due_at_gravity != null) when.push(`gravity ${gravity(s.due_at_gravity)} or below`);
  if (s.due_at_attenuation_percent != null) when.push(`attenuation ${s.due_at_attenuation_percent} % or more`);
  const from = s.due_at_gravity_from ? `, not before ${time(s.due_at_gravity_from)}` : '';
  if (when.length && s.due_at) return `When ${when.join(' or ')}${from}; at the latest ${time(s.due_at)}`;
  if (s.due_at) return time(s.due_at);
  if (when.length) return `When ${when.join(' or ')}${from}`;
  if (s.days_after_previous != null) return `${s.days_after_previous} days after the step before`;
  return 'By hand';
}

const DAY_MS = 86_400_000;

/** How a rest ended, in words ("ended at 1.012", "ended after 14 days"); null while it runs. */
export function endedText(s: Step, gravity: (sg: number) => string): string | null {
  switch (s.ended_by) {
    case 'gravity':
      return s.ended_gravity != null ? `ended at ${gravity(s.ended_gravity)}` : 'ended on its gravity';
    case 'attenuation':
      return s.ended_gravity != null ? `ended at ${gravity(s.ended_gravity)} (attenuation reached)` : 'ended on its attenuation';
    case 'time': {
      if (!s.ended_at || !s.became_due_at) return 'ended by time';
      const days = Math.round(((Date.parse(s.ended_at) - Date.parse(s.became_due_at)) / DAY_MS) * 10) / 10;
      return `ended after ${days} ${days === 1 ? 'day' : 'days'}`;
    }
    default:
      return null;
  }
}

/** The session's fermentation schedule (the API plans it when the session starts fermenting). */
export function FermentationSchedule({ sessionId }: { sessionId: string }) {
  const prefs = usePrefs();
  const schedule = useFermentationSchedule(sessionId);
  if (schedule.isError) return <ErrorBox error={schedule.error} retry={() => schedule.refetch()} />;
  const steps = schedule.data ?? [];
  if (steps.length === 0) return null;
  const ended = (s: Step) => endedText(s, (g) => display(g, 'gravity', prefs));
  return (
    <section className="panel" aria-labelledby="h-schedule">
      <h2 id="h-schedule">Fermentation schedule</h2>
      <ol className="checklist schedule">
        {steps.map((s) => (
          <li key={s.id} className={s.due ? 'done' : undefined}>
            <div>
              <strong>{s.kind === 'dry_hop' ? `Dry hop: ${s.name}` : s.name}</strong>
              {s.kind === 'rest' && s.temperature_c != null ? ` · ${display(s.temperature_c, 'temperature', prefs)}` : null}
              {s.kind === 'dry_hop' && s.amount_grams != null ? ` · ${display(s.amount_grams, 'mass_g', prefs)}` : null}
            </div>
            <div className="muted">
              {dueText(
                s,
                (g) => display(g, 'gravity', prefs),
                (iso) => absoluteTime(iso),
              )}
              {' · '}
              <span className={s.due ? 'badge completed' : 'badge'}>{s.due && s.became_due_at ? `Due since ${absoluteTime(s.became_due_at)}` : 'Waiting'}</span>
              {ended(s) ? ` · ${ended(s)}` : null}
            </div>
          </li>
        ))}
      </ol>
    </section>
  );
}
