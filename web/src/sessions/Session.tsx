// The brew session page: status, the brew day (stock, checklist, timers), fermentation, and the
// measured figures beside the recipe as it was planned. Each part is its own file here.
import { Link, useParams } from 'react-router-dom';
import { ApiError } from '../api/client';
import { AutoField } from '../components/AutoField';
import { ErrorBox, Loading } from '../components/States';
import { StatsList } from '../components/Stats';
import { formatNumber } from '../units';
import { NotFound } from '../components/NotFound';
import { useBrewSession, useBrewSessionAutosave } from './api';
import { Brewhouse } from './Brewhouse';
import { DeductionPanel } from '../stock/DeductionPanel';
import { FermentationSchedule } from './FermentationSchedule';
import { StatusBar } from './StatusBar';
import { SnapshotLists, type Snapshot } from './SnapshotLists';
import { Checklist } from './Checklist';
import { Fermentation } from './Fermentation';
import { SessionAlerts } from '../alerts/SessionAlerts';

export default function SessionPage() {
  const { id = '' } = useParams();
  const session = useBrewSession(id);
  const save = useBrewSessionAutosave(id);
  if (session.isPending) return <Loading what="the brew session" />;
  if (session.isError)
    return session.error instanceof ApiError && [400, 404].includes(session.error.status) ? (
      <NotFound what="brew session" />
    ) : (
      <ErrorBox error={session.error} retry={() => session.refetch()} />
    );
  const s = session.data;
  const snap: Snapshot = s.recipe_snapshot;
  return (
    <div className="session-page">
      <div className="page-head">
        <div>
          <h1>{s.name}</h1>
          <p className="muted">
            Brew day {s.brew_date}
            {s.recipe_id ? (
              <>
                {' · '}
                <Link to={`/recipes/${s.recipe_id}`}>Open the recipe</Link>
              </>
            ) : null}
            {s.recipe_version != null ? ` · brewed from version ${s.recipe_version}` : null}
          </p>
        </div>
      </div>
      <StatusBar session={s} />
      <div className="session-grid">
        <div>
          <DeductionPanel sessionId={id} status={s.status} />
          <Checklist sessionId={id} status={s.status} />
          <Fermentation session={s} />
          <FermentationSchedule sessionId={id} />
          <SessionAlerts sessionId={id} />
        </div>
        <aside>
          <section className="panel" aria-labelledby="h-measured">
            <h2 id="h-measured">Measured</h2>
            <div className="form-grid one">
              <AutoField
                label="Measured OG"
                field="measured_og"
                type="number"
                unit="gravity"
                nullable
                value={s.measured_og ?? null}
                save={save('measured_og')}
              />
              <AutoField
                label="Measured FG"
                field="measured_fg"
                type="number"
                unit="gravity"
                nullable
                value={s.measured_fg ?? null}
                save={save('measured_fg')}
              />
              <AutoField
                label="Measured batch size"
                field="measured_batch_size_liters"
                type="number"
                unit="volume"
                nullable
                value={s.measured_batch_size_liters ?? null}
                save={save('measured_batch_size_liters')}
              />
              <p>Measured ABV: {s.measured_abv == null ? '—' : `${formatNumber(s.measured_abv, 2)} %`}</p>
              <Brewhouse numbers={s.brewhouse} />
              <AutoField
                label="Mash pH (room temperature)"
                field="measured_mash_ph"
                type="number"
                nullable
                value={s.measured_mash_ph ?? null}
                save={save('measured_mash_ph')}
              />
              {s.predicted_mash_ph != null && (
                <p className="muted small">
                  Predicted for the recipe: {formatNumber(s.predicted_mash_ph, 2, true)} (this pair calibrates the recipe page’s Water panel)
                </p>
              )}
              <AutoField label="Brew log" field="notes" type="textarea" nullable value={s.notes ?? null} save={save('notes')} />
            </div>
          </section>
          <section className="panel" aria-labelledby="h-snapshot">
            <h2 id="h-snapshot">Recipe snapshot</h2>
            <p className="muted">The recipe as it was when this session was planned.</p>
            {snap.stats && <StatsList stats={snap.stats} />}
            <SnapshotLists snap={snap} />
          </section>
        </aside>
      </div>
    </div>
  );
}
