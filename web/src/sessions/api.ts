// Brew sessions' queries and writes: the list, a session and its status, the brew-day checklist
// and its timers, fermentation readings (offline too) and the fermentation schedule.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { client, unwrap, unwrapPage, type Schemas } from '../api/client';
import { keys } from '../api/keys';
import { useAutosave } from '../autosave';
import { writeOrQueue } from '../offline/queue';
import type { Status } from './sessionStatus';

type Step = Schemas['BrewStep'];
type Log = Schemas['FermentationLog'];
type TimerAction = Schemas['StepTimerRequest']['action'];

/** The account's brew sessions (the session list and the devices' session choices share it). */
export const sessionListQuery = queryOptions({
  queryKey: keys.brewSessions.list(),
  queryFn: () => unwrapPage(client.GET('/v1/sessions', { params: { query: { limit: 200 } } })),
});

export function useSessionList() {
  return useQuery(sessionListQuery);
}

/** A brew session from a recipe (the recipe page's "Brew this recipe"). */
export function useStartSession(onStarted: (s: { id: string }) => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: Schemas['CreateSessionRequest']) => unwrap(client.POST('/v1/sessions', { body })),
    onSuccess: (s) => {
      void qc.invalidateQueries({ queryKey: keys.brewSessions.list() });
      onStarted(s);
    },
  });
}

export function useBrewSession(id: string) {
  return useQuery({
    queryKey: keys.brewSessions.detail(id),
    queryFn: () => unwrap(client.GET('/v1/sessions/{id}', { params: { path: { id } } })),
  });
}

/** The session's own fields (measured figures, the brew log), saved as they are edited. */
export function useBrewSessionAutosave(id: string) {
  return useAutosave({
    patch: (body: Schemas['UpdateSessionRequest']) => unwrap(client.PATCH('/v1/sessions/{id}', { params: { path: { id } }, body })),
    detail: keys.brewSessions.detail(id),
    refresh: [keys.brewSessions.list()],
  });
}

/** The session moves to `status`; the lists and the home page follow, then `onMoved`. */
export function useMoveStatus(id: string, onMoved: () => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (status: Status) => unwrap(client.PATCH('/v1/sessions/{id}', { params: { path: { id } }, body: { status } })),
    onSuccess: (s) => {
      qc.setQueryData(keys.brewSessions.detail(id), s);
      void qc.invalidateQueries({ queryKey: keys.brewSessions.list() });
      void qc.invalidateQueries({ queryKey: keys.home.all() });
      onMoved();
    },
  });
}

export function useSessionSteps(sessionId: string) {
  return useQuery({
    queryKey: keys.brewSessions.steps(sessionId),
    queryFn: () => unwrap(client.GET('/v1/sessions/{id}/steps', { params: { path: { id: sessionId } } })),
    // The timers are the server's: another device may start or pause one. Refetched on focus
    // (the default) and every 15 s.
    refetchInterval: 15_000,
  });
}

/**
 * A step ticked or unticked: shown at once, sent even offline (without network the tick waits on
 * this device, offline/queue.ts), and put back when the server refuses it. `user` owns the queued
 * write; `onStart`, `onFailed` and `onDone` are the checklist's own reactions.
 */
export function useTickStep(
  sessionId: string,
  user: string,
  handlers: { onStart: () => void; onFailed: (e: unknown) => void; onDone: (stepId: string) => void },
) {
  const qc = useQueryClient();
  return useMutation({
    networkMode: 'always',
    mutationFn: ({ id, completed, title }: { id: string; completed: boolean; title: string }) =>
      writeOrQueue<Step>({ user, method: 'PATCH', path: `/v1/steps/${id}`, body: { completed }, label: `${completed ? 'Tick' : 'Untick'} “${title}”` }),
    onMutate: ({ id, completed }) => {
      handlers.onStart();
      qc.setQueryData<Step[]>(keys.brewSessions.steps(sessionId), (old) => old?.map((s) => (s.id === id ? { ...s, completed } : s)));
    },
    onSuccess: (out) => {
      if (out.queued) return;
      const step = out.data;
      qc.setQueryData<Step[]>(keys.brewSessions.steps(sessionId), (old) => old?.map((s) => (s.id === step.id ? step : s)));
    },
    onError: (e, { id, completed }) => {
      qc.setQueryData<Step[]>(keys.brewSessions.steps(sessionId), (old) => old?.map((s) => (s.id === id ? { ...s, completed: !completed } : s)));
      handlers.onFailed(e);
    },
    onSettled: (_data, _error, { id }) => handlers.onDone(id),
  });
}

