import { useState } from 'react';
import { ApiError } from '../api/client';
import type { Preferences } from '../api/extra';
import { SelectField, TextField } from '../components/Field';
import { ErrorBox } from '../components/States';
import { withDisplayUnits } from '../issueUnits';
import {
  alertKinds,
  defaultTexts,
  fieldLabel,
  fieldUnits,
  kindLabel,
  ruleBody,
  ruleFields,
  ruleIssueText,
  ruleTexts,
  sessionChoices,
  type AlertKind,
  type AlertRule,
  type RuleTexts,
} from './alerts';

type SessionLike = Parameters<typeof sessionChoices>[0][number];

export interface RuleSubmit {
  kind: AlertKind;
  session_id: string | null;
  fields: Record<string, unknown>;
}

/**
 * A rule's form: what to watch (a new rule only: the API keeps a rule's kind), that kind's fields
 * alone, typed in the account's units, and the session watched. The API checks everything; its
 * `422` shows at the field it names, with bounds in the units typed in.
 */
export function RuleForm({
  rule,
  initialSession = null,
  sessions,
  prefs,
  error,
  pending,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  rule?: AlertRule;
  initialSession?: string | null;
  sessions: readonly SessionLike[];
  prefs: Preferences;
  error: unknown;
  pending: boolean;
  submitLabel: string;
  onSubmit: (v: RuleSubmit) => void;
  onCancel?: () => void;
}) {
  const [kind, setKind] = useState<AlertKind>(rule?.kind ?? 'temperature_outside');
  const [texts, setTexts] = useState<RuleTexts>(() => (rule ? ruleTexts(rule, prefs) : defaultTexts('temperature_outside', prefs)));
  const [session, setSession] = useState<string>(rule ? (rule.session_id ?? '') : (initialSession ?? ''));
  const fields = ruleFields(kind);
  const shown = withDisplayUnits(error, fieldUnits, prefs);
  const api =
    shown instanceof ApiError
      ? new ApiError(
          shown.status,
          shown.message,
          shown.details.map((d) => ({ ...d, message: ruleIssueText(d.message, prefs) })),
          shown.retryAfter,
        )
      : null;
  const rest = api ? api.rest([...fields.map((f) => f.name), 'session_id', 'kind']) : null;
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit({ kind, session_id: session || null, fields: ruleBody(kind, texts, prefs, rule) });
      }}
    >
      {rule ? (
        <p>
          <strong>Watches:</strong> {kindLabel(rule.kind)}
        </p>
      ) : (
        <SelectField
          label="What to watch"
          value={kind}
          options={alertKinds}
          error={api?.at('kind')}
          onChange={(e) => {
            const k = e.target.value as AlertKind;
            setKind(k);
            setTexts(defaultTexts(k, prefs));
          }}
        />
      )}
      <div className="form-grid">
        {fields.map((f) => (
          <TextField
            key={`${kind}-${f.name}`}
            label={fieldLabel(f, prefs)}
            inputMode="decimal"
            autoComplete="off"
            value={texts[f.name] ?? ''}
            hint={f.hint}
            error={api?.at(f.name)}
            onChange={(e) => setTexts((t) => ({ ...t, [f.name]: e.target.value }))}
          />
        ))}
      </div>
      <SelectField
        label="Brew session"
        value={session}
        options={sessionChoices(sessions, rule?.session_id ?? initialSession)}
        error={api?.at('session_id')}
        onChange={(e) => setSession(e.target.value)}
      />
      <p className="hint">{session ? 'Watched while it is fermenting or conditioning.' : 'Watches each of your sessions while it is fermenting.'}</p>
      {error != null && (!api || rest !== 'Please correct the marked fields.') ? (
        <ErrorBox error={api ? new ApiError(api.status, rest ?? api.message) : error} />
      ) : error != null ? (
        <p className="form-error" role="alert">
          Not saved: please correct the marked fields.
        </p>
      ) : null}
      <div className="actions">
        <button type="submit" className="primary" disabled={pending}>
          {submitLabel}
        </button>
        {onCancel && (
          <button type="button" className="ghost" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
