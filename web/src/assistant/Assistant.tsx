import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { ApiError, errorText, retryText, type Schemas } from '../api/client';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { SelectField, TextField } from '../components/Field';
import { ErrorBox, Loading } from '../components/States';
import { SseParser } from './sse';
import { absoluteTime } from '../time';
import { useRecipeNames } from '../recipes/api';
import { startChatTurn, useAiUsage, useChat, useChatRefresh, useChats, useDeleteChat, useRenameChat } from './api';

type Message = Schemas['ChatMessage'];

export default function Assistant() {
  const { chatId } = useParams();
  const usage = useAiUsage();
  return (
    <>
      <div className="page-head">
        <h1>Assistant</h1>
      </div>
      <section className="panel usage" aria-labelledby="h-usage">
        <h2 id="h-usage">Today’s usage</h2>
        {usage.isPending ? (
          <Loading what="usage" />
        ) : usage.isError ? (
          <ErrorBox error={usage.error} retry={() => usage.refetch()} />
        ) : (
          <>
            {!usage.data.configured && (
              <p className="notice" role="status">
                AI is not configured on this server: the assistant cannot answer. The operator can enable it by setting WORT_AI_BASE_URL and WORT_AI_MODEL.
              </p>
            )}
            <p>
              {usage.data.messages.used} of {usage.data.messages.limit} messages and {usage.data.tokens.used.toLocaleString()} of{' '}
              {usage.data.tokens.limit.toLocaleString()} tokens used today; the limits reset at {absoluteTime(usage.data.resets_at)}.
            </p>
            <progress max={usage.data.messages.limit} value={usage.data.messages.used} aria-label="Daily AI allowance used" />
          </>
        )}
      </section>
      <div className="assistant-grid">
        <Threads current={chatId} />
        <Conversation key={chatId ?? 'new'} chatId={chatId} configured={usage.data?.configured} />
      </div>
    </>
  );
}

function Threads({ current }: { current?: string }) {
  const navigate = useNavigate();
  const threads = useChats();
  const [renaming, setRenaming] = useState<{ id: string; title: string } | null>(null);
  const [deleting, setDeleting] = useState<{ id: string; title: string } | null>(null);
  const rename = useRenameChat(() => setRenaming(null));
  const del = useDeleteChat((id) => {
    setDeleting(null);
    if (id === current) navigate('/assistant');
  });
  return (
    <section className="panel threads" aria-labelledby="h-threads">
      <h2 id="h-threads">Conversations</h2>
      <Link to="/assistant" className="button">
        New conversation
      </Link>
      {threads.isPending ? (
        <Loading what="conversations" />
      ) : threads.isError ? (
        <ErrorBox error={threads.error} retry={() => threads.refetch()} />
      ) : threads.data.items.length === 0 ? (
        <p className="muted">No conversations yet.</p>
      ) : (
        <ul className="thread-list">
          {threads.data.items.map((t) => {
            const title = t.title || 'Untitled conversation';
            return (
              <li key={t.id} className={t.id === current ? 'current' : ''}>
                <Link to={`/assistant/${t.id}`} aria-current={t.id === current ? 'page' : undefined}>
                  {title}
                </Link>
                <span className="thread-actions">
                  <button type="button" className="icon" aria-label={`Rename ${title}`} onClick={() => setRenaming({ id: t.id, title: t.title ?? '' })}>
                    ✎
                  </button>
                  <button type="button" className="icon danger-text" aria-label={`Delete ${title}`} onClick={() => setDeleting({ id: t.id, title })}>
                    ✕
                  </button>
                </span>
              </li>
            );
          })}
        </ul>
      )}
      <ConfirmDialog
        open={renaming != null}
        title="Rename conversation"
        confirmLabel="Save title"
        busy={rename.isPending}
        onCancel={() => setRenaming(null)}
        onConfirm={() => renaming && rename.mutate(renaming)}
      >
        <TextField
          label="Title"
          value={renaming?.title ?? ''}
          onChange={(e) => renaming && setRenaming({ ...renaming, title: e.target.value })}
          error={rename.error instanceof ApiError ? (rename.error.at('title') ?? rename.error.message) : undefined}
        />
      </ConfirmDialog>
      <ConfirmDialog
        open={deleting != null}
        title={`Delete “${deleting?.title ?? ''}”?`}
        confirmLabel="Delete conversation"
        danger
        busy={del.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && del.mutate(deleting.id)}
      >
        {del.error ? <ErrorBox error={del.error} /> : <p>The conversation and its messages are deleted.</p>}
      </ConfirmDialog>
    </section>
  );
}

