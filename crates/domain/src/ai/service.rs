//! The AI use cases: recipe analysis and the streamed chat turn, metered per account and UTC day.
//!
//! Every call follows the API's order (docs/ai.md) — existence (404), configuration (503), limits
//! (429) — then reserves one message with a single guarded statement before the provider is asked,
//! and afterwards either settles the tokens (the provider answered) or releases the reservation (it
//! failed). The repositories check a connection out per call, so none is held while the provider
//! answers.

use std::sync::Arc;

use time::{Date, OffsetDateTime};
use uuid::Uuid;

use super::chat::{ChatMessage, NewMessage, NewThread, title_from_message};
pub use super::turn::{PreparedTurn, StartedTurn, TurnOutcome, TurnSink, UnstartedTurn};
use super::{
    AiDay, AiError, AiLimit, Completion, DAILY_LIMITS, TokenUsage, UsageReport, estimate_usage,
    limit_reached, prompt,
};
use crate::brewing::compute_stats;
use crate::ports::{AiProvider, AiUsageRepository, ChatRepository, Clock, RecipeRepository};
use crate::{DomainError, DomainResult, UserId, new_id};

/// How often a refused reservation is retried when, read back, no limit is actually reached (a
/// concurrent failure released a message between the two statements).
const RESERVE_ATTEMPTS: usize = 3;

/// The ports the AI use cases need. Cheap to clone (every field is shared).
#[derive(Clone)]
pub struct AiService {
    pub usage: Arc<dyn AiUsageRepository>,
    pub chats: Arc<dyn ChatRepository>,
    pub recipes: Arc<dyn RecipeRepository>,
    /// `None`: AI is not configured on this deployment.
    pub provider: Option<Arc<dyn AiProvider>>,
    pub clock: Arc<dyn Clock>,
}

/// `POST /v1/recipes/{id}/analysis`.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RecipeAnalysis {
    pub recipe_id: Uuid,
    pub analysis: String,
    /// The model that answered, as the provider reported it.
    pub model: String,
    pub usage: TokenUsage,
    #[serde(serialize_with = "crate::timestamp::serialize")]
    #[cfg_attr(feature = "openapi", schema(value_type = String, format = DateTime))]
    pub created_at: OffsetDateTime,
}

/// One message of today's allowance, taken and not yet settled or released.
#[derive(Debug, Clone, Copy)]
#[must_use = "a reservation must be settled or released"]
pub struct Reservation {
    pub(super) user: UserId,
    /// The day it was taken on; settled on that day even when the call crosses midnight.
    day: Date,
}

/// A validated `POST /v1/chat` body.
#[derive(Debug, Clone, PartialEq)]
pub struct TurnRequest {
    pub message: String,
    pub chat_id: Option<Uuid>,
    pub recipe_id: Option<Uuid>,
}

impl AiService {
    // ---- Chat threads ------------------------------------------------------------------------

    /// Most recently updated first.
    pub async fn list_threads(
        &self,
        user: UserId,
        page: crate::page::PageRequest,
    ) -> DomainResult<crate::page::Page<super::chat::ChatThread>> {
        self.chats.list(user, page).await
    }

    /// `NotFound` when `recipe_id` is not one of the caller's recipes.
    pub async fn create_thread(
        &self,
        user: UserId,
        new: NewThread,
    ) -> DomainResult<super::chat::ChatThread> {
        self.chats
            .create(user, new_id(), new, self.clock.now())
            .await
    }

    /// The thread with its messages, oldest first.
    pub async fn get_thread(
        &self,
        user: UserId,
        id: Uuid,
    ) -> DomainResult<super::chat::ChatThreadDetail> {
        self.chats.get(user, id).await
    }

    pub async fn update_thread(
        &self,
        user: UserId,
        id: Uuid,
        patch: super::chat::ThreadPatch,
    ) -> DomainResult<super::chat::ChatThread> {
        self.chats.update(user, id, patch, self.clock.now()).await
    }

    pub async fn delete_thread(&self, user: UserId, id: Uuid) -> DomainResult<()> {
        self.chats.delete(user, id).await
    }

