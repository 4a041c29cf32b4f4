// Recipe checks (`GET /v1/recipes/{id}/checks`): each shown beside the field its path names, the
// recipe-wide ones in a list at the top of the editor. The words are the API's, in the account's
// units; this file only decides where each one goes.
import type { Schemas } from '../api/client';
import { useRecipeChecks, useSelectedChecks } from './api';

export type Check = Schemas['Check'];

/** The recipe's own fields that the editor shows with an input, so a check on them goes there. */
const recipeFields = new Set(['name', 'style', 'type', 'batch_size_liters', 'boil_time_minutes', 'efficiency', 'equipment_id', 'style_id', 'notes']);
/** The child lists whose rows show each field in a table cell. */
const childLists = new Set(['fermentables', 'hops', 'yeasts', 'miscs', 'mash_steps']);

/** Whether the editor shows this path as one field (a recipe field, or one cell of a child's row). */
export function hasField(path: readonly string[]): boolean {
  if (path.length === 1) return recipeFields.has(path[0]!);
  return path.length === 3 && childLists.has(path[0]!);
}

function samePath(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((s, i) => s === b[i]);
}

/** The checks at exactly this path (only this field re-renders when they change). */
export function useFieldChecks(recipeId: string | undefined, path: readonly string[]): Check[] {
  const checks = useSelectedChecks(recipeId, (c) => samePath(c.path, path));
  return checks.data ?? [];
}

/** The checks of one child row (`[list, rowId, field]`), in the API's order. */
export function useRowChecks(recipeId: string, list: string, rowId: string): Check[] {
  const checks = useSelectedChecks(recipeId, (c) => c.path.length === 3 && c.path[0] === list && c.path[1] === rowId);
  return checks.data ?? [];
}

/** The element id of a row field's `n`-th check: the row's line of checks renders it, the field
 * names it in its `aria-describedby`. */
export function rowCheckId(rowId: string, field: string, n: number): string {
  return `chk-${rowId}-${field}-${n}`;
}

/** A row's checks with their element ids (numbered per field, as the field counts them). */
export function withRowIds(rowId: string, checks: Check[]): { check: Check; id: string }[] {
  const seen = new Map<string, number>();
  return checks.map((check) => {
    const field = check.path[2] ?? '';
    const n = seen.get(field) ?? 0;
    seen.set(field, n + 1);
    return { check, id: rowCheckId(rowId, field, n) };
  });
}

const severityWord: Record<Check['severity'], string> = { error: 'Error', warning: 'Warning', info: 'Note' };

/** One check as text: its severity in words (not only a colour) and the API's message. */
export function CheckText({ check, id }: { check: Check; id?: string }) {
  return (
    <span id={id} className={`recipe-check recipe-check-${check.severity}`}>
      <strong>{severityWord[check.severity]}:</strong> {check.message}
    </span>
  );
}

/** The checks of one field, each with an id for the field's `aria-describedby`. */
export function FieldChecks({ checks, idPrefix }: { checks: Check[]; idPrefix: string }) {
  if (checks.length === 0) return null;
  return (
    <span className="field-checks">
      {checks.map((c, i) => (
        <CheckText key={`${c.code}-${i}`} check={c} id={`${idPrefix}-${i}`} />
      ))}
    </span>
  );
}

/** At the top of the editor: the checks that name no single field (a whole list, the water), and
 * how many more sit beside their fields. */
export function RecipeChecksPanel({ id }: { id: string }) {
  const checks = useRecipeChecks(id);
  if (checks.isPending || checks.isError) return null;
  const all = checks.data.checks;
  const here = all.filter((c) => !hasField(c.path));
  const beside = all.length - here.length;
  return (
    <section className="panel recipe-checks" aria-labelledby="h-checks" aria-busy={checks.isFetching}>
      <h2 id="h-checks">Checks</h2>
      {all.length === 0 ? (
        <p className="muted">Nothing to point out.</p>
      ) : (
        <>
          {here.length > 0 && (
            <ul className="recipe-check-list" aria-label="Checks of the recipe">
              {here.map((c, i) => (
                <li key={`${c.code}-${i}`}>
                  <CheckText check={c} />
                </li>
              ))}
            </ul>
          )}
          {beside > 0 && (
            <p className="muted small">
              {here.length > 0 ? 'And ' : ''}
              {beside} {beside === 1 ? 'check' : 'checks'} beside {beside === 1 ? 'its field' : 'their fields'} below.
            </p>
          )}
        </>
      )}
    </section>
  );
}