/**
 * A step's timer action, sent even offline. Queued, the step shows `guess(action)` (the countdown
 * the server will hold once it gets the action); answered, `onSaved` sees the server's step first.
 * A refusal (another device got there first, 422) reads what the server holds now.
 */
export function useStepTimer(
  sessionId: string,
  step: Step,
  user: string,
  label: (action: TimerAction) => string,
  handlers: { guess: (action: TimerAction) => NonNullable<Step['timer']>; onSaved: (saved: Step) => void },
) {
  const qc = useQueryClient();
  return useMutation({
    networkMode: 'always',
    mutationFn: (action: TimerAction) =>
      writeOrQueue<Step>({ user, method: 'POST', path: `/v1/steps/${step.id}/timer`, body: { action }, label: label(action) }),
    onSuccess: (out, action) => {
      if (out.queued) {
        const guess = handlers.guess(action);
        qc.setQueryData<Step[]>(keys.brewSessions.steps(sessionId), (old) => old?.map((s) => (s.id === step.id ? { ...s, timer: guess } : s)));
        return;
      }
      const saved = out.data;
      handlers.onSaved(saved);
      qc.setQueryData<Step[]>(keys.brewSessions.steps(sessionId), (old) => old?.map((s) => (s.id === saved.id ? saved : s)));
    },
    // Another device got there first (422): show what the server holds now.
    onError: () => void qc.invalidateQueries({ queryKey: keys.brewSessions.steps(sessionId) }),
  });
}

export function useFermentationLogs(id: string) {
  return useQuery({
    queryKey: keys.brewSessions.logs(id),
    queryFn: () => unwrap(client.GET('/v1/sessions/{id}/fermentation-logs', { params: { path: { id }, query: { limit: 5000 } } })),
  });
}

const byTime = (a: Log, b: Log) => a.logged_at.localeCompare(b.logged_at);

/**
 * A new reading, sent even offline (`label` names it in the queue). `onSent` runs first; offline
 * the reading waits on this device and shows here once the server has it.
 */
export function useAddReading(id: string, user: string, handlers: { onSent: () => void; onError: (e: unknown) => void }) {
  const qc = useQueryClient();
  return useMutation({
    networkMode: 'always',
    mutationFn: ({ body, label }: { body: Record<string, unknown>; label: string }) =>
      writeOrQueue<Log>({
        user,
        method: 'POST',
        path: `/v1/sessions/${id}/fermentation-logs`,
        body,
        label,
      }),
    onSuccess: (out) => {
      handlers.onSent();
      if (out.queued) return;
      const log = out.data;
      qc.setQueryData<Log[]>(keys.brewSessions.logs(id), (old) => [...(old ?? []), log].sort(byTime));
      // The figures so far are the session's, computed by the API from its latest reading.
      void qc.invalidateQueries({ queryKey: keys.brewSessions.detail(id) });
    },
    onError: handlers.onError,
  });
}

/** A removed reading made again (Undo). */
export function useRestoreReading(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (l: Log) =>
      unwrap(
        client.POST('/v1/sessions/{id}/fermentation-logs', {
          params: { path: { id } },
          body: {
            logged_at: l.logged_at,
            gravity: l.gravity,
            gravity_unit: l.gravity_unit,
            temperature_c: l.temperature_c,
            ph: l.ph,
            notes: l.notes,
          } as Schemas['CreateLogRequest'],
        }),
      ),
    onSuccess: (log) => {
      qc.setQueryData<Log[]>(keys.brewSessions.logs(id), (old) => [...(old ?? []), log].sort(byTime));
      void qc.invalidateQueries({ queryKey: keys.brewSessions.detail(id) });
    },
  });
}