    // ---- Metering, analysis and chat turns ---------------------------------------------------

    /// `GET /v1/ai/usage`: today's use, whether or not a provider is configured.
    pub async fn usage_report(&self, user: UserId) -> DomainResult<UsageReport> {
        let day = AiDay::of(self.clock.now());
        let used = self.usage.usage(user, day.date).await?;
        Ok(UsageReport::new(day, used, self.provider.is_some()))
    }

    fn provider(&self) -> DomainResult<Arc<dyn AiProvider>> {
        self.provider.clone().ok_or(DomainError::AiNotConfigured)
    }

    /// Takes one message of today's allowance, or says which limit refuses it and for how long.
    pub async fn reserve(&self, user: UserId) -> DomainResult<Reservation> {
        let mut now = self.clock.now();
        for _ in 0..RESERVE_ATTEMPTS {
            now = self.clock.now();
            let day = AiDay::of(now);
            if self.usage.reserve(user, day.date, DAILY_LIMITS).await? {
                return Ok(Reservation {
                    user,
                    day: day.date,
                });
            }
            let used = self.usage.usage(user, day.date).await?;
            if let Some(limit) = limit_reached(used) {
                return Err(DomainError::AiLimitReached {
                    limit,
                    retry_after_secs: day.seconds_left(now),
                });
            }
        }
        // Refused every time yet never at a limit when read back: the account is at the message
        // limit with failures releasing around it, so that is the honest answer.
        Err(DomainError::AiLimitReached {
            limit: AiLimit::Messages,
            retry_after_secs: AiDay::of(now).seconds_left(now),
        })
    }

    pub(super) async fn settle(
        &self,
        reservation: Reservation,
        usage: TokenUsage,
    ) -> DomainResult<()> {
        self.usage
            .settle(reservation.user, reservation.day, usage.total_tokens.max(0))
            .await
    }

    /// The provider failed: give the message back and describe the failure for the log.
    pub(super) async fn provider_failed(
        &self,
        reservation: Reservation,
        error: AiError,
    ) -> DomainError {
        match self.usage.release(reservation.user, reservation.day).await {
            Ok(()) if error == AiError::Interrupted => DomainError::Interrupted,
            Ok(()) => DomainError::AiProvider(error.to_string()),
            Err(release) => DomainError::AiProvider(format!(
                "{error}; releasing the reservation failed too: {release}"
            )),
        }
    }

    /// `POST /v1/recipes/{id}/analysis`: the recipe, its ingredients and its statistics go to the
    /// provider, which is asked for an assessment.
    pub async fn analyse(&self, user: UserId, recipe_id: Uuid) -> DomainResult<RecipeAnalysis> {
        let detail = self.recipes.get(user, recipe_id).await?;
        let provider = self.provider()?;
        let stats = compute_stats(&detail.stats_input());
        let messages = prompt::analysis(&detail, &stats);
        let reservation = self.reserve(user).await?;
        let answered = provider.complete(&messages).await.and_then(|completion| {
            super::rules::check_answer_length(completion.text.chars().count())?;
            Ok(completion)
        });
        let Completion { text, model, usage } = match answered {
            Ok(completion) => completion,
            Err(e) => return Err(self.provider_failed(reservation, e).await),
        };
        let usage = usage.unwrap_or_else(|| estimate_usage(&messages, &text));
        self.settle(reservation, usage).await?;
        Ok(RecipeAnalysis {
            recipe_id,
            analysis: text,
            model: model.unwrap_or_else(|| provider.model().to_owned()),
            usage,
            created_at: self.clock.now(),
        })
    }

    /// The first half of `POST /v1/chat`: every check, the reservation, and the provider's answer
    /// up to its first piece of text. A provider that fails before answering is an error here
    /// (so the client gets a plain `502`), with the reservation released and nothing stored.
    pub async fn start_turn(
        &self,
        user: UserId,
        request: TurnRequest,
    ) -> DomainResult<StartedTurn> {
        self.prepare_turn(user, request)
            .await?
            .start()
            .await
            .map_err(|unstarted| unstarted.error)
    }

