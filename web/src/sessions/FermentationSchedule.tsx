import type { Schemas } from '../api/client';
import { useFermentationSchedule } from './api';
import { usePrefs } from '../prefs';
import { display } from '../units';
import { absoluteTime } from '../time';
import { ErrorBox } from '../components/States';

type Step = Schemas['ScheduledStep'];

/** When a step is due, in words: a time, a gravity or attenuation, days after the step before, or by hand. */
export function dueText(s: Step, gravity: (sg: number) => string, time: (iso: string) => string): string {
  if (s.due_at) return time(s.due_at);
  const when: string[] = [];
  if (s.due_at_gravity != null) when.push(`gravity ${gravity(s.due_at_gravity)} or below`);
  if (s.due_at_attenuation_percent != null) when.push(`attenuation ${s.due_at_attenuation_percent} % or more`);
  if (when.length) return `When ${when.join(' or ')}`;
  if (s.days_after_previous != null) return `${s.days_after_previous} days after the step before`;
  return 'By hand';
}

/** The session's fermentation schedule (the API plans it when the session starts fermenting). */
export function FermentationSchedule({ sessionId }: { sessionId: string }) {
  const prefs = usePrefs();
  const schedule = useFermentationSchedule(sessionId);
  if (schedule.isError) return <ErrorBox error={schedule.error} retry={() => schedule.refetch()} />;
  const steps = schedule.data ?? [];
  if (steps.length === 0) return null;
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
            </div>
          </li>
        ))}
      </ol>
    </section>
  );
}
