// The recipes' queries and writes: lists, a recipe with its statistics, checks and water report,
// the styles and water profiles it picks from, its children (fermentables, hops, …), and the
// recipe-wide actions (create, import, copy, scale, delete, analyse).
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { client, request, unwrap, unwrapPage, type Schemas } from '../api/client';
import { keys } from '../api/keys';
import { useAutosave } from '../autosave';
import { prefsQuery } from '../prefs';
import { roundDefault } from '../units';
import type { ChildSpec, Row } from './childSpec';
import { recipeQuery, statsQuery } from './queries';
import { importRecipes } from './interchange';

type Recipe = Schemas['RecipeDetail'];

// The recipe and its statistics: their options live in queries.ts, which the start-up prefetch
// (main.tsx) imports without pulling this module into the first script.
export { recipeQuery, statsQuery } from './queries';

/** What a careful brewer would point out about the recipe, each check naming its field. */
export const checksQuery = (id: string) =>
  queryOptions({
    queryKey: keys.recipes.checks(id),
    queryFn: () => unwrap(client.GET('/v1/recipes/{id}/checks', { params: { path: { id } } })),
    staleTime: 0,
  });

/** How each figure of the statistics is computed (`/stats?explain=true`): its own key, under the
 * statistics' one, so every change that refreshes them refreshes it. */
export const explainQuery = (id: string) =>
  queryOptions({
    queryKey: keys.recipes.explain(id),
    queryFn: () => unwrap(client.GET('/v1/recipes/{id}/stats', { params: { path: { id }, query: { explain: true } } })),
    staleTime: 0,
  });

/** The BJCP 2021 styles: fixed data, loaded once. */
export const stylesQuery = queryOptions({
  queryKey: keys.styles.all(),
  queryFn: () => unwrap(client.GET('/v1/styles')),
  staleTime: Infinity,
});

export const waterQuery = (id: string) => ({
  queryKey: keys.recipes.water(id),
  queryFn: () => unwrap(client.GET('/v1/recipes/{recipe_id}/water', { params: { path: { recipe_id: id } } })),
  staleTime: 0,
});

export const waterProfilesQuery = {
  queryKey: keys.water.profiles(),
  queryFn: () => unwrap(client.GET('/v1/water-profiles', { params: { query: { limit: 200 } } })),
  staleTime: 60_000,
};

export function useRecipe(id: string) {
  return useQuery(recipeQuery(id));
}

export function useRecipeStats(id: string) {
  return useQuery(statsQuery(id));
}

export function useRecipeChecks(id: string) {
  return useQuery(checksQuery(id));
}

/** The recipe's checks that `pick` keeps (a component watching only these re-renders only when
 * they change); nothing is asked without a recipe. */
export function useSelectedChecks(recipeId: string | undefined, pick: (c: Schemas['Check']) => boolean) {
  return useQuery({
    ...checksQuery(recipeId ?? ''),
    enabled: recipeId != null,
    select: (d) => d.checks.filter(pick),
  });
}

/** The explanations, asked only while one is open (`enabled`): the page's statistics never wait for them. */
export function useRecipeExplain(id: string, enabled: boolean) {
  return useQuery({ ...explainQuery(id), enabled, select: (d) => d.explain ?? null });
}

export function useStyles() {
  return useQuery(stylesQuery);
}

export function useWaterReport(id: string) {
  return useQuery(waterQuery(id));
}

export function useWaterProfiles() {
  return useQuery(waterProfilesQuery);
}

/** One page of the recipe list (`size` a page), searched and sorted; the last page stays while the next loads. */
export function useRecipeList(params: { q: string; sort: Schemas['RecipeSortParam']; page: number }, size: number) {
  const { q, sort, page } = params;
  return useQuery({
    queryKey: keys.recipes.list({ q, sort, page }),
    queryFn: () => unwrapPage(client.GET('/v1/recipes', { params: { query: { q: q || undefined, sort, limit: size, offset: page * size } } })),
    placeholderData: keepPreviousData,
  });
}

/** Every recipe's name, for choosing one (the assistant's "about a recipe"). */
export function useRecipeNames() {
  return useQuery({
    queryKey: keys.recipes.names(),
    queryFn: () => unwrapPage(client.GET('/v1/recipes', { params: { query: { limit: 200, sort: 'name' } } })),
  });
}

/** The most recently edited recipes (the home page). */
export function useRecentRecipes(limit: number) {
  return useQuery({
    queryKey: keys.recipes.recent(limit),
    queryFn: () => unwrapPage(client.GET('/v1/recipes', { params: { query: { sort: '-updated_at', limit } } })),
  });
}

/** A new recipe's batch size, by the unit the person reads. */
const NEW_BATCH = { L: 20, gal: 5 };

export function useCreateRecipe(onCreated: (r: { id: string }) => void) {
  const qc = useQueryClient();
  return useMutation({
    // The batch starts round in the person's unit (5 gal, not the API's 20 L read as 5.28 gal).
    mutationFn: async () => {
      const units = await qc.ensureQueryData(prefsQuery);
      return unwrap(client.POST('/v1/recipes', { body: { name: 'New recipe', batch_size_liters: roundDefault('volume', NEW_BATCH, units) } }));
    },
    onSuccess: onCreated,
  });
}

/** A BeerXML or BeerJSON file sent as it is (`POST /v1/recipes/import`). */
export function useImportRecipes() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => importRecipes(file),
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.recipes.lists() }),
  });
}

