//! What the brew-session service needs stored.

use async_trait::async_trait;
use time::OffsetDateTime;
use uuid::Uuid;

use super::model::BrewSessionPlan;
use crate::equipment::EquipmentProfile;
use crate::page::{Page, PageRequest};
use crate::recipe::RecipeDetail;
use crate::{DomainResult, UserId};

/// Turns the recipe as read inside the creating transaction, with its equipment profile if it
/// names one, into the session to insert.
pub type SessionPlanner =
    dyn Fn(&RecipeDetail, Option<&EquipmentProfile>) -> DomainResult<BrewSessionPlan> + Send + Sync;

/// The water model's prediction of a session's mash pH from the recipe it was brewed from
/// (`None` when the recipe is gone or its water is not described). `NotFound` for a session
/// that is not the caller's.
#[async_trait]
pub trait MashPhPrediction: Send + Sync {
    async fn predicted_mash_ph(&self, user: UserId, session_id: Uuid) -> DomainResult<Option<f64>>;
}

/// Brew sessions with their checklist steps and fermentation readings. Writes to a step or a
/// reading bump the session's `updated_at` in the same transaction.
#[async_trait]
pub trait BrewSessionRepository: Send + Sync {
    /// The session's fermentation schedule in order (empty before it ferments); `NotFound`
    /// when the session is not the caller's.
    async fn fermentation_schedule(
        &self,
        user: UserId,
        session_id: Uuid,
    ) -> DomainResult<Vec<super::schedule::ScheduledStep>>;

    /// The session's latest gravity readings (at most
    /// [`crate::brewing::forecast::MAX_READINGS`]) bucketed for the forecast (at most
    /// [`crate::brewing::forecast::MAX_POINTS`] buckets), with
    /// its OG and its recipe snapshot's predicted FG; `NotFound` when the session is not the
    /// caller's.
    async fn forecast_series(
        &self,
        user: UserId,
        session_id: Uuid,
    ) -> DomainResult<super::forecast::ForecastSeries>;

    /// Marks the steps of fermenting sessions whose `due_at` has come as due, announcing each
    /// with `fermentation.step_due`; how many.
    async fn announce_due_fermentation_steps(&self, now: OffsetDateTime) -> DomainResult<usize>;

    /// What the home page is made from ([`super::home::HomeParts`]): the caller's sessions
    /// brewing or fermenting with what their schedules still wait for and their checklists,
    /// and the steps whose timers run or are paused in sessions not final, seen at `now`.
    async fn home(&self, user: UserId, now: OffsetDateTime)
    -> DomainResult<super::home::HomeParts>;

    /// In one transaction: reads the caller's recipe `recipe_id` (locked against changes until
    /// the end) and its equipment profile, plans the session from it with `plan` (snapshot, checklist), and inserts the
    /// session and its steps. `NotFound` when the recipe is not the caller's.
    async fn create(
        &self,
        user: UserId,
        recipe_id: Uuid,
        plan: &SessionPlanner,
        now: OffsetDateTime,
    ) -> DomainResult<super::model::BrewSession>;
    async fn list(
        &self,
        user: UserId,
        filter: &super::model::BrewSessionFilter,
        page: PageRequest,
    ) -> DomainResult<Page<super::model::BrewSession>>;
    async fn get(&self, user: UserId, id: Uuid) -> DomainResult<super::model::BrewSession>;
    /// Checks the status transition against the locked current state, then saves.
    async fn update(
        &self,
        user: UserId,
        id: Uuid,
        patch: super::model::BrewSessionPatch,
        now: OffsetDateTime,
    ) -> DomainResult<super::model::BrewSession>;
    /// Deletes the session with its steps and readings; the recipe is untouched.
    async fn delete(&self, user: UserId, id: Uuid) -> DomainResult<()>;

    /// The steps in order, each timer seen at `now`.
    async fn list_steps(
        &self,
        user: UserId,
        session_id: Uuid,
        now: OffsetDateTime,
    ) -> DomainResult<Vec<super::model::BrewStep>>;
    async fn add_step(
        &self,
        user: UserId,
        session_id: Uuid,
        new: super::model::NewStep,
        now: OffsetDateTime,
    ) -> DomainResult<super::model::BrewStep>;
    async fn get_step(
        &self,
        user: UserId,
        id: Uuid,
        now: OffsetDateTime,
    ) -> DomainResult<super::model::BrewStep>;
    /// In one transaction: locks the step, applies `action` to its timer as seen at `now`
    /// ([`super::timer::StepTimer::act`]), saves it and bumps the session's `updated_at`.
    async fn step_timer(
        &self,
        user: UserId,
        id: Uuid,
        action: super::timer::TimerAction,
        now: OffsetDateTime,
    ) -> DomainResult<super::model::BrewStep>;
    async fn update_step(
        &self,
        user: UserId,
        id: Uuid,
        patch: super::model::StepPatch,
        now: OffsetDateTime,
    ) -> DomainResult<super::model::BrewStep>;
    async fn delete_step(&self, user: UserId, id: Uuid, now: OffsetDateTime) -> DomainResult<()>;

    async fn add_reading(
        &self,
        user: UserId,
        session_id: Uuid,
        new: super::model::NewReading,
        now: OffsetDateTime,
    ) -> DomainResult<super::model::Reading>;
    /// Readings with `from` ≤ `logged_at` < `to`, oldest first.
    async fn list_readings(
        &self,
        user: UserId,
        session_id: Uuid,
        range: super::model::ReadingRange,
        page: PageRequest,
    ) -> DomainResult<Page<super::model::Reading>>;
    async fn latest_reading(
        &self,
        user: UserId,
        session_id: Uuid,
    ) -> DomainResult<super::model::Reading>;
    async fn get_reading(&self, user: UserId, id: Uuid) -> DomainResult<super::model::Reading>;
    async fn update_reading(
        &self,
        user: UserId,
        id: Uuid,
        patch: super::model::ReadingPatch,
        now: OffsetDateTime,
    ) -> DomainResult<super::model::Reading>;
    async fn delete_reading(&self, user: UserId, id: Uuid, now: OffsetDateTime)
    -> DomainResult<()>;
}

/// Where a thinning pass has got to: the last old reading it looked at, in (`logged_at`, id)
/// order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ThinningCursor {
    pub logged_at: OffsetDateTime,
    pub id: Uuid,
}

/// What one batch of a thinning pass did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ThinningBatch {
    /// Another instance is thinning: nothing was done.
    Busy,
    /// `removed` readings were deleted; `next` is where the following batch starts (`None`: no
    /// old reading is left to look at).
    Done {
        removed: u64,
        next: Option<ThinningCursor>,
    },
}

/// Applies the readings retention rule (`super::retention`) to every account's sessions.
#[async_trait]
pub trait ReadingThinning: Send + Sync {
    /// Looks at the next batch of readings logged before `older_than`, after `after` (from the
    /// first when `None`), and deletes those the rule removes: one short transaction, a bounded
    /// number of rows, and nothing done while another instance is at it.
    async fn thin_batch(
        &self,
        older_than: OffsetDateTime,
        after: Option<ThinningCursor>,
    ) -> DomainResult<ThinningBatch>;
}
