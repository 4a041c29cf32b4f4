// A recipe's history and sharing: its versions (named, compared, restored), where it was copied
// from and its copies, its public link, and copying a recipe someone shared.
//
// The shapes are declared here until the API's OpenAPI snapshot has these paths; then they become
// the generated `Schemas[...]` types and the calls go through the typed client.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, request, requestPage, type Schemas } from '../../api/client';
import { keys } from '../../api/keys';

/** One version of a recipe; `current` is the open one (the recipe as it is now). */
export interface RecipeVersion {
  number: number;
  created_at: string;
  updated_at: string;
  message: string | null;
  summary: string;
  current: boolean;
}

export interface FieldChange {
  path: string[];
  before: unknown;
  after: unknown;
}

export type ChildKind = 'fermentable' | 'hop' | 'yeast' | 'misc' | 'mash_step' | 'water_addition' | 'fermentation_step';

export interface ChildChange {
  kind: ChildKind;
  id: string | null;
  change: 'added' | 'removed' | 'changed';
  fields: FieldChange[];
}

/** What changed between two versions, as the API computes it. */
export interface RecipeDiff {
  fields: FieldChange[];
  children: ChildChange[];
}

export interface LineageRecipe {
  id: string;
  name: string;
  parent_recipe_id: string | null;
  parent_version: number | null;
  created_at: string;
}

export interface Lineage {
  ancestors: LineageRecipe[];
  descendants: LineageRecipe[];
}

export interface ShareLink {
  token: string;
  url: string;
  include_notes: boolean;
  created_at: string;
}

/** The recipe's fields about where it came from (in the recipe's JSON once the API has them). */
export interface Provenance {
  parent_recipe_id?: string | null;
  parent_version?: number | null;
  source_url?: string | null;
}

type Recipe = Schemas['RecipeDetail'];

/** Versions asked for at a time; "Show older versions" asks for this many more. */
export const VERSIONS_PAGE = 20;

const base = (id: string) => `/v1/recipes/${encodeURIComponent(id)}`;

/** The newest `limit` versions, while the History panel is open. */
export function useVersions(id: string, limit: number, enabled: boolean) {
  return useQuery({
    queryKey: keys.recipes.versions(id, limit),
    queryFn: () => requestPage<RecipeVersion[]>(`${base(id)}/versions?limit=${limit}&offset=0`),
    enabled,
    staleTime: 0,
    placeholderData: keepPreviousData,
  });
}

/** What version `n` changed from the one before it (the API's diff; nothing is compared here). */
export function useVersionDiff(id: string, n: number, enabled: boolean) {
  return useQuery({
    queryKey: keys.recipes.diff(id, n),
    queryFn: () => request<RecipeDiff>('GET', `${base(id)}/versions/${n}/diff`),
    enabled,
    staleTime: 0,
  });
}

export function useLineage(id: string, enabled: boolean) {
  return useQuery({
    queryKey: keys.recipes.lineage(id),
    queryFn: () => request<Lineage>('GET', `${base(id)}/lineage`),
    enabled,
  });
}

/** Closes the open version under a name. */
export function useNameVersion(id: string, onNamed: () => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (message: string) => request<RecipeVersion>('POST', `${base(id)}/versions`, { message }),
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
    mutationFn: (n: number) => request<RecipeVersion>('POST', `${base(id)}/versions/${n}/restore`),
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
        return await request<ShareLink>('GET', `${base(id)}/share`);
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
    mutationFn: (includeNotes: boolean) => request<ShareLink>('POST', `${base(id)}/share`, { include_notes: includeNotes }),
    onSuccess: (link) => qc.setQueryData(keys.recipes.share(id), link),
  });
}

/** Revokes the link at once; sharing again makes a new one. */
export function useStopSharing(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => request<void>('DELETE', `${base(id)}/share`),
    onSuccess: () => qc.setQueryData(keys.recipes.share(id), null),
  });
}

/** A copy of a shared recipe in this account. */
export function useCopyShared(token: string, onCopied: (r: Recipe) => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => request<Recipe>('POST', `/v1/shared/${encodeURIComponent(token)}/copy`),
    onSuccess: (r) => {
      void qc.invalidateQueries({ queryKey: keys.recipes.lists() });
      onCopied(r);
    },
  });
}
