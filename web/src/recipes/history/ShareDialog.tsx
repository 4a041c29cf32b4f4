// "Share": a public, read-only link to the recipe. Whether it is shared, with or without its notes,
// the link to copy, and stopping it (the link stops working at once; sharing again makes a new one).
import { useEffect, useId, useRef, useState } from 'react';
import type { Schemas } from '../../api/client';
import { CopyField } from '../../components/Secret';
import { ErrorBox, Loading } from '../../components/States';
import { absoluteTime } from '../../time';
import { useShareLink, useShareRecipe, useStopSharing, type ShareLink } from './api';
import { absoluteLink } from './share';

type Recipe = Schemas['RecipeDetail'];

/** The "Share" button and its dialog, mounted while open so every opening reads the link afresh. */
export function ShareButton({ recipe }: { recipe: Recipe }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Share
      </button>
      {open && <ShareDialog recipe={recipe} onClose={() => setOpen(false)} />}
    </>
  );
}

function ShareDialog({ recipe, onClose }: { recipe: Recipe; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  const link = useShareLink(recipe.id);
  // Opened as a modal (focus trap, Escape); focus goes back to the Share button when it closes.
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const d = ref.current;
    if (d && !d.open) d.showModal();
    return () => {
      if (opener?.isConnected) opener.focus();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      className="share-dialog"
      aria-labelledby={`${id}-t`}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <h2 id={`${id}-t`}>Share “{recipe.name || 'Untitled recipe'}”</h2>
      <p>Anyone with the link can see this recipe, and nothing else of your account.</p>
      {link.isPending ? (
        <Loading what="the link" />
      ) : link.isError ? (
        <ErrorBox error={link.error} retry={() => link.refetch()} />
      ) : (
        <ShareForm recipeId={recipe.id} link={link.data} />
      )}
      <div className="actions">
        <button type="button" className="ghost" onClick={onClose}>
          Close
        </button>
      </div>
    </dialog>
  );
}

function ShareForm({ recipeId, link }: { recipeId: string; link: ShareLink | null }) {
  const [includeNotes, setIncludeNotes] = useState(link?.include_notes ?? false);
  const [stopped, setStopped] = useState(false);
  const share = useShareRecipe(recipeId);
  const stop = useStopSharing(recipeId);
  const checkId = useId();
  const error = share.error ?? stop.error;
  return (
    <>
      <p role="status" className="share-state">
        {link ? `Shared since ${absoluteTime(link.created_at)}.` : stopped ? 'Not shared: the link no longer works.' : 'Not shared.'}
      </p>
      <div className="check">
        <input
          id={checkId}
          type="checkbox"
          checked={includeNotes}
          disabled={share.isPending}
          onChange={(e) => {
            const checked = e.target.checked;
            setIncludeNotes(checked);
            // A live link shows or hides the notes at once; a failed change leaves the box as it was.
            if (link) share.mutate(checked, { onError: () => setIncludeNotes(!checked) });
          }}
        />
        <label htmlFor={checkId}>Include notes</label>
      </div>
      {link ? (
        <>
          <CopyField label="Share link" value={absoluteLink(link.url, window.location.origin)} copyLabel="Copy link" />
          <div className="actions">
            <button
              type="button"
              className="danger"
              disabled={stop.isPending}
              onClick={() => {
                setStopped(false);
                stop.mutate(undefined, { onSuccess: () => setStopped(true) });
              }}
            >
              Stop sharing
            </button>
          </div>
        </>
      ) : (
        <div className="actions">
          <button type="button" className="primary" disabled={share.isPending} onClick={() => share.mutate(includeNotes)}>
            Create link
          </button>
        </div>
      )}
      {error ? <ErrorBox error={error} /> : null}
    </>
  );
}
