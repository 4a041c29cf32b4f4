// `/copy/:token`: where a shared recipe's public page ("Copy to my recipes") leads. Signed-out
// visitors sign in first (the route is guarded like every page); the copy is theirs to edit.
import { useNavigate, useParams } from 'react-router-dom';
import { ApiError } from '../../api/client';
import { ErrorBox } from '../../components/States';
import { useCopyShared } from './api';

export default function CopyShared() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const copy = useCopyShared(token, (r) => navigate(`/recipes/${r.id}`, { replace: true }));
  const gone = copy.error instanceof ApiError && (copy.error.status === 404 || copy.error.status === 410);
  return (
    <section className="panel copy-shared" aria-labelledby="h-copy-shared">
      <h1 id="h-copy-shared">Copy a shared recipe</h1>
      {gone ? (
        <p role="alert">This link is no longer shared.</p>
      ) : (
        <>
          <p>The copy goes into your recipes, where you can change and brew it. The original stays as its owner keeps it.</p>
          <p>
            <a href={`/shared/${encodeURIComponent(token)}`}>See the shared recipe</a>
          </p>
          <div className="actions">
            <button type="button" className="primary" onClick={() => copy.mutate()} disabled={copy.isPending}>
              {copy.isPending ? 'Copying…' : 'Copy to my recipes'}
            </button>
          </div>
          {copy.error ? <ErrorBox error={copy.error} /> : null}
        </>
      )}
    </section>
  );
}
