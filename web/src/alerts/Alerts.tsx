// The Alerts page (`/alerts`): the active alerts first, newest first, then the history of every
// alert, paged. The rules that raise them live on `/alerts/rules`.
import { Link } from 'react-router-dom';
import { pageCount, Pager, usePageParam } from '../components/Pager';
import { Empty, ErrorBox, Loading } from '../components/States';
import { AlertList } from './AlertList';
import { useAlertList, useRuleList } from './api';

const HISTORY_PAGE = 20;

export default function Alerts() {
  const active = useAlertList({ state: 'active', page: 0, size: 100 });
  const [page, go] = usePageParam();
  const history = useAlertList({ state: 'all', page, size: HISTORY_PAGE });
  const rules = useRuleList();
  const ruleCount = rules.data?.total;
  const nothingYet = page === 0 && history.data?.total === 0;
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Alerts</h1>
          <p className="muted">
            wort watches your fermentations and raises an alert when a rule’s condition becomes true: a temperature out of range, a gravity reached, a stall, a
            silent device.
          </p>
        </div>
        <Link className="button" to="/alerts/rules">
          Alert rules{ruleCount != null ? ` (${ruleCount})` : ''}
        </Link>
      </div>
      {nothingYet ? (
        <Empty>
          <p>No alerts yet</p>
          <p className="muted">
            An alert is raised once when a rule’s condition becomes true, and cleared when it is false again; you see it here, in the header and on the brew
            session. {ruleCount === 0 ? 'You have no alert rules yet: ' : ''}
            <Link to="/alerts/rules">{ruleCount === 0 ? 'add a rule' : 'See your alert rules'}</Link>.
          </p>
        </Empty>
      ) : (
        <>
          <section className="panel" aria-labelledby="h-active">
            <h2 id="h-active">Active</h2>
            {active.isPending ? (
              <Loading what="active alerts" />
            ) : active.isError ? (
              <ErrorBox error={active.error} retry={() => active.refetch()} />
            ) : active.data.items.length === 0 ? (
              <p className="muted">No active alerts: every watched fermentation is within its rules.</p>
            ) : (
              <AlertList alerts={active.data.items} label="Active alerts" />
            )}
          </section>
          <section className="panel" aria-labelledby="h-history">
            <h2 id="h-history">History</h2>
            {history.isPending ? (
              <Loading what="the alert history" />
            ) : history.isError ? (
              <ErrorBox error={history.error} retry={() => history.refetch()} />
            ) : (
              <>
                <AlertList alerts={history.data.items} label="Alert history" acknowledgeActive={false} />
                {history.data.total > HISTORY_PAGE && (
                  <Pager
                    label="History pages"
                    page={page}
                    pages={pageCount(history.data.total, HISTORY_PAGE)}
                    summary={`${history.data.total} ${history.data.total === 1 ? 'alert' : 'alerts'}`}
                    go={go}
                  />
                )}
              </>
            )}
          </section>
        </>
      )}
    </>
  );
}
