// Display preferences (the account's units, `/v1/me/preferences`), from the generated types, and their defaults.
import type { components } from './schema';

export type Preferences = components['schemas']['Preferences'];

export const DEFAULT_PREFERENCES: Preferences = {
  amounts: 'metric',
  gravity: 'sg',
  color: 'srm',
  temperature: 'c',
  currency: null,
};
