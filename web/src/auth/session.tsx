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

/** Only same-site paths: never an open redirect. */
export function safeNext(next: string | null): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/signin') || next.startsWith('/signup')) return '/';
  return next;
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
