import { useQuery } from '@tanstack/react-query';
import { DEFAULT_PREFERENCES, type Preferences } from './api/extra';
import { prefsQuery } from './queries';

/** The account's display units (CONTRACT §8). */
export function usePrefsQuery() {
  return useQuery(prefsQuery);
}

/** The units to show now: the defaults while they load. */
export function usePrefs(): Preferences {
  return usePrefsQuery().data ?? DEFAULT_PREFERENCES;
}