/** The recipe's own fields, saved as they are edited. */
export function useRecipeAutosave(id: string) {
  return useAutosave({
    patch: (body: Schemas['UpdateRecipeRequest']) => unwrap(client.PATCH('/v1/recipes/{id}', { params: { path: { id } }, body })),
    detail: keys.recipes.detail(id),
    // The answer is the recipe without its ingredients and steps.
    merge: (cached: Recipe, answer) => ({ ...cached, ...answer }),
    awaited: [keys.recipes.stats(id)],
    refresh: [keys.recipes.lists()],
  });
}

export function useAnalyseRecipe(id: string) {
  return useMutation({
    mutationFn: () => unwrap(client.POST('/v1/recipes/{id}/analysis', { params: { path: { id } } })),
  });
}

export function useCopyRecipe(id: string, onCopied: (copy: { id: string }) => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(client.POST('/v1/recipes/{id}/copy', { params: { path: { id } } })),
    onSuccess: (c) => {
      void qc.invalidateQueries({ queryKey: keys.recipes.lists() });
      onCopied(c);
    },
  });
}

export function useDeleteRecipe(id: string, onDeleted: () => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(client.DELETE('/v1/recipes/{id}', { params: { path: { id } } })),
    onSuccess: () => {
      qc.removeQueries({ queryKey: keys.recipes.detail(id) });
      void qc.invalidateQueries({ queryKey: keys.recipes.lists() });
      onDeleted();
    },
  });
}

/** A new recipe scaled from this one (`POST /v1/recipes/{id}/scale`). */
export function useScaleRecipe(id: string, onScaled: (scaled: { id: string }) => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: Schemas['ScaleRecipeRequest']) => unwrap(client.POST('/v1/recipes/{id}/scale', { params: { path: { id } }, body })),
    onSuccess: (c) => {
      void qc.invalidateQueries({ queryKey: keys.recipes.lists() });
      onScaled(c);
    },
  });
}

/** The account's own water (a water report from the tap): `cleared` runs at once, `choose` once
 * the profiles are read again. */
export function useCreateWaterProfile(cleared: () => void, choose: (id: string) => Promise<void>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: Schemas['CreateWaterProfileRequest']) => unwrap(client.POST('/v1/water-profiles', { body })),
    onSuccess: async (profile) => {
      cleared();
      await qc.invalidateQueries({ queryKey: keys.water.profiles() });
      await choose(profile.id);
    },
  });
}

/**
 * One kind of a recipe's children (`path`): the cache work and writes of its table. The recipe in
 * the cache takes the API's answer for one child: no refetch of the whole recipe, so a change
 * costs one write and one `/stats`. `onError` gets a failed delete or move.
 */
export function useChildRows(recipeId: string, path: ChildSpec['path'], onError: (e: unknown) => void) {
  const qc = useQueryClient();
  const detailKey = keys.recipes.detail(recipeId);
  const statsKey = keys.recipes.stats(recipeId);
  const listKey = path.replace('-', '_');

  const putRow = (update: (list: Row[]) => Row[]) =>
    qc.setQueryData<Record<string, unknown>>(detailKey, (r) => (r ? { ...r, [listKey]: update((r[listKey] as Row[] | undefined) ?? []) } : r));
  const refreshStats = () => qc.invalidateQueries({ queryKey: statsKey });
  const refreshAll = () => Promise.all([qc.invalidateQueries({ queryKey: detailKey }), refreshStats()]);

  // One row's field: saved and put into the recipe; the statistics follow in the background (a
  // newer save's refresh supersedes an older one still on its way), so the next keystroke's save
  // waits only for this write, never for its statistics.
  const saver = (id: string) => (field: string) => async (value: string | number | null) => {
    const answer = await request<Row>('PATCH', `/v1/${path}/${id}`, { [field]: value });
    // The statistics' request leaves before the page re-renders with the answer.
    void refreshStats();
    putRow((list) => list.map((r) => (r.id === id ? { ...r, ...answer } : r)));
  };
  const del = useMutation({
    mutationFn: (id: string) => request('DELETE', `/v1/${path}/${id}`),
    onSuccess: (_v, id) => {
      putRow((list) => list.filter((r) => r.id !== id));
      return refreshStats();
    },
    onError,
  });
  /** Row `i` of `rows` (as shown) swaps places with its neighbour above (-1) or below (1). */
  const move = useMutation({
    mutationFn: async ({ rows, i, dir }: { rows: Row[]; i: number; dir: -1 | 1 }) => {
      const a = rows[i]!;
      const b = rows[i + dir]!;
      // Swap positions; rows sharing a sort_order get distinct ones from their index first.
      const oa = a.sort_order === b.sort_order ? i : a.sort_order;
      const ob = a.sort_order === b.sort_order ? i + dir : b.sort_order;
      await request('PATCH', `/v1/${path}/${a.id}`, { sort_order: ob });
      await request('PATCH', `/v1/${path}/${b.id}`, { sort_order: oa });
    },
    onSettled: refreshAll,
    onError,
  });
  /** A row the add form made: into the recipe, then the statistics. */
  const added = (row: Row) => {
    putRow((list) => [...list, row]);
    return refreshStats();
  };
  return { saver, del, move, added };
}

/** A new child of the recipe from the add form's body. */
export function useAddChild(recipeId: string, path: ChildSpec['path'], handlers: { onSuccess: (row: Row) => Promise<void>; onError: (e: unknown) => void }) {
  return useMutation({
    mutationFn: (body: Record<string, unknown>) => request<Row>('POST', `/v1/recipes/${recipeId}/${path}`, body),
    onSuccess: handlers.onSuccess,
    onError: handlers.onError,
  });
}
