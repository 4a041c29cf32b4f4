// The home page (`/`): what is happening now. The sessions brewing or fermenting and the running
// timers come from `GET /v1/home` (the day, the attenuation and the next step are the API's),
// the recent recipes from the recipe list.
import { Link } from 'react-router-dom';
import type { Schemas } from '../api/client';
import { useRecentRecipes } from '../recipes/api';
import { useHome } from './api';
import { useAlertList } from '../alerts/api';
import { AlertList } from '../alerts/AlertList';
import { ErrorBox, Loading } from '../components/States';
import { clock, useNow } from '../hooks';
import { usePrefs } from '../prefs';
import { display, formatNumber, srmToRgb } from '../units';
import { absoluteTime, untilTime } from '../time';
import { dueText } from '../sessions/FermentationSchedule';
import { statusLabel } from '../sessions/sessionStatus';
import { skewOf, timerView } from '../sessions/timer';
import { words } from '../components/Field';

type Active = Schemas['ActiveSession'];
type HomeTimer = Schemas['HomeTimer'];

/** Recipes the home page lists, the most recently edited first. */
const RECENT = 6;

export default function Home() {
  const home = useHome();
  return (
    <>
      <div className="page-head">
        <h1>Home</h1>
        <div className="actions">
          <Link className="button" to="/sessions">
            All brew sessions
          </Link>
        </div>
      </div>
      {home.isPending ? (
        <Loading what="what is happening" />
      ) : home.isError ? (
        <ErrorBox error={home.error} retry={() => home.refetch()} />
      ) : (
        <>
          <ActiveSessions sessions={home.data.sessions} />
          {home.data.timers.length > 0 && <Timers timers={home.data.timers} received={home.dataUpdatedAt} />}
        </>
      )}
      <ActiveAlerts />
      <RecentRecipes />
    </>
  );
}

function ActiveSessions({ sessions }: { sessions: Active[] }) {
  return (
    <section className="panel" aria-labelledby="h-active">
      <h2 id="h-active">Brewing and fermenting</h2>
      {sessions.length === 0 ? (
        <p className="muted">
          Nothing is brewing or fermenting. Open a recipe and choose “Brew this recipe”, or move a planned session on in{' '}
          <Link to="/sessions">Brew sessions</Link>.
        </p>
      ) : (
        <ul className="cards home-sessions" aria-label="Sessions brewing or fermenting">
          {sessions.map((s) => (
            <SessionCard key={s.id} session={s} />
          ))}
        </ul>
      )}
    </section>
  );
}

function SessionCard({ session: s }: { session: Active }) {
  const prefs = usePrefs();
  const f = s.fermentation;
  const fermenting = s.status === 'fermenting';
  const next = s.next_step;
  return (
    <li className="card home-session">
      <div>
        <h3>
          <Link to={`/sessions/${s.id}`}>{s.name}</Link>
        </h3>
        <p className="home-phase">
          <span className={`badge ${s.status}`}>{statusLabel[s.status]}</span>
          {s.day != null && <strong>{fermenting ? `Day ${s.day} of fermentation` : `Day ${s.day}`}</strong>}
        </p>
        <dl className="stats compact">
          {fermenting ? (
            <>
              <div>
                <dt>Latest gravity</dt>
                <dd>{f.latest_gravity == null ? '—' : display(f.latest_gravity, 'gravity', prefs)}</dd>
              </div>
              <div>
                <dt>Apparent attenuation</dt>
                <dd>{f.apparent_attenuation_percent == null ? '—' : `${formatNumber(f.apparent_attenuation_percent, 1)} %`}</dd>
              </div>
              <div>
                <dt>ABV so far</dt>
                <dd>{f.abv_percent == null ? '—' : `${formatNumber(f.abv_percent, 2)} %`}</dd>
              </div>
            </>
          ) : (
            <div>
              <dt>Checklist</dt>
              <dd>
                {s.checklist_done} of {s.checklist_total} done
              </dd>
            </div>
          )}
        </dl>
        {next ? (
          <p className="home-next">
            <span className="muted">Next: </span>
            {next.kind === 'dry_hop' ? `Dry hop ${next.name}` : next.name}
            {next.kind === 'rest' && next.temperature_c != null ? ` at ${display(next.temperature_c, 'temperature', prefs)}` : null}
            {next.kind === 'dry_hop' && next.amount_grams != null ? `, ${display(next.amount_grams, 'mass_g', prefs)}` : null}
            {' · '}
            {dueText(
              next,
              (g) => display(g, 'gravity', prefs),
              (iso) => `${absoluteTime(iso)} (${untilTime(iso)})`,
            )}
          </p>
        ) : fermenting ? (
          <p className="muted home-next">No step of the schedule waits.</p>
        ) : null}
      </div>
    </li>
  );
}

