// Alerts' queries and writes: the header's count, the lists of alerts (all, active, one session's),
// acknowledging, and the alert rules.
import { useEffect, useRef } from 'react';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { client, unwrap, unwrapPage } from '../api/client';
import { keys } from '../api/keys';
import { useFermentationLogs } from '../sessions/api';
import type { AlertRule, RuleBody } from './alerts';

/** How often the header's count and the open lists are read again: the API's clock judges rules
 * every 30 s. */
export const ALERTS_REFRESH_MS = 30_000;

/** The number of active alerts: one item asked for, the `X-Total-Count` read. */
export const activeCountQuery = queryOptions({
  queryKey: keys.alerts.activeCount(),
  queryFn: async () => (await unwrapPage(client.GET('/v1/alerts', { params: { query: { state: 'active', limit: 1 } } }))).total,
});

export function useActiveAlertCount() {
  return useQuery({ ...activeCountQuery, refetchInterval: ALERTS_REFRESH_MS });
}

export interface AlertListParams {
  state: 'active' | 'all';
  sessionId?: string;
  page: number;
  size: number;
}

/** A page of alerts, newest first, with the `X-Total-Count`. */
export const alertListQuery = ({ state, sessionId, page, size }: AlertListParams) =>
  queryOptions({
    queryKey: keys.alerts.list({ state, sessionId, page, size }),
    queryFn: () =>
      unwrapPage(
        client.GET('/v1/alerts', {
          params: { query: { state, limit: size, offset: page * size, ...(sessionId ? { session_id: sessionId } : {}) } },
        }),
      ),
  });

export function useAlertList(params: AlertListParams) {
  return useQuery({ ...alertListQuery(params), placeholderData: keepPreviousData, refetchInterval: ALERTS_REFRESH_MS });
}

/** A reading stored (typed in on the session page, or a device's post seen by the readings'
 * refresh) may raise or clear an alert at once: the alerts and the header's count are read again
 * after each change of the session's readings. */
export function useAlertsFollowReadings(sessionId: string) {
  const qc = useQueryClient();
  const updated = useFermentationLogs(sessionId).dataUpdatedAt;
  const first = useRef(true);
  useEffect(() => {
    if (!updated) return;
    if (first.current) {
      first.current = false;
      return;
    }
    void qc.invalidateQueries({ queryKey: keys.alerts.all() });
  }, [updated, qc]);
}

/** Marks an alert seen; every list and the header's count follow. */
export function useAcknowledge() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => unwrap(client.POST('/v1/alerts/{id}/acknowledge', { params: { path: { id } } })),
    onSettled: () => qc.invalidateQueries({ queryKey: keys.alerts.all() }),
  });
}

/** The account's rules, oldest first (an account holds at most 100). */
export const ruleListQuery = queryOptions({
  queryKey: keys.alertRules.list(),
  queryFn: () => unwrapPage(client.GET('/v1/alert-rules', { params: { query: { limit: 100 } } })),
});

export function useRuleList() {
  return useQuery(ruleListQuery);
}

/** A rule changes what is active (a deleted or disabled rule clears its alerts): both groups follow. */
function useRuleWrite<V>(fn: (v: V) => Promise<unknown>, onDone?: () => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: keys.alertRules.list() });
      void qc.invalidateQueries({ queryKey: keys.alerts.all() });
      onDone?.();
    },
  });
}

export function useCreateRule(onDone?: () => void) {
  return useRuleWrite((body: RuleBody) => unwrap(client.POST('/v1/alert-rules', { body })), onDone);
}

export function useUpdateRule(id: string, onDone?: () => void) {
  return useRuleWrite(
    (body: Partial<Pick<AlertRule, 'enabled' | 'session_id' | 'gravity' | 'min_c' | 'max_c' | 'points' | 'hours' | 'minutes'>>) =>
      unwrap(client.PATCH('/v1/alert-rules/{id}', { params: { path: { id } }, body })),
    onDone,
  );
}

export function useDeleteRule(id: string, onDone?: () => void) {
  return useRuleWrite(() => unwrap(client.DELETE('/v1/alert-rules/{id}', { params: { path: { id } } })), onDone);
}
