import type { Schemas } from '../api/client';

export type Status = Schemas['SessionStatus'];
export const forward: Status[] = ['planned', 'brewing', 'fermenting', 'conditioning', 'completed'];
export const statusLabel: Record<Status, string> = {
  planned: 'Planned',
  brewing: 'Brewing',
  fermenting: 'Fermenting',
  conditioning: 'Conditioning',
  completed: 'Completed',
  abandoned: 'Abandoned',
};

/**
 * The buttons offered: the forward states and "abandoned". Which moves are allowed is the API's
 * rule; a refused move shows the API's 422.
 */
export function nextStates(s: Status): Status[] {
  if (s === 'completed' || s === 'abandoned') return [];
  const i = forward.indexOf(s);
  return [...forward.slice(i + 1), 'abandoned'];
}
