// Which of a recipe's ancestors it was copied from. Unit-tested in parent.test.ts.
import type { LineageRecipe } from './api';

/** The recipe's parent among its ancestors: the one named by its `parent_recipe_id` when it is
 * known, else the one no other ancestor was copied from (whatever order the list has). */
export function parentOf(ancestors: readonly LineageRecipe[], parentId: string | null | undefined): LineageRecipe | undefined {
  if (parentId) return ancestors.find((a) => a.id === parentId);
  return ancestors.find((a) => !ancestors.some((b) => b.parent_recipe_id === a.id));
}