    /// [`start_turn`](Self::start_turn) in two steps, for a caller that must answer its client
    /// before the provider does (the HTTP adapter announces the turn when the first piece is
    /// slow to come, to keep the connection alive): every check and the reservation, with the
    /// thread's and the answer's ids decided; then [`PreparedTurn::start`] calls the provider.
    pub async fn prepare_turn(
        &self,
        user: UserId,
        request: TurnRequest,
    ) -> DomainResult<PreparedTurn> {
        let asked_at = self.clock.now();
        let thread = match request.chat_id {
            Some(id) => Some(self.chats.get(user, id).await?),
            None => None,
        };
        // The turn's own recipe wins; otherwise the thread's. A thread's recipe deleted meanwhile
        // is simply left out.
        let recipe = match (
            request.recipe_id,
            thread.as_ref().and_then(|t| t.thread.recipe_id),
        ) {
            (Some(id), _) => Some(self.recipes.get(user, id).await?),
            (None, Some(id)) => match self.recipes.get(user, id).await {
                Ok(detail) => Some(detail),
                Err(DomainError::NotFound) => None,
                Err(e) => return Err(e),
            },
            (None, None) => None,
        };
        let provider = self.provider()?;
        let history: Vec<ChatMessage> = thread
            .as_ref()
            .map(|t| t.messages.clone())
            .unwrap_or_default();
        let stats = recipe.as_ref().map(|d| compute_stats(&d.stats_input()));
        let messages = prompt::chat(
            recipe.as_ref().zip(stats.as_ref()),
            &history,
            &request.message,
        );

        let reservation = self.reserve(user).await?;
        let (chat_id, new_thread) = match &thread {
            Some(t) => (t.thread.id, None),
            None => (
                new_id(),
                Some(NewThread {
                    title: title_from_message(&request.message),
                    recipe_id: request.recipe_id,
                }),
            ),
        };
        // The question's id is made first, so ids follow the conversation.
        let question = NewMessage {
            id: new_id(),
            content: request.message,
            created_at: asked_at,
        };
        Ok(PreparedTurn {
            service: self.clone(),
            provider,
            reservation,
            chat_id,
            new_thread,
            question,
            answer_id: new_id(),
            prompt: messages,
        })
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]
    //! The use cases against in-memory ports: the order of checks, the metering, what is stored.

    use std::collections::{HashMap, VecDeque};
    use std::future::Future;
    use std::pin::pin;
    use std::sync::Mutex;
    use std::task::{Context, Poll, Waker};

    use async_trait::async_trait;
    use time::macros::datetime;

    use super::*;
    use crate::ai::chat::{ChatThread, ChatThreadDetail, MessageRole, ThreadPatch, TurnRecord};
    use crate::ai::{AiLimit, DAILY_MESSAGE_LIMIT, PromptMessage, StreamPiece, Usage};
    use crate::page::{Page, PageRequest};
    use crate::ports::CompletionStream;
    use crate::recipe::{NewRecipe, Recipe, RecipeDetail, RecipeFilter, RecipePatch, RecipeType};

    /// Runs a future whose ports never wait (all in memory), without an async runtime.
    fn block_on<F: Future>(f: F) -> F::Output {
        let mut f = pin!(f);
        let mut cx = Context::from_waker(Waker::noop());
        loop {
            if let Poll::Ready(out) = f.as_mut().poll(&mut cx) {
                return out;
            }
        }
    }

    struct FixedClock(Mutex<OffsetDateTime>);
    impl Clock for FixedClock {
        fn now(&self) -> OffsetDateTime {
            *self.0.lock().unwrap()
        }
    }

