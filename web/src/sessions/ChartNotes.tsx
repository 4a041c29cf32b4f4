// Under the fermentation chart: the form for a new note, and every mark of the chart in words
// (notes with Edit and Delete, the schedule's changes), so a keyboard or a screen reader gets
// what the markers show on hover.
import { useState } from 'react';
import { ApiError, errorText } from '../api/client';
import { useUndoableDelete } from '../components/Undo';
import { absoluteTime } from '../time';
import { useAddNote, useDeleteNote, useSaveNote } from './api';
import { MARK_STYLE, type ChartMark } from './chartMarks';
import { fromLocalInput, toLocalInput } from './timer';

/** The note form: its time (default now, editable) and its text. */
export function NoteForm({ sessionId }: { sessionId: string }) {
  // `moved`: the time was changed by hand. Untouched, the note is sent without one and the
  // server puts it at now, to the millisecond (the field holds whole minutes only).
  const blank = () => ({ at: toLocalInput(Date.now()), text: '', moved: false });
  const [form, setForm] = useState(blank);
  const add = useAddNote(sessionId, () => setForm(blank()));
  const api = add.error instanceof ApiError ? add.error : null;
  const atErr = api?.at('at');
  const textErr = api?.at('text');
  return (
    <form
      className="note-form"
      aria-label="New note"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const at = form.moved ? fromLocalInput(form.at) : null;
        add.mutate(at ? { at, text: form.text } : { text: form.text });
      }}
    >
      <div className={`field ${atErr ? 'has-error' : ''}`}>
        <label htmlFor="note-at">Note time</label>
        <input
          id="note-at"
          type="datetime-local"
          value={form.at}
          aria-invalid={atErr ? true : undefined}
          aria-describedby={atErr ? 'note-at-err' : undefined}
          onChange={(e) => setForm({ ...form, at: e.target.value, moved: true })}
        />
        {atErr && (
          <span className="field-error" id="note-at-err">
            {atErr}
          </span>
        )}
      </div>
      <div className={`field ${textErr ? 'has-error' : ''}`}>
        <label htmlFor="note-text">Note text</label>
        <textarea
          id="note-text"
          rows={1}
          value={form.text}
          aria-invalid={textErr ? true : undefined}
          aria-describedby={textErr ? 'note-text-err' : undefined}
          onChange={(e) => setForm({ ...form, text: e.target.value })}
        />
        {textErr && (
          <span className="field-error" id="note-text-err">
            {textErr}
          </span>
        )}
      </div>
      <button type="submit" className="primary" disabled={add.isPending}>
        Add note
      </button>
      {add.error != null && !atErr && !textErr && (
        <p className="form-error" role="alert">
          Not saved: {api ? api.rest(['at', 'text']) : errorText(add.error)}
        </p>
      )}
    </form>
  );
}

/** Every mark of the chart in time order; notes can be edited and deleted (with Undo). */
export function ChartMarkList({ sessionId, marks }: { sessionId: string; marks: ChartMark[] }) {
  const del = useDeleteNote(sessionId);
  const removal = useUndoableDelete((noteId) => del.mutate(noteId));
  const [editing, setEditing] = useState<string | null>(null);
  const shown = marks.filter((m) => !(m.noteId && removal.hidden.has(m.noteId)));
  return (
    <>
      {shown.length > 0 && (
        <ol className="chart-marks-list" aria-label="On the chart">
          {shown.map((m) =>
            m.noteId && editing === m.noteId ? (
              <NoteEditor key={m.key} mark={m} noteId={m.noteId} sessionId={sessionId} done={() => setEditing(null)} />
            ) : (
              <li key={m.key}>
                <span className="mark-swatch" style={{ background: MARK_STYLE[m.kind].colour }} aria-hidden="true" />
                <span className="muted small">
                  {MARK_STYLE[m.kind].word} · <time dateTime={m.iso}>{absoluteTime(m.iso)}</time>
                </span>
                <span className="mark-text">{m.text}</span>
                {m.noteId && (
                  <span className="row-actions">
                    <button type="button" className="ghost" aria-label={`Edit the note of ${absoluteTime(m.iso)}`} onClick={() => setEditing(m.noteId)}>
                      Edit
                    </button>
                    <button
                      type="button"
                      className="ghost danger-text"
                      aria-label={`Delete the note of ${absoluteTime(m.iso)}`}
                      onClick={() => m.noteId && removal.remove(m.noteId, `Note of ${absoluteTime(m.iso)} deleted.`)}
                    >
                      Delete
                    </button>
                  </span>
                )}
              </li>
            ),
          )}
        </ol>
      )}
      {del.error != null && (
        <p className="form-error" role="alert">
          Not deleted: {errorText(del.error)}
        </p>
      )}
      {removal.toast}
    </>
  );
}

/** A note changed in place: its time and text, saved together. */
function NoteEditor({ mark, noteId, sessionId, done }: { mark: ChartMark; noteId: string; sessionId: string; done: () => void }) {
  const [f, setF] = useState({ at: toLocalInput(mark.iso), text: mark.text });
  const save = useSaveNote(noteId, sessionId, done);
  const api = save.error instanceof ApiError ? save.error : null;
  const when = absoluteTime(mark.iso);
  const submit = () => {
    const at = fromLocalInput(f.at);
    // An untouched time keeps the stored instant exactly (the input holds minutes only).
    const moved = at && f.at !== toLocalInput(mark.iso);
    save.mutate(moved ? { at, text: f.text } : { text: f.text });
  };
  return (
    <li className="editing">
      <form
        className="note-form"
        aria-label={`Edit the note of ${when}`}
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
        onKeyDown={(e) => {
          if (e.key === 'Escape') done();
        }}
      >
        <div className={`field ${api?.at('at') ? 'has-error' : ''}`}>
          <label htmlFor={`note-at-${noteId}`}>Note time</label>
          <input
            id={`note-at-${noteId}`}
            type="datetime-local"
            value={f.at}
            aria-invalid={api?.at('at') ? true : undefined}
            onChange={(e) => setF({ ...f, at: e.target.value })}
          />
        </div>
        <div className={`field ${api?.at('text') ? 'has-error' : ''}`}>
          <label htmlFor={`note-text-${noteId}`}>Note text</label>
          <textarea
            id={`note-text-${noteId}`}
            rows={2}
            value={f.text}
            aria-invalid={api?.at('text') ? true : undefined}
            onChange={(e) => setF({ ...f, text: e.target.value })}
          />
        </div>
        <span className="row-actions">
          <button type="submit" className="primary" disabled={save.isPending}>
            Save
          </button>
          <button type="button" className="ghost" onClick={done}>
            Cancel
          </button>
        </span>
        {save.error != null && (
          <p role="alert" className="form-error">
            Not saved: {api ? [api.at('at'), api.at('text'), api.rest(['at', 'text'])].filter(Boolean).join(' ') : errorText(save.error)}
          </p>
        )}
      </form>
    </li>
  );
}
