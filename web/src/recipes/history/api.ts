// A recipe's history and sharing: its versions (named, compared, restored), where it was copied
// from and its copies, its public link, and copying a recipe someone shared.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, client, unwrap, unwrapPage, type Schemas } from '../../api/client';
import { keys } from '../../api/keys';

/** One version of a recipe; `current` is the open one (the recipe as it is now). */
export type RecipeVersion = Schemas['RecipeVersion'];

/** One changed field; its values are any JSON value (a number, a string, null). */
export type FieldChange = Schemas['FieldChange'];

/** The kinds of child the API names in a diff. */
export type ChildKind = Schemas['RecipeChildKind'];

export type ChildChange = Schemas['ChildChange'];

/** What changed between two versions, as the API computes it. */
export type RecipeDiff = Schemas['RecipeDiff'];

export type LineageRecipe = Schemas['LineageEntry'];
export type Lineage = Schemas['Lineage'];
export type ShareLink = Schemas['ShareResponse'];

type Recipe = Schemas['RecipeDetail'];

/** Versions asked for at a time; "Show older versions" asks for this many more. */
export const VERSIONS_PAGE = 20;

/** The newest `limit` versions, while the History panel is open. */
export function useVersions(id: string, limit: number, enabled: boolean) {
  return useQuery({
    queryKey: keys.recipes.versions(id, limit),
    queryFn: () => unwrapPage(client.GET('/v1/recipes/{id}/versions', { params: { path: { id }, query: { limit, offset: 0 } } })),
    enabled,
    staleTime: 0,
    placeholderData: keepPreviousData,
  });
}

/** What version `n` changed from the one before it (the API's diff; nothing is compared here). */
export function useVersionDiff(id: string, n: number, enabled: boolean) {
  return useQuery({
    queryKey: keys.recipes.diff(id, n),
    queryFn: async (): Promise<RecipeDiff> => unwrap(client.GET('/v1/recipes/{id}/versions/{n}/diff', { params: { path: { id, n } } })),
    enabled,
    staleTime: 0,
  });
}

/** What this recipe has that `other` (another of the account's) has not, in a version diff's shape:
 * `before` is the other's value, `after` this one's. Nothing is asked for until `other` is chosen. */
export function useRecipeCompare(id: string, other: string | null) {
  return useQuery({
    queryKey: keys.recipes.compare(id, other ?? ''),
    queryFn: async (): Promise<RecipeDiff> => unwrap(client.GET('/v1/recipes/{id}/diff', { params: { path: { id }, query: { against_recipe: other ?? '' } } })),
    enabled: !!other,
    staleTime: 0,
  });
}

export function useLineage(id: string, enabled: boolean) {
  return useQuery({
    queryKey: keys.recipes.lineage(id),
    queryFn: () => unwrap(client.GET('/v1/recipes/{id}/lineage', { params: { path: { id } } })),
    enabled,
  });
}

/** Closes the open version under a name. */
export function useNameVersion(id: string, onNamed: () => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (message: string) => unwrap(client.POST('/v1/recipes/{id}/versions', { params: { path: { id } }, body: { message } })),
    onSuccess: async () => {
      onNamed();
      await qc.invalidateQueries({ queryKey: keys.recipes.history(id) });
    },
  });
}

/** Makes the recipe what it was in version `n` (a new version): everything shown of it is read again. */
export function useRestoreVersion(id: string, onRestored: (v: RecipeVersion) => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (n: number) => unwrap(client.POST('/v1/recipes/{id}/versions/{n}/restore', { params: { path: { id, n } } })),
    onSuccess: async (v) => {
      onRestored(v);
      await Promise.all([
        // The recipe with its children, its stats (and under them checks, water, explanations, history).
        qc.invalidateQueries({ queryKey: keys.recipes.detail(id) }),
        qc.invalidateQueries({ queryKey: keys.recipes.stats(id) }),
        qc.invalidateQueries({ queryKey: keys.recipes.lists() }),
        qc.invalidateQueries({ queryKey: keys.stock.cost(id) }),
      ]);
    },
  });
}

/** The recipe's live link, or `null` when it is not shared (the API's 404). */
export function useShareLink(id: string) {
  return useQuery({
    queryKey: keys.recipes.share(id),
    queryFn: async () => {
      try {
        return await unwrap(client.GET('/v1/recipes/{id}/share', { params: { path: { id } } }));
      } catch (e) {
        if (e instanceof ApiError && e.status === 404) return null;
        throw e;
      }
    },
    staleTime: 0,
  });
}

/** Creates the link, or sets whether the live one shows the notes. */
export function useShareRecipe(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (includeNotes: boolean) => unwrap(client.POST('/v1/recipes/{id}/share', { params: { path: { id } }, body: { include_notes: includeNotes } })),
    onSuccess: (link) => qc.setQueryData(keys.recipes.share(id), link),
  });
}

/** Revokes the link at once; sharing again makes a new one. */
export function useStopSharing(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(client.DELETE('/v1/recipes/{id}/share', { params: { path: { id } } })),
    onSuccess: () => qc.setQueryData(keys.recipes.share(id), null),
  });
}

/** A copy of a shared recipe in this account. */
export function useCopyShared(token: string, onCopied: (r: Recipe) => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(client.POST('/v1/shared/{token}/copy', { params: { path: { token } } })),
    onSuccess: (r) => {
      void qc.invalidateQueries({ queryKey: keys.recipes.lists() });
      onCopied(r);
    },
  });
}