    #[derive(Default)]
    struct MemUsage(Mutex<HashMap<(UserId, Date), Usage>>);
    #[async_trait]
    impl AiUsageRepository for MemUsage {
        async fn usage(&self, user: UserId, day: Date) -> DomainResult<Usage> {
            Ok(self
                .0
                .lock()
                .unwrap()
                .get(&(user, day))
                .copied()
                .unwrap_or_default())
        }
        async fn reserve(&self, user: UserId, day: Date, limits: Usage) -> DomainResult<bool> {
            let mut map = self.0.lock().unwrap();
            let u = map.entry((user, day)).or_default();
            if u.messages < limits.messages && u.tokens < limits.tokens {
                u.messages += 1;
                Ok(true)
            } else {
                Ok(false)
            }
        }
        async fn settle(&self, user: UserId, day: Date, tokens: i64) -> DomainResult<()> {
            self.0
                .lock()
                .unwrap()
                .entry((user, day))
                .or_default()
                .tokens += tokens;
            Ok(())
        }
        async fn release(&self, user: UserId, day: Date) -> DomainResult<()> {
            let mut map = self.0.lock().unwrap();
            let u = map.entry((user, day)).or_default();
            u.messages = (u.messages - 1).max(0);
            Ok(())
        }
    }

    #[derive(Default)]
    struct MemChats(Mutex<Vec<(UserId, ChatThreadDetail)>>);
    #[async_trait]
    impl ChatRepository for MemChats {
        async fn list(&self, _: UserId, _: PageRequest) -> DomainResult<Page<ChatThread>> {
            unreachable!("not used by the use cases")
        }
        async fn create(
            &self,
            user: UserId,
            id: Uuid,
            new: NewThread,
            now: OffsetDateTime,
        ) -> DomainResult<ChatThread> {
            let thread = ChatThread {
                id,
                title: new.title,
                recipe_id: new.recipe_id,
                created_at: now,
                updated_at: now,
            };
            self.0.lock().unwrap().push((
                user,
                ChatThreadDetail {
                    thread: thread.clone(),
                    messages: vec![],
                },
            ));
            Ok(thread)
        }
        async fn get(&self, user: UserId, id: Uuid) -> DomainResult<ChatThreadDetail> {
            self.0
                .lock()
                .unwrap()
                .iter()
                .find(|(u, t)| *u == user && t.thread.id == id)
                .map(|(_, t)| t.clone())
                .ok_or(DomainError::NotFound)
        }
        async fn update(
            &self,
            _: UserId,
            _: Uuid,
            _: ThreadPatch,
            _: OffsetDateTime,
        ) -> DomainResult<ChatThread> {
            unreachable!("not used by the use cases")
        }
        async fn delete(&self, _: UserId, _: Uuid) -> DomainResult<()> {
            unreachable!("not used by the use cases")
        }
        async fn record_turn(&self, user: UserId, turn: TurnRecord) -> DomainResult<()> {
            let mut threads = self.0.lock().unwrap();
            if let Some(new) = turn.new_thread {
                threads.push((
                    user,
                    ChatThreadDetail {
                        thread: ChatThread {
                            id: turn.chat_id,
                            title: new.title,
                            recipe_id: new.recipe_id,
                            created_at: turn.question.created_at,
                            updated_at: turn.now,
                        },
                        messages: vec![],
                    },
                ));
            }
            let (_, thread) = threads
                .iter_mut()
                .find(|(u, t)| *u == user && t.thread.id == turn.chat_id)
                .ok_or(DomainError::NotFound)?;
            for (m, role) in [
                (turn.question, MessageRole::User),
                (turn.answer, MessageRole::Assistant),
            ] {
                thread.messages.push(ChatMessage {
                    id: m.id,
                    role,
                    content: m.content,
                    created_at: m.created_at,
                });
            }
            Ok(())
        }
    }

