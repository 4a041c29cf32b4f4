// Devices' queries and writes: the list, a device (name, kind, brew session), its token, delete.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { client, unwrap, unwrapPage, type Schemas } from '../api/client';
import { keys } from '../api/keys';
import { useAutosave } from '../autosave';

type Created = Schemas['GeneratedDevice'];

/** The account's devices, by name (a brewery has a handful; the API's largest page). */
export const deviceListQuery = queryOptions({
  queryKey: keys.devices.list(),
  queryFn: () => unwrapPage(client.GET('/v1/devices', { params: { query: { limit: 200 } } })),
});

export const deviceQuery = (id: string) =>
  queryOptions({
    queryKey: keys.devices.detail(id),
    queryFn: () => unwrap(client.GET('/v1/devices/{id}', { params: { path: { id } } })),
  });

/** The device list, kept current (last seen) every minute while it is shown. */
export function useDeviceList() {
  return useQuery({ ...deviceListQuery, refetchInterval: 60_000 });
}

/** One device; it posts every minute or so, so what it sent last is read again every 30 s. */
export function useDevice(id: string) {
  return useQuery({ ...deviceQuery(id), refetchInterval: 30_000 });
}

/** A new device; `onCreated` gets the answer, the only one with its token. */
export function useCreateDevice(onCreated: (d: Created) => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: Schemas['CreateDeviceRequest']) => unwrap(client.POST('/v1/devices', { body })),
    onSuccess: (d) => {
      onCreated(d);
      void qc.invalidateQueries({ queryKey: keys.devices.list() });
    },
  });
}

/** The device's fields, saved as they are edited. */
export function useDeviceAutosave(id: string) {
  return useAutosave({
    patch: (body: Schemas['UpdateDeviceRequest']) => unwrap(client.PATCH('/v1/devices/{id}', { params: { path: { id } }, body })),
    detail: keys.devices.detail(id),
    refresh: [keys.devices.list()],
  });
}

/** A new token for the device (the old one stops working); `onReplaced` gets it. */
export function useReplaceDeviceToken(id: string, onReplaced: (d: Created) => void) {
  return useMutation({
    mutationFn: () => unwrap(client.POST('/v1/devices/{id}/token', { params: { path: { id } } })),
    onSuccess: onReplaced,
  });
}

export function useDeleteDevice(id: string, onDeleted: () => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(client.DELETE('/v1/devices/{id}', { params: { path: { id } } })),
    onSuccess: () => {
      qc.removeQueries({ queryKey: keys.devices.detail(id) });
      void qc.invalidateQueries({ queryKey: keys.devices.list() });
      onDeleted();
    },
  });
}
