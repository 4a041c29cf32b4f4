// The brew session page's "Alerts" section: this session's alerts, newest first, with Acknowledge,
// and a link to add a rule for this session.
import { Link } from 'react-router-dom';
import { ErrorBox, Loading } from '../components/States';
import { AlertList } from './AlertList';
import { useAlertList, useAlertsFollowReadings } from './api';

const SHOWN = 10;

export function SessionAlerts({ sessionId }: { sessionId: string }) {
  const alerts = useAlertList({ state: 'all', sessionId, page: 0, size: SHOWN });
  useAlertsFollowReadings(sessionId);
  const total = alerts.data?.total ?? 0;
  return (
    <section className="panel" aria-labelledby="h-session-alerts">
      <h2 id="h-session-alerts">Alerts</h2>
      {alerts.isPending ? (
        <Loading what="alerts" />
      ) : alerts.isError ? (
        <ErrorBox error={alerts.error} retry={() => alerts.refetch()} />
      ) : alerts.data.items.length === 0 ? (
        <p className="muted">No alerts for this session.</p>
      ) : (
        <AlertList alerts={alerts.data.items} label="Alerts of this session" showSession={false} />
      )}
      <p className="small">
        <Link to={`/alerts/rules?session=${sessionId}`}>Add an alert rule for this session</Link>
        {total > SHOWN ? (
          <>
            {' · '}
            <Link to="/alerts">All {total} alerts</Link>
          </>
        ) : null}
      </p>
    </section>
  );
}