    struct MemRecipes(RecipeDetail, UserId);
    #[async_trait]
    impl RecipeRepository for MemRecipes {
        async fn list(
            &self,
            _: UserId,
            _: &RecipeFilter,
            _: PageRequest,
        ) -> DomainResult<Page<Recipe>> {
            unreachable!("not used by the use cases")
        }
        async fn create(&self, _: UserId, _: NewRecipe, _: OffsetDateTime) -> DomainResult<Recipe> {
            unreachable!("not used by the use cases")
        }
        async fn create_with_children(
            &self,
            _: UserId,
            _: Vec<crate::recipe::NewRecipeWithIngredients>,
            _: OffsetDateTime,
        ) -> DomainResult<Vec<RecipeDetail>> {
            unreachable!("not used by the use cases")
        }
        async fn create_imported(
            &self,
            _: UserId,
            _: crate::recipe::NewImport,
            _: OffsetDateTime,
        ) -> DomainResult<Vec<RecipeDetail>> {
            unreachable!("not used by the use cases")
        }
        async fn list_details(
            &self,
            _: UserId,
            _: PageRequest,
        ) -> DomainResult<Page<RecipeDetail>> {
            unreachable!("not used by the use cases")
        }
        async fn get(&self, user: UserId, id: Uuid) -> DomainResult<RecipeDetail> {
            if user == self.1 && id == self.0.recipe.id {
                Ok(self.0.clone())
            } else {
                Err(DomainError::NotFound)
            }
        }
        async fn update(
            &self,
            _: UserId,
            _: Uuid,
            _: RecipePatch,
            _: OffsetDateTime,
        ) -> DomainResult<Recipe> {
            unreachable!("not used by the use cases")
        }
        async fn delete(&self, _: UserId, _: Uuid) -> DomainResult<()> {
            unreachable!("not used by the use cases")
        }
        async fn copy(
            &self,
            _: UserId,
            _: Uuid,
            _: Option<String>,
            _: OffsetDateTime,
        ) -> DomainResult<RecipeDetail> {
            unreachable!("not used by the use cases")
        }
    }

    /// A provider that answers from a script and records what it was sent.
    struct Scripted {
        pieces: Vec<Result<StreamPiece, AiError>>,
        fail_at_start: bool,
        sent: Mutex<Vec<Vec<PromptMessage>>>,
    }
    struct ScriptStream(VecDeque<Result<StreamPiece, AiError>>);
    #[async_trait]
    impl CompletionStream for ScriptStream {
        async fn next(&mut self) -> Option<Result<StreamPiece, AiError>> {
            self.0.pop_front()
        }
    }
    #[async_trait]
    impl AiProvider for Scripted {
        fn model(&self) -> &str {
            "test-model"
        }
        async fn complete(&self, messages: &[PromptMessage]) -> Result<Completion, AiError> {
            self.sent.lock().unwrap().push(messages.to_vec());
            if self.fail_at_start {
                return Err(AiError::Timeout);
            }
            let mut text = String::new();
            let mut usage = None;
            for p in &self.pieces {
                match p {
                    Ok(StreamPiece::Text(t)) => text.push_str(t),
                    Ok(StreamPiece::Usage(u)) => usage = Some(*u),
                    Err(e) => return Err(e.clone()),
                }
            }
            Ok(Completion {
                text,
                model: None,
                usage,
            })
        }
        async fn stream(
            &self,
            messages: &[PromptMessage],
        ) -> Result<Box<dyn CompletionStream>, AiError> {
            self.sent.lock().unwrap().push(messages.to_vec());
            if self.fail_at_start {
                return Err(AiError::Status {
                    status: 500,
                    detail: "boom".into(),
                });
            }
            Ok(Box::new(ScriptStream(self.pieces.clone().into())))
        }
    }

    struct Collect {
        texts: Vec<String>,
        /// Leave after this many pieces.
        leave_after: Option<usize>,
    }
    #[async_trait]
    impl TurnSink for Collect {
        async fn text(&mut self, text: &str) -> bool {
            self.texts.push(text.to_owned());
            self.leave_after.is_none_or(|n| self.texts.len() < n)
        }
    }

    const USER: UserId = UserId(Uuid::from_u128(7));
    const OTHER: UserId = UserId(Uuid::from_u128(8));
    const RECIPE: Uuid = Uuid::from_u128(9);
    const NOW: OffsetDateTime = datetime!(2026-11-22 23:59:00 UTC);

    fn usage(prompt: i64, completion: i64) -> TokenUsage {
        TokenUsage {
            prompt_tokens: prompt,
            completion_tokens: completion,
            total_tokens: prompt + completion,
        }
    }

