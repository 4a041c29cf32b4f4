// One editable cell of a recipe's child table.
import { AutoField } from '../components/AutoField';
import { rowCheckId, useFieldChecks } from './checks';
import { MINUTES_PER_DAY, NUMBER_DELAY, unitOf, type ChildSpec, type Col, type Row } from './childSpec';

/** One editable cell; a column in days (a dry hop's time) shows and takes days, the API keeps minutes. */
export function Cell({
  recipeId,
  c,
  spec,
  row,
  i,
  save,
  label,
  applies = true,
}: {
  recipeId: string;
  c: Col;
  spec: ChildSpec;
  row: Row;
  i: number;
  save: (v: string | number | null) => Promise<void>;
  label: string;
  /** Whether the field means something on this row (`Col.only`); else an empty cell. */
  applies?: boolean;
}) {
  const days = c.days?.(row) ?? false;
  // A check naming this row's field by the row's id ("hops", id, "time_minutes"): its text is in
  // the line under the row (the whole table's width), and read with this field.
  const checks = useFieldChecks(recipeId, [spec.path.replace('-', '_'), row.id, c.key]);
  const describedBy = checks.map((_, n) => rowCheckId(row.id, c.key, n)).join(' ') || undefined;
  const value = row[c.key] as string | number | null;
  const shownLabel = days ? `${c.label} (days)` : label;
  if (!applies)
    return (
      <td role="cell" data-label={shownLabel} className="not-applicable">
        <span aria-hidden="true">—</span>
      </td>
    );
  return (
    <td role="cell" data-label={shownLabel}>
      {days ? (
        <div className="in-days">
          <AutoField
            label={`${cellLabel(c, spec, i)} (days)`}
            visibleLabel={false}
            field={c.key}
            type="number"
            unit="plain"
            value={typeof value === 'number' ? value / MINUTES_PER_DAY : value}
            save={(v) => save(typeof v === 'number' ? v * MINUTES_PER_DAY : v)}
            delay={NUMBER_DELAY}
            describedBy={describedBy}
          />
          <span aria-hidden="true">days</span>
        </div>
      ) : (
        <AutoField
          label={cellLabel(c, spec, i)}
          visibleLabel={false}
          field={c.key}
          type={c.type}
          unit={unitOf(c, row)}
          options={c.options}
          nullable={c.nullable}
          value={value}
          save={save}
          delay={c.type === 'number' ? NUMBER_DELAY : undefined}
          describedBy={describedBy}
        />
      )}
    </td>
  );
}

/** A cell's accessible name: "Fermentable 1" for the name, "Amount of fermentable 1" for the rest
 * (never the words of the recipe's own fields: Name, Type, Style, Notes). */
function cellLabel(c: Col, spec: ChildSpec, i: number): string {
  const one = `${spec.singular} ${i + 1}`;
  if (c.key === 'name') return one.charAt(0).toUpperCase() + one.slice(1);
  return `${c.aria ?? c.label} of ${one}`;
}
