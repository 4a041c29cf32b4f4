// The MQTT integration's query and writes: one per account, `null` when there is none.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, client, unwrap } from '../api/client';
import { keys } from '../api/keys';
import type { MqttBody, MqttIntegration } from './mqtt';

/** The account's integration, or `null` (the API's `404`). */
export const mqttQuery = queryOptions({
  queryKey: keys.mqtt.integration(),
  queryFn: async (): Promise<MqttIntegration | null> => {
    try {
      return await unwrap(client.GET('/v1/integrations/mqtt'));
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) return null;
      throw e;
    }
  },
});

/** Read again every 30 s while shown: the status (last published, pending, last error) moves. */
export function useMqtt() {
  return useQuery({ ...mqttQuery, refetchInterval: 30_000 });
}

/** Creates the integration or changes the fields sent. */
export function useSaveMqtt() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: MqttBody) => unwrap(client.PATCH('/v1/integrations/mqtt', { body })),
    onSuccess: (saved) => qc.setQueryData(keys.mqtt.integration(), saved),
  });
}

export function useDeleteMqtt(onDeleted: () => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(client.DELETE('/v1/integrations/mqtt')),
    onSuccess: () => {
      qc.setQueryData(keys.mqtt.integration(), null);
      onDeleted();
    },
  });
}