/** `configured`: whether the server has an AI provider (`/v1/ai/usage`); unknown while it loads. */
function Conversation({ chatId, configured }: { chatId?: string; configured?: boolean }) {
  const refresh = useChatRefresh();
  const navigate = useNavigate();
  const thread = useChat(chatId);
  const recipes = useRecipeNames();
  const [message, setMessage] = useState('');
  const [recipeId, setRecipeId] = useState('');
  const [pending, setPending] = useState<{ user: string; answer: string } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const end = useRef<HTMLDivElement>(null);
  const messages: Message[] = thread.data?.messages ?? [];
  useEffect(() => {
    end.current?.scrollIntoView({ block: 'nearest' });
  }, [messages.length, pending?.answer]);

  const send = async (e: React.FormEvent) => {
    e.preventDefault();
    const text = message;
    if (!text.trim()) {
      setError(new ApiError(0, 'Write a message first'));
      return;
    }
    setBusy(true);
    setError(null);
    setPending({ user: text, answer: '' });
    let newId: string | null = null;
    try {
      const body: Schemas['ChatTurnRequest'] = { message: text };
      if (chatId) body.chat_id = chatId;
      else if (recipeId) body.recipe_id = recipeId;
      const res = await startChatTurn(body);
      setMessage('');
      const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
      const parser = new SseParser();
      let answer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        for (const ev of parser.push(value)) {
          const data = JSON.parse(ev.data) as { chat_id?: string; text?: string; error?: string };
          if (ev.event === 'chat' && data.chat_id) newId = data.chat_id;
          else if (ev.event === 'delta' && data.text) {
            answer += data.text;
            setPending({ user: text, answer });
          } else if (ev.event === 'error') throw new ApiError(502, data.error ?? 'AI provider error');
        }
      }
      const id = newId ?? chatId;
      if (id) await refresh.chat(id);
      setPending(null);
      refresh.chats();
      refresh.usage();
      if (!chatId && newId) navigate(`/assistant/${newId}`, { replace: true });
    } catch (err) {
      setError(err);
      setPending(null);
      if (!message) setMessage(text);
      refresh.usage();
    } finally {
      setBusy(false);
    }
  };

  const api = error instanceof ApiError ? error : null;
  const errorMessage = !error
    ? null
    : api?.status === 503
      ? `AI is not configured on this server (${api.message}).`
      : api?.status === 429
        ? `${api.message}. The daily limits reset at midnight UTC${api.retryAfter != null ? `: ${retryText(api.retryAfter)}` : ''}.`
        : errorText(error);
  const recipeName = thread.data?.recipe_id ? recipes.data?.items.find((r) => r.id === thread.data?.recipe_id)?.name : null;
  return (
    <section className="panel conversation" aria-labelledby="h-conv">
      <h2 id="h-conv">{chatId ? thread.data?.title || 'Conversation' : 'New conversation'}</h2>
      {recipeName && <p className="muted">About the recipe {recipeName}</p>}
      <div className="messages" aria-live="polite" aria-busy={busy}>
        {chatId && thread.isPending ? (
          <Loading what="the conversation" />
        ) : chatId && thread.isError ? (
          <ErrorBox error={thread.error} retry={() => thread.refetch()} />
        ) : messages.length === 0 && !pending ? (
          <p className="muted">Ask about a recipe, a style, a fermentation that stalled…</p>
        ) : null}
        {messages.map((m) => (
          <div key={m.id} className={`msg ${m.role}`}>
            <span className="sr-only">{m.role === 'user' ? 'You:' : 'Assistant:'}</span>
            <p className="prewrap">{m.content}</p>
          </div>
        ))}
        {pending && (
          <>
            <div className="msg user">
              <span className="sr-only">You:</span>
              <p className="prewrap">{pending.user}</p>
            </div>
            <div className="msg assistant">
              <span className="sr-only">Assistant:</span>
              <p className="prewrap">{pending.answer || '…'}</p>
            </div>
          </>
        )}
        <div ref={end} />
      </div>
      <form onSubmit={send} className="chat-form" noValidate>
        {!chatId && (
          <SelectField
            label="Recipe (optional)"
            value={recipeId}
            onChange={(e) => setRecipeId(e.target.value)}
            options={[['', 'No recipe'] as const, ...(recipes.data?.items ?? []).map((r) => [r.id, r.name] as const)]}
          />
        )}
        <div className="field">
          <label htmlFor="chat-message">Message</label>
          <textarea
            id="chat-message"
            rows={3}
            value={message}
            onChange={(e) => setMessage(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && configured !== false) void send(e);
            }}
            aria-describedby="chat-hint"
          />
          <span className="hint" id="chat-hint">
            Ctrl+Enter sends.
          </span>
        </div>
        {errorMessage && (
          <p className="form-error" role="alert">
            {errorMessage}
          </p>
        )}
        <button type="submit" className="primary" disabled={busy || configured === false} aria-describedby={configured === false ? 'send-off' : undefined}>
          {busy ? 'Sending…' : 'Send'}
        </button>
        {configured === false && (
          <p className="muted small" id="send-off">
            Sending is off: AI is not configured on this server.
          </p>
        )}
      </form>
    </section>
  );
}
