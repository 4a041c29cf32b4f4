/**
 * Every TanStack Query key of the app, in one place.
 *
 * Each group has its own root (the key's first element) and no root is a prefix of another, so
 * invalidating one group never refetches another: the signed-in session is `['auth', 'session']`,
 * a brew session `['brew-sessions', 'detail', id]`. Inside a group, lists sit under `'list'`, so a
 * change can refresh the lists (`lists()`) without refetching every item page.
 */
export const keys = {
  auth: {
    /** The signed-in session (`null` when signed out). */
    session: () => ['auth', 'session'] as const,
    apiKeys: () => ['auth', 'api-keys'] as const,
  },
  /** What is happening now (`/v1/home`): sessions brewing or fermenting, running timers. */
  home: {
    all: () => ['home'] as const,
  },
  me: {
    /** The account's display units. */
    preferences: () => ['me', 'preferences'] as const,
  },
  recipes: {
    /** Every recipe list: the pages of the list and the names the assistant offers. */
    lists: () => ['recipes', 'list'] as const,
    list: (params: { q: string; sort: string; page: number }) => ['recipes', 'list', params] as const,
    names: () => ['recipes', 'list', 'names'] as const,
    /** The most recently edited, for the home page. */
    recent: (limit: number) => ['recipes', 'list', 'recent', limit] as const,
    detail: (id: string) => ['recipes', 'detail', id] as const,
    /** Every recipe's statistics (an equipment profile's change moves them all). */
    allStats: () => ['recipes', 'stats'] as const,
    stats: (id: string) => ['recipes', 'stats', id] as const,
    /** The water report: under the recipe's stats, so every change that refreshes them refreshes it. */
    water: (id: string) => ['recipes', 'stats', id, 'water'] as const,
    /** The recipe's checks: under its stats too, and their messages are in the account's units. */
    checks: (id: string) => ['recipes', 'stats', id, 'checks'] as const,
    /** How each figure is computed (`/stats?explain=true`): under the stats, refreshed with them. */
    explain: (id: string) => ['recipes', 'stats', id, 'explain'] as const,
    /** The version history (the list and the diffs): under the stats too, since every edit moves
     * the open version (its summary, its diff against the one before). */
    history: (id: string) => ['recipes', 'stats', id, 'history'] as const,
    versions: (id: string, limit: number) => ['recipes', 'stats', id, 'history', 'versions', limit] as const,
    diff: (id: string, n: number) => ['recipes', 'stats', id, 'history', 'diff', n] as const,
    /** The recipe's differences from another one: under its history, so its edits refresh them. */
    compare: (id: string, other: string) => ['recipes', 'stats', id, 'history', 'compare', other] as const,
    /** Where the recipe was copied from and its copies. */
    lineage: (id: string) => ['recipes', 'lineage', id] as const,
    /** The recipe's public link (`null` when not shared). */
    share: (id: string) => ['recipes', 'share', id] as const,
  },
  water: {
    profiles: () => ['water', 'profiles'] as const,
  },
  styles: {
    all: () => ['styles'] as const,
  },
  tools: {
    /** One answer of a brewer's tool: pure, the same for every account. */
    answer: (tool: string, query: Record<string, string | number>) => ['tools', tool, query] as const,
  },
  catalog: {
    /** Everything of the ingredient catalogue: an own item's change refreshes searches and lists alike. */
    all: () => ['catalog'] as const,
    kind: (kind: string) => ['catalog', kind] as const,
    /** The suggestions of a name field (built-in and own items). */
    search: (kind: string, q: string) => ['catalog', kind, 'search', q] as const,
    /** A page of the account's own items (the Ingredients page). */
    mine: (kind: string, params: { q: string; page: number }) => ['catalog', kind, 'mine', params] as const,
  },
  equipment: {
    list: () => ['equipment', 'list'] as const,
    detail: (id: string) => ['equipment', 'detail', id] as const,
  },
  brewSessions: {
    list: () => ['brew-sessions', 'list'] as const,
    detail: (id: string) => ['brew-sessions', 'detail', id] as const,
    /** Every session's checklist: its generated text is rendered in the account's units. */
    allSteps: () => ['brew-sessions', 'steps'] as const,
    steps: (id: string) => ['brew-sessions', 'steps', id] as const,
    logs: (id: string) => ['brew-sessions', 'logs', id] as const,
    /** The notes on the session's fermentation chart. */
    notes: (id: string) => ['brew-sessions', 'notes', id] as const,
    /** Under the session's detail: refreshed whenever the session is (a reading, a status change). */
    schedule: (id: string) => ['brew-sessions', 'detail', id, 'fermentation-schedule'] as const,
    /** Under the session's detail: a new reading refreshes the forecast too. */
    forecast: (id: string) => ['brew-sessions', 'detail', id, 'forecast'] as const,
  },
  inventory: {
    lists: () => ['inventory', 'list'] as const,
    page: (page: number, size: number) => ['inventory', 'list', { page, size }] as const,
  },
  /** What the stock says about brewing: a session's deduction, a recipe's cost, shopping lists.
   * Any stock change refreshes the whole group. */
  stock: {
    all: () => ['stock'] as const,
    deduction: (sessionId: string) => ['stock', 'deduction', sessionId] as const,
    cost: (recipeId: string) => ['stock', 'cost', recipeId] as const,
    shopping: (recipeIds: string[], sessionIds: string[]) => ['stock', 'shopping', { recipeIds, sessionIds }] as const,
  },
  devices: {
    list: () => ['devices', 'list'] as const,
    detail: (id: string) => ['devices', 'detail', id] as const,
  },
  webhooks: {
    list: () => ['webhooks', 'list'] as const,
    detail: (id: string) => ['webhooks', 'detail', id] as const,
    /** Every page of one webhook's delivery attempts. */
    deliveries: (id: string) => ['webhooks', 'deliveries', id] as const,
    deliveryPage: (id: string, page: number) => ['webhooks', 'deliveries', id, page] as const,
  },
  /** The account's MQTT broker (`null` when none): one item, its own root. */
  mqtt: {
    integration: () => ['mqtt'] as const,
  },
  /** Alerts: the header's count, the Alerts page's lists, a session's alerts. An acknowledgement
   * or a new reading refreshes the whole group. */
  alerts: {
    all: () => ['alerts'] as const,
    activeCount: () => ['alerts', 'active-count'] as const,
    list: (params: { state: 'active' | 'all'; sessionId?: string; page: number; size: number }) => ['alerts', 'list', params] as const,
  },
  /** The account's alert rules (their own root: acknowledging an alert leaves them be). */
  alertRules: {
    list: () => ['alert-rules', 'list'] as const,
  },
  assistant: {
    usage: () => ['assistant', 'usage'] as const,
    chats: () => ['assistant', 'chats'] as const,
    chat: (id: string) => ['assistant', 'chat', id] as const,
  },
};
