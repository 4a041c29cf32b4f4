// Equipment profiles' queries and writes, for the equipment pages and the recipe page.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { client, unwrap, unwrapPage, type Schemas } from '../api/client';
import { keys } from '../api/keys';
import { useAutosave } from '../autosave';
import { withDisplayUnits } from '../issueUnits';
import type { Preferences } from '../api/extra';
import { profileKinds } from './fields';

export type Profile = Schemas['Equipment'];

/** The account's equipment profiles, by name (a person has a handful; the API's largest page). */
export const equipmentListQuery = queryOptions({
  queryKey: keys.equipment.list(),
  queryFn: () => unwrapPage(client.GET('/v1/equipment', { params: { query: { limit: 200 } } })),
});

export const equipmentQuery = (id: string) =>
  queryOptions({
    queryKey: keys.equipment.detail(id),
    queryFn: () => unwrap(client.GET('/v1/equipment/{id}', { params: { path: { id } } })),
  });

export function useEquipmentList() {
  return useQuery(equipmentListQuery);
}

export function useEquipment(id: string) {
  return useQuery(equipmentQuery(id));
}

/** A new profile; `onMutate` runs as it is sent, `onCreated` with the answer. */
export function useCreateEquipment(handlers: { onMutate: () => void; onCreated: (p: Profile) => void }) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: Schemas['CreateEquipmentRequest']) => unwrap(client.POST('/v1/equipment', { body })),
    onSuccess: (p) => {
      handlers.onCreated(p);
      void qc.invalidateQueries({ queryKey: keys.equipment.list() });
    },
    onMutate: handlers.onMutate,
  });
}

/** The profile's fields, saved as they are edited; a 422's bounds are said in `units`. */
export function useEquipmentAutosave(id: string, units: Preferences) {
  return useAutosave({
    // A 422's bounds are in litres: shown in the unit the person typed in.
    patch: (body: Schemas['UpdateEquipmentRequest']) =>
      unwrap(client.PATCH('/v1/equipment/{id}', { params: { path: { id } }, body })).catch((e: unknown) => {
        throw withDisplayUnits(e, profileKinds, units);
      }),
    detail: keys.equipment.detail(id),
    // Recipes using the profile have new volumes (and IBU with a new utilisation).
    refresh: [keys.equipment.list(), keys.recipes.allStats()],
  });
}

export function useDeleteEquipment(id: string, onDeleted: () => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(client.DELETE('/v1/equipment/{id}', { params: { path: { id } } })),
    onSuccess: () => {
      qc.removeQueries({ queryKey: keys.equipment.detail(id) });
      void qc.invalidateQueries({ queryKey: keys.equipment.list() });
      onDeleted();
    },
  });
}