    fn text(t: &str) -> Result<StreamPiece, AiError> {
        Ok(StreamPiece::Text(t.into()))
    }

    struct World {
        service: AiService,
        usage: Arc<MemUsage>,
        chats: Arc<MemChats>,
        provider: Arc<Scripted>,
        clock: Arc<FixedClock>,
    }

    fn world(
        pieces: Vec<Result<StreamPiece, AiError>>,
        fail_at_start: bool,
        configured: bool,
    ) -> World {
        let recipe = RecipeDetail {
            recipe: Recipe {
                equipment_id: None,
                style_id: None,
                water_profile_id: None,
                target_water_profile_id: None,
                parent_recipe_id: None,
                parent_version: None,
                source_url: None,
                id: RECIPE,
                user_id: USER.0.to_string(),
                name: "Dry Stout".into(),
                style: "Irish Stout".into(),
                kind: RecipeType::AllGrain,
                batch_size_liters: 20.0,
                boil_time_minutes: 60.0,
                efficiency: 0.72,
                notes: None,
                est_color_srm: 0.0,
                created_at: NOW,
                updated_at: NOW,
            },
            fermentables: vec![],
            hops: vec![],
            yeasts: vec![],
            miscs: vec![],
            mash_steps: vec![],
            water_additions: vec![],
            fermentation_steps: vec![],
        };
        let usage = Arc::new(MemUsage::default());
        let chats = Arc::new(MemChats::default());
        let provider = Arc::new(Scripted {
            pieces,
            fail_at_start,
            sent: Mutex::new(vec![]),
        });
        let clock = Arc::new(FixedClock(Mutex::new(NOW)));
        let service = AiService {
            usage: usage.clone(),
            chats: chats.clone(),
            recipes: Arc::new(MemRecipes(recipe, USER)),
            provider: configured.then(|| provider.clone() as Arc<dyn AiProvider>),
            clock: clock.clone(),
        };
        World {
            service,
            usage,
            chats,
            provider,
            clock,
        }
    }

    fn used(w: &World) -> Usage {
        block_on(w.usage.usage(USER, NOW.date())).unwrap()
    }

    fn fill(w: &World, messages: i64, tokens: i64) {
        w.usage
            .0
            .lock()
            .unwrap()
            .insert((USER, NOW.date()), Usage { messages, tokens });
    }

    fn turn(message: &str, chat_id: Option<Uuid>, recipe_id: Option<Uuid>) -> TurnRequest {
        TurnRequest {
            message: message.into(),
            chat_id,
            recipe_id,
        }
    }

    #[test]
    fn analysis_counts_one_message_and_the_reported_tokens() {
        let w = world(
            vec![text("Balanced."), Ok(StreamPiece::Usage(usage(100, 20)))],
            false,
            true,
        );
        let a = block_on(w.service.analyse(USER, RECIPE)).unwrap();
        assert_eq!(a.analysis, "Balanced.");
        assert_eq!(a.model, "test-model");
        assert_eq!(a.usage.total_tokens, 120);
        assert_eq!(
            used(&w),
            Usage {
                messages: 1,
                tokens: 120
            }
        );
        let sent = w.provider.sent.lock().unwrap();
        assert!(sent[0][1].content.contains("Recipe: Dry Stout"));
    }

    #[test]
    fn without_reported_usage_the_tokens_are_estimated() {
        let w = world(vec![text("abcdefgh")], false, true);
        let a = block_on(w.service.analyse(USER, RECIPE)).unwrap();
        assert_eq!(a.usage.completion_tokens, 2);
        assert!(a.usage.prompt_tokens > 0);
        assert_eq!(used(&w).tokens, a.usage.total_tokens);
    }

