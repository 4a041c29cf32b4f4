//! The alert use cases: managing rules, listing and acknowledging alerts, and the clock's pass
//! that judges the rules about time (stalls, silent devices) and clears the alerts whose watch is
//! gone. Rules about a reading's values are judged when the reading is stored, in its own
//! transaction (the store's reading path calls [`super::judge::changes`]).

use std::sync::Arc;

use uuid::Uuid;

use super::judge::{Coverage, changes};
use super::model::{Alert, AlertRule, AlertRulePatch, AlertState, NewAlertRule};
use super::ports::{AlertRepository, RuleWrite};
use super::rules::check_thresholds;
use crate::page::{Page, PageRequest};
use crate::ports::Clock;
use crate::{DomainError, DomainResult, UserId};

/// A `PATCH` that keeps meeting concurrent ones gives up after this many reads (`409`).
const PATCH_ATTEMPTS: usize = 3;

pub struct AlertService {
    alerts: Arc<dyn AlertRepository>,
    clock: Arc<dyn Clock>,
}

impl AlertService {
    pub fn new(alerts: Arc<dyn AlertRepository>, clock: Arc<dyn Clock>) -> Self {
        AlertService { alerts, clock }
    }

    pub async fn list_rules(
        &self,
        user: UserId,
        page: PageRequest,
    ) -> DomainResult<Page<AlertRule>> {
        self.alerts.list_rules(user, page).await
    }

    pub async fn create_rule(&self, user: UserId, new: NewAlertRule) -> DomainResult<AlertRule> {
        let violations = check_thresholds(new.kind, &new.thresholds);
        if !violations.is_empty() {
            return Err(DomainError::Invalid(violations));
        }
        self.alerts.create_rule(user, new, self.clock.now()).await
    }

    pub async fn get_rule(&self, user: UserId, id: Uuid) -> DomainResult<AlertRule> {
        self.alerts.get_rule(user, id).await
    }

    /// Merges the patch into the rule as stored and checks the result as a whole (a band's two
    /// edges, the fields of the rule's kind), then writes it unless the rule changed meanwhile.
    pub async fn update_rule(
        &self,
        user: UserId,
        id: Uuid,
        patch: AlertRulePatch,
    ) -> DomainResult<AlertRule> {
        for _ in 0..PATCH_ATTEMPTS {
            let rule = self.alerts.get_rule(user, id).await?;
            if patch.is_empty() {
                return Ok(rule);
            }
            let thresholds = patch.apply_to(rule.thresholds());
            let violations = check_thresholds(rule.kind, &thresholds);
            if !violations.is_empty() {
                return Err(DomainError::Invalid(violations));
            }
            let write = RuleWrite {
                session_id: patch.session_id.unwrap_or(rule.session_id),
                enabled: patch.enabled.unwrap_or(rule.enabled),
                thresholds,
                read_at: rule.updated_at,
            };
            if let Some(saved) = self
                .alerts
                .write_rule(user, id, write, self.clock.now())
                .await?
            {
                return Ok(saved);
            }
        }
        Err(DomainError::Conflict(
            "The rule is being changed by another request; try again".into(),
        ))
    }

    pub async fn delete_rule(&self, user: UserId, id: Uuid) -> DomainResult<()> {
        self.alerts.delete_rule(user, id, self.clock.now()).await
    }

    pub async fn list_alerts(
        &self,
        user: UserId,
        state: AlertState,
        session: Option<Uuid>,
        page: PageRequest,
    ) -> DomainResult<Page<Alert>> {
        self.alerts.list_alerts(user, state, session, page).await
    }

    pub async fn acknowledge(&self, user: UserId, id: Uuid) -> DomainResult<Alert> {
        self.alerts.acknowledge(user, id, self.clock.now()).await
    }

    /// The clock's pass over every account with a rule or an active alert, a batch of accounts
    /// at a time: raises and clears what the rules say now, and clears the alerts whose watch is
    /// gone. Returns how many alerts were raised or cleared.
    pub async fn sweep(&self) -> DomainResult<u64> {
        let now = self.clock.now();
        let mut after = None;
        let mut applied = 0;
        loop {
            let batch = self.alerts.sweep_batch(after, now).await?;
            let decided = changes(&batch.watches, &batch.active, Coverage::Everything, now);
            if !decided.is_empty() {
                applied += self.alerts.apply(decided, now).await?;
            }
            match batch.last_user {
                Some(last) => after = Some(last),
                None => return Ok(applied),
            }
        }
    }
}
