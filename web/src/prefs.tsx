import { queryOptions, useQuery } from '@tanstack/react-query';
import { DEFAULT_PREFERENCES, type Preferences } from './api/extra';
import { client, unwrap } from './api/client';
import { keys } from './api/keys';

export const prefsQuery = queryOptions({
  queryKey: keys.me.preferences(),
  queryFn: async (): Promise<Preferences> => ({ ...DEFAULT_PREFERENCES, ...(await unwrap(client.GET('/v1/me/preferences'))) }),
  staleTime: 300_000,
});

/** The account's display units: a setting of the account, kept by the API (`/v1/me/preferences`). */
export function usePrefsQuery() {
  return useQuery(prefsQuery);
}

/** The units to show now: the defaults while they load. */
export function usePrefs(): Preferences {
  return usePrefsQuery().data ?? DEFAULT_PREFERENCES;
}
