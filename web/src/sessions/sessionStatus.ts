import type { Schemas } from '../api/client';

export type Status = Schemas['SessionStatus'];
export const statusLabel: Record<Status, string> = {
  planned: 'Planned',
  brewing: 'Brewing',
  fermenting: 'Fermenting',
  conditioning: 'Conditioning',
  completed: 'Completed',
  abandoned: 'Abandoned',
};
