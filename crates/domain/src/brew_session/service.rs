//! The brew-session use cases: sessions made from recipes, their checklist steps and their
//! fermentation readings.

use std::sync::Arc;

use uuid::Uuid;

use super::forecast::Forecast;
use super::model::{
    BrewSession, BrewSessionFilter, BrewSessionPatch, BrewStep, NewBrewSession, NewReading,
    NewStep, Reading, ReadingPatch, ReadingRange, StepPatch, plan_brew_session,
};
use super::ports::{BrewSessionRepository, MashPhPrediction};
use super::rules::check_logged_at;
use super::timer::TimerAction;
use crate::account::ports::AccountRepository;
use crate::page::{Page, PageRequest};
use crate::ports::Clock;
use crate::recipe::ports::{CpuWork, run_cpu};
use crate::{DomainResult, UserId};

pub struct BrewSessionService {
    sessions: Arc<dyn BrewSessionRepository>,
    /// The caller's display preferences: generated checklist text is read in their units.
    accounts: Arc<dyn AccountRepository>,
    /// The prediction kept beside a measured mash pH (the water model, which the session
    /// knows nothing else of). Without it a measured pH is stored with no prediction.
    mash_ph: Option<Arc<dyn MashPhPrediction>>,
    /// Where the forecast's fit runs (off the async workers); inline without it.
    cpu: Option<Arc<dyn CpuWork>>,
    clock: Arc<dyn Clock>,
}

impl BrewSessionService {
    pub fn new(
        sessions: Arc<dyn BrewSessionRepository>,
        accounts: Arc<dyn AccountRepository>,
        clock: Arc<dyn Clock>,
    ) -> Self {
        BrewSessionService {
            sessions,
            accounts,
            mash_ph: None,
            cpu: None,
            clock,
        }
    }

    /// The service storing the water model's prediction beside each measured mash pH.
    #[must_use]
    pub fn predicting_mash_ph(mut self, prediction: Arc<dyn MashPhPrediction>) -> Self {
        self.mash_ph = Some(prediction);
        self
    }

    /// The service running the forecast's fit on `cpu`, a bounded number at a time.
    #[must_use]
    pub fn fitting_on(mut self, cpu: Arc<dyn CpuWork>) -> Self {
        self.cpu = Some(cpu);
        self
    }

    /// Steps as this caller reads them: a generated step's numbers in their units.
    async fn rendered(&self, user: UserId, steps: Vec<BrewStep>) -> DomainResult<Vec<BrewStep>> {
        if steps.iter().all(|s| s.quantities.is_empty()) {
            return Ok(steps);
        }
        let prefs = self.accounts.preferences(user).await?;
        Ok(steps.into_iter().map(|s| s.rendered(&prefs)).collect())
    }

    async fn rendered_one(&self, user: UserId, step: BrewStep) -> DomainResult<BrewStep> {
        let mut steps = self.rendered(user, vec![step]).await?;
        Ok(steps.remove(0))
    }

    /// The session's fermentation schedule (`GET /v1/sessions/{id}/fermentation-schedule`).
    pub async fn fermentation_schedule(
        &self,
        user: UserId,
        session_id: Uuid,
    ) -> DomainResult<Vec<super::schedule::ScheduledStep>> {
        self.sessions.fermentation_schedule(user, session_id).await
    }

    /// The fermentation forecast (`GET /v1/sessions/{id}/forecast`): the model fitted to the
    /// session's bucketed gravity readings, or why there is none.
    pub async fn forecast(&self, user: UserId, session_id: Uuid) -> DomainResult<Forecast> {
        let series = self.sessions.forecast_series(user, session_id).await?;
        match &self.cpu {
            Some(cpu) => run_cpu(cpu.as_ref(), move || Forecast::of(&series)).await,
            None => Ok(Forecast::of(&series)),
        }
    }

    /// What is happening now (`GET /v1/home`): sessions brewing or fermenting and the timers
    /// that run or wait paused, the timers' step text in the caller's units.
    pub async fn home(&self, user: UserId) -> DomainResult<super::home::Home> {
        let now = self.clock.now();
        let mut parts = self.sessions.home(user, now).await?;
        let steps = parts.timers.iter().map(|(s, _)| s.clone()).collect();
        let rendered = self.rendered(user, steps).await?;
        for ((step, _), shown) in parts.timers.iter_mut().zip(rendered) {
            *step = shown;
        }
        Ok(super::home::Home::of(parts, now))
    }

    /// The periodic check of the schedules: what has come due is marked and announced.
    pub async fn announce_due_fermentation_steps(&self) -> DomainResult<usize> {
        self.sessions
            .announce_due_fermentation_steps(self.clock.now())
            .await
    }