/** A reading removed from the list at once and deleted; `onDeleted` offers its Undo. */
export function useDeleteReading(id: string, onDeleted: (l: Log) => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (l: Log) => unwrap(client.DELETE('/v1/fermentation-logs/{id}', { params: { path: { id: l.id } } })),
    onMutate: (l) => qc.setQueryData<Log[]>(keys.brewSessions.logs(id), (old) => old?.filter((x) => x.id !== l.id)),
    onSuccess: (_r, l) => onDeleted(l),
    onError: () => void qc.invalidateQueries({ queryKey: keys.brewSessions.logs(id) }),
    onSettled: () => qc.invalidateQueries({ queryKey: keys.brewSessions.detail(id) }),
  });
}

/** A reading corrected in place; `onSaved` once the list has the answer. */
export function useSaveReading(logId: string, sessionId: string, onSaved: () => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: Schemas['UpdateLogRequest']) => unwrap(client.PATCH('/v1/fermentation-logs/{id}', { params: { path: { id: logId } }, body })),
    onSuccess: (saved) => {
      qc.setQueryData<Log[]>(keys.brewSessions.logs(sessionId), (old) => old?.map((l) => (l.id === saved.id ? saved : l)).sort(byTime));
      void qc.invalidateQueries({ queryKey: keys.brewSessions.detail(sessionId) });
      onSaved();
    },
  });
}

/** The session's fermentation schedule (the API plans it when the session starts fermenting). */
export function useFermentationSchedule(sessionId: string) {
  return useQuery({
    queryKey: keys.brewSessions.schedule(sessionId),
    queryFn: () => unwrap(client.GET('/v1/sessions/{id}/fermentation-schedule', { params: { path: { id: sessionId } } })),
  });
}

/** The API's forecast of the FG and the finish, from the gravity readings (all null with a
 * `reason` until there are enough of them). */
export function useSessionForecast(sessionId: string) {
  return useQuery({
    queryKey: keys.brewSessions.forecast(sessionId),
    queryFn: () => unwrap(client.GET('/v1/sessions/{id}/forecast', { params: { path: { id: sessionId } } })),
  });
}

type Note = Schemas['SessionNote'];
const byNoteTime = (a: Note, b: Note) => a.at.localeCompare(b.at) || a.created_at.localeCompare(b.created_at);

/** Every note on the session's chart, oldest first: page after page of the API's largest. */
export function useSessionNotes(sessionId: string) {
  return useQuery({
    queryKey: keys.brewSessions.notes(sessionId),
    queryFn: async () => {
      const limit = 200;
      const all: Note[] = [];
      for (;;) {
        const page = await unwrapPage(client.GET('/v1/sessions/{id}/notes', { params: { path: { id: sessionId }, query: { limit, offset: all.length } } }));
        all.push(...page.items);
        if (page.items.length === 0 || all.length >= page.total) return all;
      }
    },
  });
}

/** A new note on the chart; `onSaved` once the list has it. */
export function useAddNote(sessionId: string, onSaved: () => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: Schemas['CreateNoteRequest']) => unwrap(client.POST('/v1/sessions/{id}/notes', { params: { path: { id: sessionId } }, body })),
    onSuccess: (note) => {
      qc.setQueryData<Note[]>(keys.brewSessions.notes(sessionId), (old) => [...(old ?? []), note].sort(byNoteTime));
      onSaved();
    },
  });
}

/** A note's text or time changed in place; `onSaved` once the list has the answer. */
export function useSaveNote(noteId: string, sessionId: string, onSaved: () => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: Schemas['UpdateNoteRequest']) => unwrap(client.PATCH('/v1/notes/{id}', { params: { path: { id: noteId } }, body })),
    onSuccess: (saved) => {
      qc.setQueryData<Note[]>(keys.brewSessions.notes(sessionId), (old) => old?.map((n) => (n.id === saved.id ? saved : n)).sort(byNoteTime));
      onSaved();
    },
  });
}

/** A note deleted (after its Undo has passed); the list is read again if the server refuses. */
export function useDeleteNote(sessionId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (noteId: string) => unwrap(client.DELETE('/v1/notes/{id}', { params: { path: { id: noteId } } })),
    onSuccess: (_r, noteId) => qc.setQueryData<Note[]>(keys.brewSessions.notes(sessionId), (old) => old?.filter((n) => n.id !== noteId)),
    onError: () => void qc.invalidateQueries({ queryKey: keys.brewSessions.notes(sessionId) }),
  });
}
