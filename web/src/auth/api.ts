// The signed-in session's queries and writes: who is signed in, signing in or up, signing out.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { ApiError, client, unwrap, type Schemas } from '../api/client';
import { keys } from '../api/keys';
import { forgetKeptAnswers } from '../offline/keptAnswers';

export type SessionEnvelope = Schemas['SessionEnvelope'];

export function useSession() {
  return useQuery({
    queryKey: keys.auth.session(),
    queryFn: async (): Promise<SessionEnvelope | null> => {
      try {
        return await unwrap(client.GET('/api/auth/get-session'));
      } catch (e) {
        if (e instanceof ApiError && e.status === 401) return null;
        throw e;
      }
    },
    staleTime: 60_000,
  });
}

export function useSignOut() {
  const qc = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: () => unwrap(client.POST('/api/auth/sign-out')),
    onSettled: () => {
      qc.clear();
      // The service worker's copies of this account's answers go too (a shared device).
      void forgetKeptAnswers();
      qc.setQueryData(keys.auth.session(), null);
      navigate('/signin');
    },
  });
}

/** Signs in (or up, then in) and reads the new session before anything else is asked; every
 * answer cached for the previous account goes first. Throws the API's refusal. */
export function useEnter() {
  const qc = useQueryClient();
  return async (mode: 'signin' | 'signup', { name, email, password }: { name: string; email: string; password: string }) => {
    if (mode === 'signup') await unwrap(client.POST('/api/auth/sign-up/email', { body: { name, email, password } }));
    else await unwrap(client.POST('/api/auth/sign-in/email', { body: { email, password } }));
    qc.clear();
    await qc.fetchQuery({ queryKey: keys.auth.session(), queryFn: () => unwrap(client.GET('/api/auth/get-session')) });
  };
}
