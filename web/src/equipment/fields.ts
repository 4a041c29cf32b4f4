// Equipment profiles' fields, as the equipment pages edit them.
import { allOf } from '../api/enums';
import type { Schemas } from '../api/client';
import type { Kind, RoundDefault } from '../units';

type ProfileNumber = Exclude<keyof Schemas['UpdateEquipmentRequest'], 'name' | 'notes' | 'mash_method'>;

/** How the water goes into the mash (`mash_method`), in words. */
export const mashMethods: readonly (readonly [Schemas['MashMethod'], string])[] = allOf<Schemas['MashMethod']>()([
  ['sparge', 'Sparge: strike water, then sparge water'],
  ['full_volume', 'Full volume: all the water in the mash (all-in-one, BIAB)'],
]);

/** The numbers of a profile, in the order a brewer walks through the brew day; a new profile's
 * starting values are round in the person's unit (0.5 qt/lb, not 0.48). */
export const profileFields: { key: ProfileNumber; label: string; unit: Kind; hint: string; def: number | RoundDefault | null; nullable?: boolean }[] = [
  { key: 'batch_size_liters', label: 'Batch size', unit: 'volume', hint: 'What goes into the fermenter', def: null },
  {
    key: 'mash_tun_volume_liters',
    label: 'Mash tun volume',
    unit: 'volume',
    hint: 'What the tun holds, water and grain; empty: not said',
    def: null,
    nullable: true,
  },
  { key: 'mash_tun_deadspace_liters', label: 'Mash tun deadspace', unit: 'volume', hint: 'Wort left below the outlet', def: 0 },
  { key: 'grain_absorption_liters_per_kg', label: 'Grain absorption', unit: 'absorption', hint: 'Water the grain keeps', def: { 'L/kg': 1, 'qt/lb': 0.5 } },
  { key: 'boil_off_liters_per_hour', label: 'Boil-off rate', unit: 'volume_rate', hint: 'Water boiled off per hour', def: 0 },
  { key: 'trub_chiller_loss_liters', label: 'Trub and chiller loss', unit: 'volume', hint: 'Left in the kettle and chiller', def: 0 },
  { key: 'top_up_water_liters', label: 'Top-up water', unit: 'volume', hint: 'Added in the fermenter', def: 0 },
  { key: 'fermenter_loss_liters', label: 'Fermenter loss', unit: 'volume', hint: 'Left on the yeast cake', def: 0 },
  { key: 'hop_utilization_percent', label: 'Hop utilisation', unit: 'percent', hint: '100 % is Tinseth’s curve', def: 100 },
];

/** Each numeric field's display unit, for 422 bounds (`withDisplayUnits`). */
export const profileKinds: Record<string, Kind> = Object.fromEntries(profileFields.map((f) => [f.key, f.unit]));
