import { Link } from 'react-router-dom';
import { useSessionList } from './api';
import { allOf } from '../api/enums';
import { Empty, ErrorBox, Loading } from '../components/States';
import { statusLabel, type Status } from './sessionStatus';

const order: readonly Status[] = allOf<Status>()(['brewing', 'fermenting', 'conditioning', 'planned', 'completed', 'abandoned']);

export default function Sessions() {
  const list = useSessionList();
  return (
    <>
      <div className="page-head">
        <h1>Brew sessions</h1>
      </div>
      {list.isPending ? (
        <Loading what="brew sessions" />
      ) : list.isError ? (
        <ErrorBox error={list.error} retry={() => list.refetch()} />
      ) : list.data.items.length === 0 ? (
        <Empty>
          <p>No brew sessions yet</p>
          <p className="muted">
            Open a recipe and choose “Brew this recipe” to plan a brew day. <Link to="/recipes">Open the recipe list</Link>
          </p>
        </Empty>
      ) : (
        <>
          {list.data.total > list.data.items.length && (
            <p className="muted">
              Showing the latest {list.data.items.length} of {list.data.total} sessions.
            </p>
          )}
          {order.map((status) => {
            const items = list.data.items.filter((s) => s.status === status);
            if (!items.length) return null;
            return (
              <section key={status} className="panel" aria-labelledby={`h-${status}`}>
                <h2 id={`h-${status}`}>
                  {statusLabel[status]} <span className="count">{items.length}</span>
                </h2>
                <ul className="plain-list">
                  {items.map((s) => (
                    <li key={s.id}>
                      <Link to={`/sessions/${s.id}`}>{s.name}</Link>
                      <span className="muted">
                        {' '}
                        · brew day {s.brew_date}
                        {s.status !== 'abandoned' && s.measured_abv != null ? ` · ${s.measured_abv} % ABV` : ''}
                      </span>
                    </li>
                  ))}
                </ul>
              </section>
            );
          })}
        </>
      )}
    </>
  );
}
