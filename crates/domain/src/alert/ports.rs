//! What the alert service needs stored.

use async_trait::async_trait;
use time::OffsetDateTime;
use uuid::Uuid;

use super::judge::{ActiveAlert, AlertChange};
use super::model::{Alert, AlertRule, AlertState, NewAlertRule, Thresholds, Watch};
use crate::page::{Page, PageRequest};
use crate::{DomainResult, UserId};

/// A rule's fields a `PATCH` writes: all of them, as merged and checked by the service, written
/// only if the rule is still as it was read (`updated_at`), so two concurrent patches cannot
/// combine into a rule neither checked.
#[derive(Debug, Clone, PartialEq)]
pub struct RuleWrite {
    pub session_id: Option<Uuid>,
    pub enabled: bool,
    pub thresholds: Thresholds,
    pub read_at: OffsetDateTime,
}

/// The watches and active alerts of a batch of accounts, for the clock's pass.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SweepBatch {
    pub watches: Vec<Watch>,
    pub active: Vec<ActiveAlert>,
    /// The last account of the batch: the next batch starts after it (`None`: no account left).
    pub last_user: Option<Uuid>,
}

#[async_trait]
pub trait AlertRepository: Send + Sync {
    /// The account's rules, oldest first.
    async fn list_rules(&self, user: UserId, page: PageRequest) -> DomainResult<Page<AlertRule>>;
    /// Refused (`422`) past [`MAX_RULES`](super::rules::MAX_RULES) or when `session_id` is not
    /// one of the account's sessions.
    async fn create_rule(
        &self,
        user: UserId,
        new: NewAlertRule,
        now: OffsetDateTime,
    ) -> DomainResult<AlertRule>;
    async fn get_rule(&self, user: UserId, id: Uuid) -> DomainResult<AlertRule>;
    /// Writes the merged rule; `Ok(None)` when it changed since it was read (the caller reads
    /// it again and retries).
    async fn write_rule(
        &self,
        user: UserId,
        id: Uuid,
        write: RuleWrite,
        now: OffsetDateTime,
    ) -> DomainResult<Option<AlertRule>>;
    /// In one transaction: clears the rule's active alerts (each with its `alert.cleared`
    /// event), then deletes the rule; its alerts stay, with `rule_id` null.
    async fn delete_rule(&self, user: UserId, id: Uuid, now: OffsetDateTime) -> DomainResult<()>;

    /// Newest `raised_at` first; `session` narrows to one session's.
    async fn list_alerts(
        &self,
        user: UserId,
        state: AlertState,
        session: Option<Uuid>,
        page: PageRequest,
    ) -> DomainResult<Page<Alert>>;
    /// Sets `acknowledged_at` unless it is set already (the first acknowledgement stands).
    async fn acknowledge(&self, user: UserId, id: Uuid, now: OffsetDateTime)
    -> DomainResult<Alert>;

    /// The watches and active alerts of the next accounts after `after` (ordered by id) that have
    /// an enabled rule or an active alert, the facts read at `now`.
    async fn sweep_batch(
        &self,
        after: Option<Uuid>,
        now: OffsetDateTime,
    ) -> DomainResult<SweepBatch>;
    /// Carries out the changes, each in its own short transaction with its webhook event, each at
    /// most once however many instances carry out the same change. Returns how many took effect.
    async fn apply(&self, changes: Vec<AlertChange>, now: OffsetDateTime) -> DomainResult<u64>;
}
