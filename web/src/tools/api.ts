// The brewer's tools' query: one tool's answer (pure, the same for every account).
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { request } from '../api/client';
import { keys } from '../api/keys';

/** `GET /v1/tools/{name}` with the form's metric query; nothing is asked while it is incomplete
 * (`null`). An answer never changes; the last one stays while the next loads. */
export function useToolAnswer<T>(name: string, query: Record<string, string | number> | null) {
  return useQuery({
    queryKey: keys.tools.answer(name, query ?? {}),
    queryFn: () => {
      const search = new URLSearchParams(Object.entries(query ?? {}).map(([k, v]) => [k, String(v)]));
      return request<T>('GET', `/v1/tools/${name}?${search.toString()}`);
    },
    enabled: query != null,
    placeholderData: keepPreviousData,
    staleTime: Infinity,
    retry: false,
  });
}