function Timers({ timers, received }: { timers: HomeTimer[]; received: number }) {
  const running = timers.some((t) => t.step.timer?.state === 'running');
  const now = useNow(1000, running);
  // The server's clock against this device's, learnt from a running timer (as on the session page).
  const skew = timers.map((t) => skewOf(t.step.timer, received)).find((k) => k != null) ?? 0;
  return (
    <section className="panel" aria-labelledby="h-timers">
      <h2 id="h-timers">Timers</h2>
      <ul className="plain-list home-timers">
        {timers.map((t) => {
          const timer = t.step.timer;
          if (!timer) return null;
          const view = timerView(timer, now, skew);
          return (
            <li key={t.step.id}>
              <span role="timer" aria-label={`Time left for ${t.step.title}`} className={`countdown ${view.state === 'done' ? 'finished' : ''}`}>
                {clock(view.left)}
              </span>
              <span>
                {t.step.title}
                <span className="muted">
                  {' · '}
                  <Link to={`/sessions/${t.session_id}`}>{t.session_name}</Link>
                  {view.state === 'paused' ? ' · Paused' : view.state === 'done' ? ' · Time is up' : ''}
                </span>
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** The active alerts, newest first (the first few; the Alerts page has them all); nothing while
 * there are none. */
function ActiveAlerts() {
  const alerts = useAlertList({ state: 'active', page: 0, size: HOME_ALERTS });
  if (!alerts.data || alerts.data.items.length === 0) return null;
  const { items, total } = alerts.data;
  return (
    <section className="panel" aria-labelledby="h-home-alerts">
      <h2 id="h-home-alerts">Active alerts</h2>
      <AlertList alerts={items} label="Active alerts" />
      {total > items.length && (
        <p className="small">
          <Link to="/alerts">All {total} active alerts</Link>
        </p>
      )}
    </section>
  );
}

const HOME_ALERTS = 5;

function RecentRecipes() {
  const prefs = usePrefs();
  const list = useRecentRecipes(RECENT);
  return (
    <section className="panel" aria-labelledby="h-recent">
      <div className="panel-head">
        <h2 id="h-recent">Recent recipes</h2>
        <Link to="/recipes">All recipes</Link>
      </div>
      {list.isPending ? (
        <Loading what="recipes" />
      ) : list.isError ? (
        <ErrorBox error={list.error} retry={() => list.refetch()} />
      ) : list.data.items.length === 0 ? (
        <p className="muted">
          No recipes yet. <Link to="/recipes">Make or import one</Link>.
        </p>
      ) : (
        <ul className="cards" aria-label="Recent recipes">
          {list.data.items.map((r) => (
            <li key={r.id} className="card recipe-card">
              <span className="swatch small" aria-hidden="true" style={{ backgroundColor: srmToRgb(r.est_color_srm) }} />
              <div>
                <h3>
                  <Link to={`/recipes/${r.id}`}>{r.name}</Link>
                </h3>
                <p className="muted">
                  {[r.style || 'No style', words(r.type), display(r.batch_size_liters, 'volume', prefs), display(r.est_color_srm, 'color', prefs)].join(' · ')}
                </p>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
