// The home page's query: what is happening now (`GET /v1/home`).
import { useQuery } from '@tanstack/react-query';
import { client, unwrap } from '../api/client';
import { keys } from '../api/keys';

/** Sessions brewing or fermenting, and running timers. */
export function useHome() {
  return useQuery({
    queryKey: keys.home.all(),
    queryFn: () => unwrap(client.GET('/v1/home')),
    // The day turns and timers start on other devices: kept fresh while the page is open.
    refetchInterval: 30_000,
  });
}
