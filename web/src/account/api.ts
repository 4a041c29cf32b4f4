// The account's queries and writes: the user's name and password, the display preferences
// (units, currency) and API keys.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { client, unwrap, type Schemas } from '../api/client';
import { keys } from '../api/keys';

type Currency = NonNullable<Schemas['UpdatePreferencesRequest']['currency']>;

export function useUpdateUser() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: Schemas['UpdateUserRequest']) => unwrap(client.POST('/api/auth/update-user', { body })),
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.auth.session() }),
  });
}

/** The display units. */
export function useSaveUnits() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: Schemas['UpdatePreferencesRequest']) => unwrap(client.PATCH('/v1/me/preferences', { body })),
    onSuccess: (p) => {
      qc.setQueryData(keys.me.preferences(), p);
      // The server writes generated checklist text in these units: read it again.
      void qc.invalidateQueries({ queryKey: keys.brewSessions.allSteps() });
      // And the recipes' checks (under their stats), whose messages are in these units too.
      void qc.invalidateQueries({ queryKey: keys.recipes.allStats() });
    },
  });
}

/** The currency prices are in (`null`: plain numbers). */
export function useSaveCurrency() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (currency: Currency | null) => unwrap(client.PATCH('/v1/me/preferences', { body: { currency } })),
    onSuccess: (p) => {
      qc.setQueryData(keys.me.preferences(), p);
      // Cost answers carry the currency: read them again.
      void qc.invalidateQueries({ queryKey: keys.stock.all() });
    },
  });
}

export function useChangePassword(onChanged: () => void) {
  return useMutation({
    mutationFn: (body: Schemas['ChangePasswordRequest']) => unwrap(client.POST('/api/auth/change-password', { body })),
    onSuccess: onChanged,
  });
}

export function useApiKeys() {
  return useQuery({ queryKey: keys.auth.apiKeys(), queryFn: () => unwrap(client.GET('/api/auth/api-key/list')) });
}

/** Creates a key; `onCreated` gets the answer, the only one that carries the key itself. */
export function useCreateApiKey(onCreated: (k: Schemas['CreatedApiKeyBody']) => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => unwrap(client.POST('/api/auth/api-key/create', { body: { name } })),
    onSuccess: (k) => {
      onCreated(k);
      void qc.invalidateQueries({ queryKey: keys.auth.apiKeys() });
    },
  });
}

export function useDeleteApiKey(onDeleted: () => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (keyId: string) => unwrap(client.POST('/api/auth/api-key/delete', { body: { keyId } })),
    onSuccess: () => {
      onDeleted();
      void qc.invalidateQueries({ queryKey: keys.auth.apiKeys() });
    },
  });
}
