import { useId } from 'react';
import { Link } from 'react-router-dom';
import { ErrorBox } from '../components/States';
import { useNow } from '../hooks';
import { usePrefs } from '../prefs';
import { useSessionList } from '../sessions/api';
import { absoluteTime, relativeTime } from '../time';
import { alertText, isActive, kindLabel, type Alert } from './alerts';
import { useAcknowledge, useRuleList } from './api';

/** Alerts as a list: each in words in the account's units, its session, when it was raised and
 * cleared, and "Acknowledge" while nobody has. The Alerts page's history leaves that button to its
 * active list (`acknowledgeActive` false), so one alert never has two on a page. */
export function AlertList({
  alerts,
  label,
  showSession = true,
  acknowledgeActive = true,
}: {
  alerts: readonly Alert[];
  label: string;
  showSession?: boolean;
  acknowledgeActive?: boolean;
}) {
  const ack = useAcknowledge();
  const rules = useRuleList().data?.items;
  const sessions = useSessionList().data?.items;
  return (
    <>
      {ack.isError && <ErrorBox error={ack.error} />}
      <ul className="alert-list" aria-label={label}>
        {alerts.map((a) => (
          <AlertItem
            key={a.id}
            alert={a}
            rule={rules?.find((r) => r.id === a.rule_id) ?? null}
            session={showSession ? (sessions?.find((s) => s.id === a.session_id)?.name ?? 'A brew session') : null}
            canAcknowledge={!a.acknowledged_at && (acknowledgeActive || !isActive(a))}
            acknowledging={ack.isPending && ack.variables === a.id}
            onAcknowledge={() => ack.mutate(a.id)}
          />
        ))}
      </ul>
    </>
  );
}

function When({ iso, now }: { iso: string; now: number }) {
  return (
    <time dateTime={iso}>
      {relativeTime(iso, now)} · {absoluteTime(iso)}
    </time>
  );
}

function AlertItem({
  alert: a,
  rule,
  session,
  canAcknowledge,
  acknowledging,
  onAcknowledge,
}: {
  alert: Alert;
  rule: Parameters<typeof alertText>[2];
  session: string | null;
  canAcknowledge: boolean;
  acknowledging: boolean;
  onAcknowledge: () => void;
}) {
  const prefs = usePrefs();
  const id = useId();
  // "3 min ago" moves on while the page stays open.
  const now = useNow(30_000);
  const active = isActive(a);
  const cls = ['alert-item', active ? 'active' : 'cleared', a.acknowledged_at ? 'seen' : ''].filter(Boolean).join(' ');
  return (
    <li className={cls}>
      <div>
        <h3 id={`${id}-t`}>{alertText(a, prefs, rule)}</h3>
        <p className="small">
          <span className={active ? 'warn-text' : 'muted'}>{active ? 'Active' : 'Cleared'}</span>
          {' · '}
          {kindLabel(a.kind)}
          {session != null && (
            <>
              {' · '}
              <Link to={`/sessions/${a.session_id}`}>{session}</Link>
            </>
          )}
        </p>
        <p className="alert-times">
          <span>
            Raised <When iso={a.raised_at} now={now} />
          </span>
          {a.cleared_at && (
            <span>
              Cleared <When iso={a.cleared_at} now={now} />
            </span>
          )}
          {a.acknowledged_at && (
            <span>
              Acknowledged <When iso={a.acknowledged_at} now={now} />
            </span>
          )}
        </p>
      </div>
      {canAcknowledge && (
        <button type="button" aria-describedby={`${id}-t`} onClick={onAcknowledge} disabled={acknowledging}>
          Acknowledge
        </button>
      )}
    </li>
  );
}
