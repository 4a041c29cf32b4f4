import { useEffect, useId, useRef, useState } from 'react';
import { ApiError, errorText } from '../api/client';
import { usePrefs } from '../prefs';
import { fromInput, symbolFor, toInput, type Kind } from '../units';
import { FieldChecks, type Check } from '../recipes/checks';

const noChecks: Check[] = [];

type SaveState = { kind: 'idle' } | { kind: 'saving' } | { kind: 'saved' } | { kind: 'error'; message: string };

interface Props {
  label: string;
  /** The server's value. */
  value: string | number | null | undefined;
  /** Saves one API value; rejects with an ApiError to keep what was typed and show why. */
  save: (v: string | number | null) => Promise<unknown>;
  /** `field` names the 422 detail path that belongs here. */
  field: string;
  type?: 'text' | 'number' | 'textarea' | 'select';
  unit?: Kind;
  options?: readonly (readonly [string, string])[];
  /** A select's options in labelled groups (after `options`, if both are given). */
  groups?: readonly { label: string; options: readonly (readonly [string, string])[] }[];
  nullable?: boolean;
  /** The words of a nullable select's empty choice. */
  noneLabel?: string;
  /** A label shown to sighted people; `label` stays the accessible name. */
  visibleLabel?: boolean;
  className?: string;
  delay?: number;
  /** What the recipe's checks say about this field: shown beside it and read with it. */
  checks?: Check[];
  /** Ids of text elsewhere that describes the field (a table row's line of checks). */
  describedBy?: string;
}

/**
 * An input that saves as the person edits: after a pause, on blur, and when the page is left
 * (no lost edit on navigation). A failed save says so and keeps what was typed.
 */
export function AutoField({
  label,
  value,
  save,
  field,
  type = 'text',
  unit,
  options,
  groups,
  nullable,
  noneLabel = '—',
  visibleLabel = true,
  className,
  delay = 600,
  checks = noChecks,
  describedBy: describedElsewhere,
}: Props) {
  const prefs = usePrefs();
  const id = useId();
  const shown = (v: Props['value']) => (type === 'number' ? toInput(typeof v === 'number' ? v : null, unit ?? 'plain', prefs) : v == null ? '' : String(v));
  const [draft, setDraft] = useState(() => shown(value));
  const [state, setState] = useState<SaveState>({ kind: 'idle' });
  const dirty = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  // Saves go one after another, so a short pause between keystrokes never lets an older value land last.
  const inFlight = useRef<Promise<unknown>>(Promise.resolve());
  const latest = useRef({ draft, value, save, prefs });
  latest.current = { draft, value, save, prefs };

  // Follow the server's value (and unit changes) while the person is not editing.
  const serverShown = shown(value);
  useEffect(() => {
    if (!dirty.current) setDraft(serverShown);
  }, [serverShown]);

  const flush = async () => {
    clearTimeout(timer.current);
    if (!dirty.current) return;
    const { draft: d, value: v, save: s, prefs: p } = latest.current;
    let out: string | number | null;
    if (type === 'number') {
      const n = fromInput(d, unit ?? 'plain', p, typeof v === 'number' ? v : null);
      if (n != null && Number.isNaN(n)) {
        setState({ kind: 'error', message: 'Enter a number' });
        return;
      }
      if (n == null && !nullable) {
        setState({ kind: 'error', message: 'Required' });
        return;
      }
      out = n;
    } else {
      out = d === '' && nullable ? null : d;
    }
    if (out === v) {
      dirty.current = false;
      return;
    }
    dirty.current = false;
    setState({ kind: 'saving' });
    try {
      const next = inFlight.current.then(() => s(out));
      inFlight.current = next.catch(() => undefined);
      await next;
      setState({ kind: 'saved' });
    } catch (e) {
      dirty.current = true;
      const msg = e instanceof ApiError ? (e.at(field) ?? errorText(e)) : errorText(e);
      setState({ kind: 'error', message: `Not saved: ${msg}` });
    }
  };
  const flushRef = useRef(flush);
  flushRef.current = flush;
  useEffect(() => () => void flushRef.current(), []);

  const onChange = (v: string) => {
    setDraft(v);
    dirty.current = true;
    setState({ kind: 'idle' });
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void flushRef.current(), type === 'select' ? 0 : delay);
  };

  const sym = unit ? symbolFor(unit, prefs) : '';
  const fullLabel = sym && sym !== 'SG' ? `${label} (${sym})` : label;
  const statusId = `${id}-st`;
  const checkIds = checks.map((_, i) => `${id}-chk-${i}`);
  const describedBy = [...(state.kind === 'error' ? [statusId] : []), ...checkIds, ...(describedElsewhere ? [describedElsewhere] : [])].join(' ') || undefined;
  const common = {
    id,
    'aria-invalid': state.kind === 'error' ? true : undefined,
    'aria-describedby': describedBy,
    onBlur: () => void flush(),
    ...(visibleLabel ? {} : { 'aria-label': fullLabel }),
  };
  return (
    <div className={`field ${className ?? ''} ${state.kind === 'error' ? 'has-error' : ''}`}>
      {visibleLabel && <label htmlFor={id}>{fullLabel}</label>}
      {type === 'textarea' ? (
        <textarea {...common} value={draft} rows={4} onChange={(e) => onChange(e.target.value)} />
      ) : type === 'select' ? (
        <select {...common} value={draft} onChange={(e) => onChange(e.target.value)}>
          {nullable && <option value="">{noneLabel}</option>}
          {(options ?? []).map(([v, l]) => (
            <option key={v} value={v}>
              {l}
            </option>
          ))}
          {(groups ?? [])
            .filter((g) => g.options.length > 0)
            .map((g) => (
              <optgroup key={g.label} label={g.label}>
                {g.options.map(([v, l]) => (
                  <option key={v} value={v}>
                    {l}
                  </option>
                ))}
              </optgroup>
            ))}
        </select>
      ) : (
        <input {...common} type="text" inputMode={type === 'number' ? 'decimal' : undefined} value={draft} onChange={(e) => onChange(e.target.value)} />
      )}
      <span id={statusId} className={`save-state ${state.kind}`} aria-live="polite">
        {state.kind === 'saving' ? 'Saving…' : state.kind === 'saved' ? 'Saved' : state.kind === 'error' ? state.message : ''}
      </span>
      <FieldChecks checks={checks} idPrefix={`${id}-chk`} />
    </div>
  );
}
