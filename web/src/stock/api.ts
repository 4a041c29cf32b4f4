// What the stock says about brewing: a session's deduction from the inventory, a recipe's cost,
// and shopping lists.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { client, unwrap, unwrapPage, type Schemas } from '../api/client';
import { keys } from '../api/keys';

type Deduction = Schemas['InventoryDeduction'];

/**
 * A brew session's deduction: its preview (asked only when `offered`), taking it (`apply.mutate(partial)`)
 * and putting it back (`undo`). Each write refreshes every answer that shows the stock.
 */
export function useDeduction(sessionId: string, offered: boolean) {
  const qc = useQueryClient();
  const key = keys.stock.deduction(sessionId);
  const preview = useQuery({
    queryKey: key,
    queryFn: () => unwrap(client.POST('/v1/sessions/{id}/inventory-deduction', { params: { path: { id: sessionId } }, body: { preview: true } })),
    enabled: offered,
  });
  // Every answer that shows the stock: the inventory pages, costs, shopping lists, deductions.
  const refresh = () => Promise.all([qc.invalidateQueries({ queryKey: keys.stock.all() }), qc.invalidateQueries({ queryKey: keys.inventory.lists() })]);
  const apply = useMutation({
    mutationFn: (partial: boolean) =>
      unwrap(client.POST('/v1/sessions/{id}/inventory-deduction', { params: { path: { id: sessionId } }, body: { preview: false, partial } })),
    // The answer is the deduction as taken, with what each item holds now: shown at once,
    // before the refetches land.
    onSuccess: (taken: Deduction) => qc.setQueryData(key, taken),
    onSettled: refresh,
  });
  const undo = useMutation({
    mutationFn: () => unwrap(client.DELETE('/v1/sessions/{id}/inventory-deduction', { params: { path: { id: sessionId } } })),
    onSettled: refresh,
  });
  return { preview, apply, undo };
}

/** A recipe's cost (from the prices of the stock it matches) and whether the stock covers each ingredient. */
export function useRecipeCost(id: string) {
  return useQuery({
    queryKey: keys.stock.cost(id),
    queryFn: () => unwrap(client.GET('/v1/recipes/{id}/cost', { params: { path: { id } } })),
  });
}

/** Every item of a paged list: pages of 200 until `X-Total-Count` is reached. */
async function allPages<T>(page: (offset: number) => Promise<{ items: T[]; total: number }>): Promise<T[]> {
  const out: T[] = [];
  for (;;) {
    const p = await page(out.length);
    out.push(...p.items);
    if (p.items.length === 0 || out.length >= p.total) return out;
  }
}

/** Every recipe, page by page (never cut at one page), to choose from for a shopping list. */
export function useShoppingRecipes() {
  return useQuery({
    queryKey: [...keys.recipes.lists(), 'shopping'],
    queryFn: () => allPages((offset) => unwrapPage(client.GET('/v1/recipes', { params: { query: { limit: 200, offset, sort: 'name' } } }))),
  });
}

/** Planned sessions, and those brewing now (one whose ingredients were taken short still needs
 * what was missing), every page. */
export function useShoppingSessions() {
  return useQuery({
    queryKey: [...keys.brewSessions.list(), 'planned-or-brewing'],
    queryFn: async () => {
      const of = (status: 'planned' | 'brewing') =>
        allPages((offset) => unwrapPage(client.GET('/v1/sessions', { params: { query: { limit: 200, offset, status } } })));
      const [planned, brewing] = await Promise.all([of('planned'), of('brewing')]);
      return [...planned, ...brewing];
    },
  });
}

/** What the chosen recipes and sessions need beyond the stock; nothing is asked for none. */
export function useShoppingList(recipeIds: string[], sessionIds: string[]) {
  const query = { recipe_id: recipeIds, session_id: sessionIds };
  return useQuery({
    queryKey: keys.stock.shopping(recipeIds, sessionIds),
    queryFn: async () => (await unwrap(client.GET('/v1/shopping-list', { params: { query } }))) as Schemas['ShoppingLine'][],
    enabled: recipeIds.length + sessionIds.length > 0,
  });
}