    #[test]
    fn checks_come_in_the_contracts_order() {
        // Unknown recipe before "not configured".
        let w = world(vec![], false, false);
        assert!(matches!(
            block_on(w.service.analyse(USER, Uuid::nil())),
            Err(DomainError::NotFound)
        ));
        assert!(matches!(
            block_on(w.service.analyse(OTHER, RECIPE)),
            Err(DomainError::NotFound)
        ));
        // "Not configured" before the limits.
        fill(&w, DAILY_MESSAGE_LIMIT, 0);
        assert!(matches!(
            block_on(w.service.analyse(USER, RECIPE)),
            Err(DomainError::AiNotConfigured)
        ));
        assert!(matches!(
            block_on(w.service.start_turn(USER, turn("hi", None, None))),
            Err(DomainError::AiNotConfigured)
        ));
        // Configured: the limit, with the seconds to midnight.
        let w = world(vec![text("x")], false, true);
        fill(&w, DAILY_MESSAGE_LIMIT, 0);
        match block_on(w.service.analyse(USER, RECIPE)) {
            Err(DomainError::AiLimitReached {
                limit: AiLimit::Messages,
                retry_after_secs: 60,
            }) => {}
            other => panic!("{other:?}"),
        }
        fill(&w, 10, 2_000_000);
        match block_on(w.service.start_turn(USER, turn("hi", None, None))) {
            Err(DomainError::AiLimitReached {
                limit: AiLimit::Tokens,
                retry_after_secs: 60,
            }) => {}
            Err(other) => panic!("{other:?}"),
            Ok(_) => panic!("admitted past the token limit"),
        }
        assert!(
            w.provider.sent.lock().unwrap().is_empty(),
            "the provider was never asked"
        );
    }

    #[test]
    fn a_new_day_starts_a_new_allowance() {
        let w = world(vec![text("x")], false, true);
        fill(&w, DAILY_MESSAGE_LIMIT, 0);
        assert!(block_on(w.service.analyse(USER, RECIPE)).is_err());
        *w.clock.0.lock().unwrap() = datetime!(2026-11-23 00:00:00 UTC);
        assert!(block_on(w.service.analyse(USER, RECIPE)).is_ok());
        let report = block_on(w.service.usage_report(USER)).unwrap();
        assert_eq!(report.date, "2026-11-23");
        assert_eq!(report.messages.used, 1);
        assert!(report.configured);
    }

