// "How is OG computed?": beside each figure of the statistics, a button that opens the API's
// working of it (`/stats?explain=true`): the formula and its source, the inputs, the steps, each
// fermentable's or hop's share, and the result. Asked for only once a panel is opened.
import { useEffect, useId, useRef, useState } from 'react';
import type { Schemas } from '../api/client';
import { StatsList, type Figure } from '../components/Stats';
import { ErrorBox, Loading } from '../components/States';
import { useRecipeExplain } from './api';
import { explainedValue, explainQuestion, explainTitle, partsTitle } from './explain';
import './Explain.css';

type Explanation = Schemas['Explanation'];

/** The statistics with a "How is … computed?" button beside each figure, and the one open panel under them. */
export function ExplainedStats({ recipeId, stats }: { recipeId: string; stats: Schemas['RecipeStats'] }) {
  const [open, setOpen] = useState<Figure | null>(null);
  const panelId = useId();
  const buttons = useRef(new Map<Figure, HTMLButtonElement>());
  const close = () => {
    const was = open;
    setOpen(null);
    if (was) buttons.current.get(was)?.focus();
  };
  return (
    <>
      <StatsList
        stats={stats}
        explain={(figure) => (
          <button
            type="button"
            className="icon ghost explain-button"
            ref={(el) => {
              if (el) buttons.current.set(figure, el);
              else buttons.current.delete(figure);
            }}
            aria-label={explainQuestion(figure)}
            title={explainQuestion(figure)}
            aria-expanded={open === figure}
            aria-controls={open === figure ? panelId : undefined}
            onClick={() => setOpen(open === figure ? null : figure)}
          />
        )}
      />
      {open && <ExplainPanel id={panelId} recipeId={recipeId} figure={open} onClose={close} />}
    </>
  );
}

/** One figure's working; Escape or ✕ closes it and gives the focus back to its button. */
function ExplainPanel({ id, recipeId, figure, onClose }: { id: string; recipeId: string; figure: Figure; onClose: () => void }) {
  const explain = useRecipeExplain(recipeId, true);
  const headingId = `${id}-h`;
  const ref = useRef<HTMLElement>(null);
  // Opened (or switched to another figure): the panel takes the focus, so it is read and in view.
  useEffect(() => {
    ref.current?.focus();
  }, [figure]);
  const e = explain.data?.[figure];
  return (
    <section
      id={id}
      ref={ref}
      tabIndex={-1}
      className="explain-panel"
      aria-labelledby={headingId}
      aria-busy={explain.isFetching}
      onKeyDown={(ev) => {
        if (ev.key === 'Escape') {
          ev.stopPropagation();
          onClose();
        }
      }}
    >
      <div className="explain-head">
        <h3 id={headingId}>{explainTitle(figure)}</h3>
        <button type="button" className="icon ghost" aria-label="Close the explanation" title="Close" onClick={onClose}>
          ✕
        </button>
      </div>
      {explain.isPending ? (
        <Loading what="the working" />
      ) : explain.isError ? (
        <ErrorBox error={explain.error} retry={() => explain.refetch()} />
      ) : e ? (
        <Working figure={figure} e={e} />
      ) : (
        <p className="muted">No explanation for this figure.</p>
      )}
    </section>
  );
}

function Working({ figure, e }: { figure: Figure; e: Explanation }) {
  return (
    <>
      <p className="explain-formula">
        <code>{e.formula.name}</code>
      </p>
      <p className="muted small explain-source">Source: {e.formula.source}</p>
      <Values title="Inputs" values={e.inputs} />
      <Steps steps={e.steps} />
      {e.parts.length > 0 && (
        <>
          <h4>{partsTitle(figure)}</h4>
          <ul className="explain-parts">
            {e.parts.map((p) => (
              <li key={p.id}>
                <h5>{p.name}</h5>
                <Values values={p.inputs} label={`Inputs for ${p.name}`} />
                <Steps steps={p.steps} label={`Steps for ${p.name}`} />
                <p className="explain-part-result">
                  Gives <strong>{explainedValue(p.result)}</strong>
                </p>
              </li>
            ))}
          </ul>
        </>
      )}
      <p className="explain-result">
        Result: <strong>{explainedValue(e.result)}</strong>
      </p>
    </>
  );
}

/** Named values with their units, as the formula reads them. */
function Values({ title, label, values }: { title?: string; label?: string; values: Schemas['ExplainedInput'][] }) {
  if (values.length === 0) return null;
  return (
    <>
      {title && <h4>{title}</h4>}
      <dl className="explain-values" aria-label={label}>
        {values.map((v, i) => (
          <div key={`${v.name}-${i}`}>
            <dt>{v.name}</dt>
            <dd>{explainedValue(v.value, v.unit)}</dd>
          </div>
        ))}
      </dl>
    </>
  );
}

/** The intermediate values, in order: "label = value". */
function Steps({ steps, label }: { steps: Schemas['ExplainedStep'][]; label?: string }) {
  if (steps.length === 0) return null;
  return (
    <>
      {!label && <h4>Steps</h4>}
      <ol className="explain-steps" aria-label={label}>
        {steps.map((s, i) => (
          <li key={`${s.label}-${i}`}>
            {s.label} = <strong>{explainedValue(s.value)}</strong>
          </li>
        ))}
      </ol>
    </>
  );
}
