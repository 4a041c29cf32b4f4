import { useEffect, useRef } from 'react';
import { Link } from 'react-router-dom';
import { ApiError, errorText } from '../api/client';
import { filePath, type importRecipes } from './interchange';
import { useImportRecipes } from './api';
import { CheckText } from './checks';

/** "Import" on the recipe list: a BeerXML or BeerJSON file, then what was imported and what was not kept. */
export function useImport() {
  const input = useRef<HTMLInputElement>(null);
  const mutation = useImportRecipes();
  const control = (
    <>
      <input
        ref={input}
        type="file"
        hidden
        tabIndex={-1}
        accept=".xml,.json,application/xml,text/xml,application/json"
        aria-label="Import recipes (BeerXML or BeerJSON)"
        onChange={(e) => {
          const file = e.target.files?.[0];
          // Cleared, so choosing the same file again imports it again.
          e.target.value = '';
          if (file) mutation.mutate(file);
        }}
      />
      <button type="button" onClick={() => input.current?.click()} disabled={mutation.isPending} aria-describedby="import-hint">
        {mutation.isPending ? 'Importing…' : 'Import'}
      </button>
      <span id="import-hint" hidden>
        A BeerXML (.xml) or BeerJSON (.json) file, up to 5 MiB
      </span>
    </>
  );
  const file = mutation.variables?.name;
  const results =
    mutation.isIdle || mutation.isPending ? null : (
      <section className="panel import-results" aria-label="Import results">
        <div className="import-head">
          <FocusedHeading>{mutation.isError ? 'Import failed' : 'Import done'}</FocusedHeading>
          <button type="button" className="ghost" onClick={() => mutation.reset()}>
            Dismiss
          </button>
        </div>
        {mutation.isError ? <ImportError error={mutation.error} file={file} /> : <ImportDone result={mutation.data!} file={file} />}
      </section>
    );
  return { control, results, pending: mutation.isPending };
}

/** The results' heading takes the focus when they appear, so keyboard and screen-reader users land on them. */
function FocusedHeading({ children }: { children: React.ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <h2 ref={ref} tabIndex={-1}>
      {children}
    </h2>
  );
}

function ImportError({ error, file }: { error: unknown; file?: string }) {
  const details = error instanceof ApiError && error.status === 422 ? error.details : [];
  return (
    <div className="error-box" role="alert">
      <p>
        {file ? <>Nothing was imported from “{file}”. </> : 'Nothing was imported. '}
        {errorText(error)}
        {details.length > 0 ? ':' : ''}
      </p>
      {details.length > 0 && (
        <ul className="import-issues">
          {details.map((d, i) => (
            <li key={i}>
              {d.path.length > 0 && (
                <>
                  <code>{filePath(d.path)}</code>:{' '}
                </>
              )}
              {d.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function ImportDone({ result, file }: { result: NonNullable<Awaited<ReturnType<typeof importRecipes>>>; file?: string }) {
  const n = result.recipes.length;
  const links = (
    <ul className="plain-list" aria-label="Imported recipes">
      {result.recipes.map((r) => (
        <li key={r.id}>
          <Link to={`/recipes/${r.id}`}>{r.name || 'Untitled recipe'}</Link>
          {r.checks.length > 0 ? (
            <ul className="recipe-check-list" aria-label={`Checks of ${r.name || 'Untitled recipe'}`}>
              {r.checks.map((c, i) => (
                <li key={`${c.code}-${i}`}>
                  <CheckText check={c} />
                </li>
              ))}
            </ul>
          ) : (
            <span className="muted small"> · nothing to point out</span>
          )}
        </li>
      ))}
    </ul>
  );
  return (
    <div>
      <p>
        {n} {n === 1 ? 'recipe' : 'recipes'} imported{file ? <> from “{file}”</> : null}.
      </p>
      {n <= 8 ? (
        links
      ) : (
        <details className="import-warnings">
          <summary>The {n} recipes</summary>
          {links}
        </details>
      )}
      {result.warnings.length > 0 ? (
        // A long list (a file of many recipes) starts folded.
        <details className="import-warnings" open={result.warnings.length <= 8}>
          <summary>
            {result.warnings.length} {result.warnings.length === 1 ? 'note' : 'notes'} on the file: what was not kept as written, and where its program's
            numbers differ from wort's
          </summary>
          <ul className="import-issues" aria-label="Import warnings">
            {result.warnings.map((w, i) => (
              <li key={i}>
                <strong>{w.recipe}</strong>
                {w.path.length > 0 && (
                  <>
                    {' '}
                    · <code>{filePath(w.path)}</code>
                  </>
                )}
                : {w.message}
              </li>
            ))}
          </ul>
        </details>
      ) : (
        <p className="muted">Everything in the file was kept.</p>
      )}
    </div>
  );
}
