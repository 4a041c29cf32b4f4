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

/** A delete sent at once, so what depends on it (a session's figures so far) follows at once;
 * "Undo" within a few seconds puts the item back through `restore`. For items whose re-creation
 * is faithful (a reading: its time and measurements). */
export function useRestorableDelete<T>(restore: (item: T) => void, ms = 6000) {
  const [pending, setPending] = useState<(Pending & { item: T })[]>([]);
  const restoreRef = useRef(restore);
  restoreRef.current = restore;
  const removed = useCallback(
    (id: string, item: T, label: string) => {
      const timer = setTimeout(() => setPending((list) => list.filter((p) => p.id !== id)), ms);
      setPending((list) => [...list.filter((p) => p.id !== id), { id, label, timer, item }]);
    },
    [ms],
  );
  const pendingRef = useRef(pending);
  pendingRef.current = pending;
  const undo = useCallback((id: string) => {
    const p = pendingRef.current.find((x) => x.id === id);
    if (!p) return;
    clearTimeout(p.timer);
    setPending((list) => list.filter((x) => x.id !== id));
    restoreRef.current(p.item);
  }, []);
  // Leaving the page ends the offers (the deletes were sent already).
  useEffect(() => () => pendingRef.current.forEach((p) => clearTimeout(p.timer)), []);
  const toast = <UndoToast pending={pending} undo={undo} />;
  return { removed, toast };
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