    /// Snapshots the recipe (with its stats), enters the requested status and generates the
    /// brew-day checklist: reading the recipe and inserting the session are one transaction.
    pub async fn create(&self, user: UserId, request: NewBrewSession) -> DomainResult<BrewSession> {
        let now = self.clock.now();
        let recipe_id = request.recipe_id;
        let plan = move |recipe: &_, equipment: Option<&_>| {
            plan_brew_session(&request, recipe, equipment, now)
        };
        self.sessions.create(user, recipe_id, &plan, now).await
    }

    pub async fn list(
        &self,
        user: UserId,
        filter: &BrewSessionFilter,
        page: PageRequest,
    ) -> DomainResult<Page<BrewSession>> {
        self.sessions.list(user, filter, page).await
    }

    pub async fn get(&self, user: UserId, id: Uuid) -> DomainResult<BrewSession> {
        self.sessions.get(user, id).await
    }

    /// Changes the fields sent; a status change must follow the state machine.
    pub async fn update(
        &self,
        user: UserId,
        id: Uuid,
        mut patch: BrewSessionPatch,
    ) -> DomainResult<BrewSession> {
        // A measured mash pH is stored with the prediction it is compared against, computed
        // now from the recipe; both are written in the session's one update.
        if let Some(measured) = patch.measured_mash_ph {
            let predicted = match (measured, &self.mash_ph) {
                (Some(_), Some(model)) => model.predicted_mash_ph(user, id).await?,
                _ => None,
            };
            patch.predicted_mash_ph = Some(predicted);
        }
        self.sessions
            .update(user, id, patch, self.clock.now())
            .await
    }

    pub async fn delete(&self, user: UserId, id: Uuid) -> DomainResult<()> {
        self.sessions.delete(user, id).await
    }

    /// The checklist, each timer seen now (a running one past its end reads `done`).
    pub async fn list_steps(&self, user: UserId, session_id: Uuid) -> DomainResult<Vec<BrewStep>> {
        let steps = self
            .sessions
            .list_steps(user, session_id, self.clock.now())
            .await?;
        self.rendered(user, steps).await
    }

    pub async fn add_step(
        &self,
        user: UserId,
        session_id: Uuid,
        new: NewStep,
    ) -> DomainResult<BrewStep> {
        self.sessions
            .add_step(user, session_id, new, self.clock.now())
            .await
    }

    pub async fn get_step(&self, user: UserId, id: Uuid) -> DomainResult<BrewStep> {
        let step = self.sessions.get_step(user, id, self.clock.now()).await?;
        self.rendered_one(user, step).await
    }

    /// Starts, pauses, resumes or resets the step's timer; the timer's state machine decides
    /// (`422 invalid_transition` otherwise), against the step locked in the store.
    pub async fn step_timer(
        &self,
        user: UserId,
        id: Uuid,
        action: TimerAction,
    ) -> DomainResult<BrewStep> {
        let step = self
            .sessions
            .step_timer(user, id, action, self.clock.now())
            .await?;
        self.rendered_one(user, step).await
    }

    pub async fn update_step(
        &self,
        user: UserId,
        id: Uuid,
        patch: StepPatch,
    ) -> DomainResult<BrewStep> {
        let step = self
            .sessions
            .update_step(user, id, patch, self.clock.now())
            .await?;
        self.rendered_one(user, step).await
    }

    pub async fn delete_step(&self, user: UserId, id: Uuid) -> DomainResult<()> {
        self.sessions.delete_step(user, id, self.clock.now()).await
    }

    pub async fn add_reading(
        &self,
        user: UserId,
        session_id: Uuid,
        new: NewReading,
    ) -> DomainResult<Reading> {
        let now = self.clock.now();
        check_logged_at(new.logged_at, now)?;
        self.sessions.add_reading(user, session_id, new, now).await
    }

    pub async fn list_readings(
        &self,
        user: UserId,
        session_id: Uuid,
        range: ReadingRange,
        page: PageRequest,
    ) -> DomainResult<Page<Reading>> {
        self.sessions
            .list_readings(user, session_id, range, page)
            .await
    }

    pub async fn latest_reading(&self, user: UserId, session_id: Uuid) -> DomainResult<Reading> {
        self.sessions.latest_reading(user, session_id).await
    }

    pub async fn get_reading(&self, user: UserId, id: Uuid) -> DomainResult<Reading> {
        self.sessions.get_reading(user, id).await
    }

    pub async fn update_reading(
        &self,
        user: UserId,
        id: Uuid,
        patch: ReadingPatch,
    ) -> DomainResult<Reading> {
        let now = self.clock.now();
        check_logged_at(patch.logged_at, now)?;
        self.sessions.update_reading(user, id, patch, now).await
    }

    pub async fn delete_reading(&self, user: UserId, id: Uuid) -> DomainResult<()> {
        self.sessions
            .delete_reading(user, id, self.clock.now())
            .await
    }
}
