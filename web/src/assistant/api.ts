// The assistant's queries and writes: the day's allowance, the conversations, and a chat turn
// (server-sent events).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { client, toApiError, unwrap, unwrapPage, type Schemas } from '../api/client';
import { keys } from '../api/keys';

/** Today's AI allowance and whether the server has an AI provider. */
export function useAiUsage() {
  return useQuery({ queryKey: keys.assistant.usage(), queryFn: () => unwrap(client.GET('/v1/ai/usage')) });
}

export function useChats() {
  return useQuery({ queryKey: keys.assistant.chats(), queryFn: () => unwrapPage(client.GET('/v1/chats', { params: { query: { limit: 100 } } })) });
}

/** One conversation with its messages; nothing is asked without an id (a new conversation). */
export function useChat(chatId: string | undefined) {
  return useQuery({
    queryKey: keys.assistant.chat(chatId ?? ''),
    queryFn: () => unwrap(client.GET('/v1/chats/{id}', { params: { path: { id: chatId! } } })),
    enabled: !!chatId,
  });
}

export function useRenameChat(onRenamed: () => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (r: { id: string; title: string }) => unwrap(client.PATCH('/v1/chats/{id}', { params: { path: { id: r.id } }, body: { title: r.title } })),
    onSuccess: () => {
      onRenamed();
      void qc.invalidateQueries({ queryKey: keys.assistant.chats() });
    },
  });
}

/** Deletes a conversation; `onDeleted` gets its id once the list is being refreshed. */
export function useDeleteChat(onDeleted: (id: string) => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => unwrap(client.DELETE('/v1/chats/{id}', { params: { path: { id } } })),
    onSuccess: (_r, id) => {
      void qc.invalidateQueries({ queryKey: keys.assistant.chats() });
      onDeleted(id);
    },
  });
}

/** What a chat turn changes: the conversation (awaited, so its messages replace the streamed
 * answer), the list of conversations and the day's allowance. */
export function useChatRefresh() {
  const qc = useQueryClient();
  return {
    chat: (id: string) => qc.invalidateQueries({ queryKey: keys.assistant.chat(id) }),
    chats: () => void qc.invalidateQueries({ queryKey: keys.assistant.chats() }),
    usage: () => void qc.invalidateQueries({ queryKey: keys.assistant.usage() }),
  };
}

/** `POST /v1/chat`: the answer as a stream of server-sent events (`chat`, `delta`, `error`), or
 * the API's error when the turn is refused before it starts. */
export async function startChatTurn(body: Schemas['ChatTurnRequest']): Promise<Response> {
  const res = await fetch('/v1/chat', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
    body: JSON.stringify(body),
  });
  if (!res.ok) {
    let parsed: unknown = null;
    try {
      parsed = await res.json();
    } catch {
      /* no body */
    }
    throw toApiError(res, parsed);
  }
  return res;
}
