// Lists of the API's enum values, checked against the generated schema (src/api/schema.d.ts).

/** What a list entry stands for: a value, the value of a `[value, label]` pair, or an object's `type`. */
type EntryValue<T> = T extends readonly [infer V, ...unknown[]] ? V : T extends { readonly type: infer V } ? V : T;

/** Nothing to add when `Listed` covers the enum `E`; else the members it misses, which the list then lacks. */
type Covers<E, Listed> = [Exclude<E, Listed>] extends [never] ? unknown : { readonly 'missing from the list': Exclude<E, Listed> };

/**
 * `list` as it is, checked at compile time against the API's enum `E`: every entry must be a member
 * and every member must have an entry, so an enum value the API adds fails the web build (naming
 * it) until the list has it. Entries are values, `[value, label]` pairs or objects with a `type`.
 *
 *     export const hopUses = allOf<Schemas['HopUse']>()(['boil', 'dry_hop', 'mash', …]);
 */
export const allOf =
  <E extends string>() =>
  <const L extends readonly (E | readonly [E, ...unknown[]] | { readonly type: E })[]>(list: L & Covers<E, EntryValue<L[number]>>): L =>
    list;
