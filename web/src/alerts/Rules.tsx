// The alert rules (`/alerts/rules`): the list, with edit, on/off and delete; a form for a new one.
// `?session=<id>` starts the new rule on that session (the session page's "Add an alert rule").
import { useId, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { Empty, ErrorBox, Loading } from '../components/States';
import { usePrefs } from '../prefs';
import { useSessionList } from '../sessions/api';
import { ruleText, type AlertRule } from './alerts';
import { useCreateRule, useDeleteRule, useRuleList, useUpdateRule } from './api';
import { RuleForm } from './RuleForm';

export default function Rules() {
  const list = useRuleList();
  const [params] = useSearchParams();
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Alert rules</h1>
          <p className="muted">
            Each rule says what to watch; wort raises an alert once when it becomes true and clears it when it is false again.{' '}
            <Link to="/alerts">See the alerts</Link>.
          </p>
        </div>
      </div>
      <div className="equipment-grid">
        <section aria-labelledby="h-rules">
          <h2 id="h-rules">Your rules</h2>
          {list.isPending ? (
            <Loading what="alert rules" />
          ) : list.isError ? (
            <ErrorBox error={list.error} retry={() => list.refetch()} />
          ) : list.data.items.length === 0 ? (
            <Empty>
              <p>No alert rules yet</p>
              <p className="muted">Add one with the form: a temperature range to keep, a gravity to wait for, a stall or a silent device to hear about.</p>
            </Empty>
          ) : (
            <ul className="rule-list" aria-label="Alert rules">
              {list.data.items.map((r) => (
                <RuleItem key={r.id} rule={r} />
              ))}
            </ul>
          )}
        </section>
        <NewRule session={params.get('session')} />
      </div>
    </>
  );
}

function useSessions() {
  return useSessionList().data?.items ?? [];
}

function NewRule({ session }: { session: string | null }) {
  const prefs = usePrefs();
  const sessions = useSessions();
  // A new form after each rule added: its fields start again from the defaults.
  const [round, setRound] = useState(0);
  const create = useCreateRule(() => setRound((n) => n + 1));
  return (
    <section className="panel" aria-labelledby="h-new-rule">
      <h2 id="h-new-rule">New rule</h2>
      <RuleForm
        key={`${round}-${prefs.temperature}-${prefs.gravity}`}
        initialSession={session}
        sessions={sessions}
        prefs={prefs}
        error={create.error}
        pending={create.isPending}
        submitLabel="Add rule"
        onSubmit={({ kind, session_id, fields }) => create.mutate({ kind, session_id, enabled: true, ...fields })}
      />
    </section>
  );
}

function RuleItem({ rule }: { rule: AlertRule }) {
  const prefs = usePrefs();
  const sessions = useSessions();
  const id = useId();
  const [editing, setEditing] = useState(false);
  const [confirm, setConfirm] = useState(false);
  const update = useUpdateRule(rule.id, () => setEditing(false));
  const toggle = useUpdateRule(rule.id);
  const remove = useDeleteRule(rule.id, () => setConfirm(false));
  const text = ruleText(rule, prefs);
  const watched = rule.session_id ? sessions.find((s) => s.id === rule.session_id) : null;
  return (
    <li className={rule.enabled ? 'rule-item' : 'rule-item disabled'}>
      <h3 id={`${id}-t`}>{text}</h3>
      <p className="small">
        {rule.session_id ? (
          <>
            Watches <Link to={`/sessions/${rule.session_id}`}>{watched?.name ?? 'a brew session'}</Link> while it is fermenting or conditioning
          </>
        ) : (
          'Watches every session while it is fermenting'
        )}
        {' · '}
        <span className={rule.enabled ? 'ok-text' : 'muted'}>{rule.enabled ? 'On' : 'Off'}</span>
      </p>
      {editing ? (
        <RuleForm
          rule={rule}
          sessions={sessions}
          prefs={prefs}
          error={update.error}
          pending={update.isPending}
          submitLabel="Save rule"
          onSubmit={({ session_id, fields }) => update.mutate({ session_id, ...fields })}
          onCancel={() => {
            update.reset();
            setEditing(false);
          }}
        />
      ) : (
        <div className="actions">
          <button type="button" aria-describedby={`${id}-t`} onClick={() => setEditing(true)}>
            Edit
          </button>
          <button type="button" aria-describedby={`${id}-t`} disabled={toggle.isPending} onClick={() => toggle.mutate({ enabled: !rule.enabled })}>
            {rule.enabled ? 'Turn off' : 'Turn on'}
          </button>
          <button type="button" className="danger" aria-describedby={`${id}-t`} onClick={() => setConfirm(true)}>
            Delete
          </button>
        </div>
      )}
      {toggle.isError && <ErrorBox error={toggle.error} />}
      <ConfirmDialog
        open={confirm}
        title="Delete this rule?"
        confirmLabel="Delete the rule"
        danger
        busy={remove.isPending}
        onConfirm={() => remove.mutate()}
        onCancel={() => {
          remove.reset();
          setConfirm(false);
        }}
      >
        <p>“{text}” stops watching. Its active alerts clear; every alert it raised stays in the history.</p>
        {remove.isError && <ErrorBox error={remove.error} />}
      </ConfirmDialog>
    </li>
  );
}
