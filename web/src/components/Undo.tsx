import { useCallback, useEffect, useRef, useState } from 'react';

interface Pending {
  id: string;
  label: string;
  timer: ReturnType<typeof setTimeout>;
}

/** A delete that waits a few seconds for "Undo": the row is hidden at once, the DELETE is sent
 * when the time is up (or when the page is left). */
export function useUndoableDelete(commit: (id: string) => void, ms = 6000) {
  const [pending, setPending] = useState<Pending[]>([]);
  const commitRef = useRef(commit);
  commitRef.current = commit;
  const pendingRef = useRef<Pending[]>([]);
  pendingRef.current = pending;
  const finish = useCallback((id: string) => {
    setPending((list) => list.filter((p) => p.id !== id));
    commitRef.current(id);
  }, []);
  const remove = useCallback(
    (id: string, label: string) => {
      const timer = setTimeout(() => finish(id), ms);
      setPending((list) => [...list.filter((p) => p.id !== id), { id, label, timer }]);
    },
    [finish, ms],
  );
  const undo = useCallback((id: string) => {
    setPending((list) => {
      const p = list.find((x) => x.id === id);
      if (p) clearTimeout(p.timer);
      return list.filter((x) => x.id !== id);
    });
  }, []);
  // Leaving the page sends what is still waiting.
  useEffect(
    () => () => {
      for (const p of pendingRef.current) {
        clearTimeout(p.timer);
        commitRef.current(p.id);
      }
    },
    [],
  );
  const hidden = new Set(pending.map((p) => p.id));
  const toast = <UndoToast pending={pending} undo={undo} />;
  return { hidden, remove, toast };
}

function UndoToast({ pending, undo }: { pending: Pending[]; undo: (id: string) => void }) {
  const last = pending[pending.length - 1];
  const button = useRef<HTMLButtonElement>(null);
  // The removed row's button is gone: focus moves to Undo, where the next keypress can take it back.
  useEffect(() => {
    if (last) button.current?.focus();
  }, [last]);
  return (
    <div className="toast-region" role="status" aria-live="polite">
      {last && (
        <div className="toast">
          <span>{last.label}</span>
          <button ref={button} type="button" onClick={() => undo(last.id)}>
            Undo
          </button>
        </div>
      )}
    </div>
  );
}
