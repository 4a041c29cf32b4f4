// Where the recipe was copied from ("Copied from Citra Pale (version 3)") and the recipes copied
// from it. Said only when there is something to say.
import { Link } from 'react-router-dom';
import type { Schemas } from '../../api/client';
import { ErrorBox } from '../../components/States';
import { useLineage } from './api';
import { parentOf } from './parent';

type Recipe = Schemas['RecipeDetail'];

export function LineageInfo({ recipe }: { recipe: Recipe }) {
  const lineage = useLineage(recipe.id, true);
  if (lineage.isError) return <ErrorBox error={lineage.error} retry={() => lineage.refetch()} />;
  if (!lineage.data) return null;
  const { ancestors, descendants } = lineage.data;
  const parent = parentOf(ancestors, recipe.parent_recipe_id);
  const version = recipe.parent_version ?? null;
  if (!parent && !recipe.source_url && descendants.length === 0) return null;
  return (
    <div className="lineage">
      {parent ? (
        <p>
          Copied from <Link to={`/recipes/${parent.id}`}>{parent.name}</Link>
          {version != null ? ` (version ${version})` : ''}.
        </p>
      ) : recipe.source_url ? (
        <p>
          Copied from <a href={recipe.source_url}>a shared recipe</a>
          {version != null ? ` (version ${version})` : ''}.
        </p>
      ) : null}
      {descendants.length > 0 && (
        <>
          <h3>Copies</h3>
          <ul className="copies" aria-label="Copies">
            {descendants.map((d) => (
              <li key={d.id}>
                <Link to={`/recipes/${d.id}`}>{d.name}</Link>
                <span className="muted small">
                  {d.parent_recipe_id === recipe.id && d.parent_version != null ? ` from version ${d.parent_version}` : ' a copy of a copy'}
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
