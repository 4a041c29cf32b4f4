import { NavLink } from 'react-router-dom';
import { useActiveAlertCount } from './api';

/** The header's link to the Alerts page: "Alerts, 2 active", read again every 30 s. No count and
 * nothing coloured when none is active (or while the count loads). Always shown, beside the
 * phone's Menu button too. */
export function AlertsLink() {
  const count = useActiveAlertCount().data ?? 0;
  return (
    <NavLink to="/alerts" className={count > 0 ? 'alerts-link has-alerts' : 'alerts-link'} aria-label={count > 0 ? `Alerts, ${count} active` : undefined}>
      Alerts
      {count > 0 && (
        <span className="alerts-count" aria-hidden="true">
          {count > 99 ? '99+' : count}
        </span>
      )}
    </NavLink>
  );
}