    #[test]
    fn a_failing_provider_releases_the_reservation() {
        let w = world(vec![], true, true);
        match block_on(w.service.analyse(USER, RECIPE)) {
            Err(DomainError::AiProvider(detail)) => assert!(detail.contains("in time"), "{detail}"),
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            block_on(w.service.start_turn(USER, turn("hi", None, None))),
            Err(DomainError::AiProvider(_))
        ));
        // A stream that fails before its first text is a failure before answering, too.
        let w2 = world(vec![Err(AiError::Timeout)], false, true);
        assert!(matches!(
            block_on(w2.service.start_turn(USER, turn("hi", None, None))),
            Err(DomainError::AiProvider(_))
        ));
        assert_eq!(used(&w), Usage::default());
        assert_eq!(used(&w2), Usage::default());
        assert!(w.chats.0.lock().unwrap().is_empty());
        assert!(w2.chats.0.lock().unwrap().is_empty());
    }

    #[test]
    fn a_turn_relays_stores_both_messages_and_settles() {
        let w = world(
            vec![
                text("Pitch "),
                text("at 18 °C."),
                Ok(StreamPiece::Usage(usage(50, 7))),
            ],
            false,
            true,
        );
        let started = block_on(
            w.service
                .start_turn(USER, turn("How warm?", None, Some(RECIPE))),
        )
        .unwrap();
        let (chat_id, answer_id) = (started.chat_id(), started.answer_id());
        let mut sink = Collect {
            texts: vec![],
            leave_after: None,
        };
        match block_on(started.finish(&mut sink)) {
            TurnOutcome::Done(u) => assert_eq!(u.total_tokens, 57),
            other => panic!("{other:?}"),
        }
        assert_eq!(sink.texts, ["Pitch ", "at 18 °C."]);
        assert_eq!(
            used(&w),
            Usage {
                messages: 1,
                tokens: 57
            }
        );
        let thread = block_on(w.chats.get(USER, chat_id)).unwrap();
        assert_eq!(thread.thread.recipe_id, Some(RECIPE));
        assert_eq!(thread.thread.title.as_deref(), Some("How warm?"));
        let stored: Vec<_> = thread
            .messages
            .iter()
            .map(|m| (m.role, m.content.as_str()))
            .collect();
        assert_eq!(
            stored,
            [
                (MessageRole::User, "How warm?"),
                (MessageRole::Assistant, "Pitch at 18 °C.")
            ]
        );
        assert_eq!(thread.messages[1].id, answer_id);

        // The next turn on the thread sends the earlier messages, and the thread's recipe.
        let started = block_on(
            w.service
                .start_turn(USER, turn("And after?", Some(chat_id), None)),
        )
        .unwrap();
        assert!(matches!(
            block_on(started.finish(&mut Collect {
                texts: vec![],
                leave_after: None
            })),
            TurnOutcome::Done(_)
        ));
        let sent = w.provider.sent.lock().unwrap();
        let last: Vec<_> = sent[1].iter().map(|m| m.content.as_str()).collect();
        assert!(last[1].contains("Recipe: Dry Stout"));
        assert_eq!(&last[2..], ["How warm?", "Pitch at 18 °C.", "And after?"]);
    }

    #[test]
    fn a_client_leaving_keeps_the_partial_answer_and_the_message() {
        let w = world(
            vec![
                text("one "),
                text("two "),
                text("three"),
                Ok(StreamPiece::Usage(usage(1, 1))),
            ],
            false,
            true,
        );
        let started = block_on(w.service.start_turn(USER, turn("Count", None, None))).unwrap();
        let chat_id = started.chat_id();
        let mut sink = Collect {
            texts: vec![],
            leave_after: Some(2),
        };
        assert!(matches!(
            block_on(started.finish(&mut sink)),
            TurnOutcome::ClientGone
        ));
        let thread = block_on(w.chats.get(USER, chat_id)).unwrap();
        assert_eq!(thread.messages[1].content, "one two ");
        let u = used(&w);
        assert_eq!(u.messages, 1);
        // The provider's own count never arrived: estimated from prompt and partial answer.
        assert!(u.tokens > 2, "{u:?}");
    }

    #[test]
    fn a_provider_failing_mid_answer_stores_no_message_and_releases() {
        let w = world(
            vec![text("one "), Err(AiError::Protocol("cut".into()))],
            false,
            true,
        );
        let started = block_on(w.service.start_turn(USER, turn("Count", None, None))).unwrap();
        let announced = started.chat_id();
        let mut sink = Collect {
            texts: vec![],
            leave_after: None,
        };
        assert!(matches!(
            block_on(started.finish(&mut sink)),
            TurnOutcome::Failed(DomainError::AiProvider(_))
        ));
        assert_eq!(sink.texts, ["one "]);
        // The new thread the client was told about exists, with no message in it.
        let threads = w.chats.0.lock().unwrap();
        assert_eq!(threads.len(), 1);
        assert_eq!(threads[0].1.thread.id, announced);
        assert!(threads[0].1.messages.is_empty());
        drop(threads);
        assert_eq!(used(&w), Usage::default());
    }

    #[test]
    fn another_accounts_thread_or_recipe_is_not_found() {
        let w = world(vec![text("x")], false, true);
        let started = block_on(w.service.start_turn(USER, turn("Hi", None, None))).unwrap();
        let chat_id = started.chat_id();
        let _ = block_on(started.finish(&mut Collect {
            texts: vec![],
            leave_after: None,
        }));
        assert!(matches!(
            block_on(w.service.start_turn(OTHER, turn("Hi", Some(chat_id), None))),
            Err(DomainError::NotFound)
        ));
        assert!(matches!(
            block_on(w.service.start_turn(OTHER, turn("Hi", None, Some(RECIPE)))),
            Err(DomainError::NotFound)
        ));
        assert_eq!(
            block_on(w.usage.usage(OTHER, NOW.date())).unwrap(),
            Usage::default()
        );
    }
}
