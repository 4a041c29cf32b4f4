//! The streamed chat turn as a state machine. [`AiService::prepare_turn`] checks and reserves:
//! a [`PreparedTurn`]. [`PreparedTurn::start`] calls the provider: a [`StartedTurn`] once its
//! first piece of text arrives, or an [`UnstartedTurn`] when it failed before answering (the
//! reservation released). [`StartedTurn::finish`] relays the answer and ends in a
//! [`TurnOutcome`]. Each step consumes the one before, so a reservation is settled or released
//! exactly once.

use std::sync::Arc;

use async_trait::async_trait;
use uuid::Uuid;

use super::chat::{NewMessage, NewThread, TurnRecord};
use super::service::{AiService, Reservation};
use super::{AiError, PromptMessage, StreamPiece, TokenUsage, estimate_usage};
use crate::ports::{AiProvider, CompletionStream};
use crate::{DomainError, UserId};

/// Where the answer of a chat turn goes while it is being written (the SSE response).
#[async_trait]
pub trait TurnSink: Send {
    /// Delivers a piece of the answer; `false` when the client has gone away.
    async fn text(&mut self, text: &str) -> bool;
}

/// How a chat turn that had started streaming ended.
#[derive(Debug)]
pub enum TurnOutcome {
    /// The whole answer was delivered and stored with its question.
    Done(TokenUsage),
    /// The client went away: the question and the part of the answer received so far were
    /// stored, and the message stays counted (with estimated tokens unless the provider had
    /// already reported them).
    ClientGone,
    /// The provider failed mid-answer (nothing stored, reservation released), or storing failed.
    Failed(DomainError),
}

/// A chat turn checked and reserved, its provider not yet called.
pub struct PreparedTurn {
    pub(super) service: AiService,
    pub(super) provider: Arc<dyn AiProvider>,
    pub(super) reservation: Reservation,
    pub(super) chat_id: Uuid,
    pub(super) new_thread: Option<NewThread>,
    pub(super) question: NewMessage,
    pub(super) answer_id: Uuid,
    pub(super) prompt: Vec<PromptMessage>,
}

/// A turn whose provider failed before answering: the reservation is released, nothing stored.
pub struct UnstartedTurn {
    pub error: DomainError,
    service: AiService,
    user: UserId,
    chat_id: Uuid,
    new_thread: Option<NewThread>,
}

impl UnstartedTurn {
    /// For a caller that already gave the client the thread's id: a new thread is created,
    /// empty, so that the id it holds is a thread (as after a failure mid-answer). Best effort:
    /// the error is returned either way.
    pub async fn keep_announced_thread(self) -> DomainError {
        if let Some(new) = self.new_thread {
            let now = self.service.clock.now();
            let _ = self
                .service
                .chats
                .create(self.user, self.chat_id, new, now)
                .await;
        }
        self.error
    }
}

impl PreparedTurn {
    pub fn chat_id(&self) -> Uuid {
        self.chat_id
    }

    pub fn answer_id(&self) -> Uuid {
        self.answer_id
    }

    /// Calls the provider and waits for the first piece of the answer.
    pub async fn start(self) -> Result<StartedTurn, UnstartedTurn> {
        let mut stream = match self.provider.stream(&self.prompt).await {
            Ok(stream) => stream,
            Err(e) => return Err(self.failed(e).await),
        };
        let mut usage = None;
        let mut first_text = None;
        let mut ended = true;
        while let Some(piece) = stream.next().await {
            match piece {
                Ok(StreamPiece::Usage(u)) => usage = Some(u),
                Ok(StreamPiece::Text(text)) => {
                    first_text = Some(text);
                    ended = false;
                    break;
                }
                Err(e) => return Err(self.failed(e).await),
            }
        }
        Ok(StartedTurn {
            service: self.service,
            reservation: self.reservation,
            chat_id: self.chat_id,
            new_thread: self.new_thread,
            question: self.question,
            answer_id: self.answer_id,
            prompt: self.prompt,
            stream: (!ended).then_some(stream),
            first_text,
            usage,
        })
    }

    async fn failed(self, e: AiError) -> UnstartedTurn {
        let error = self.service.provider_failed(self.reservation, e).await;
        UnstartedTurn {
            error,
            service: self.service,
            user: self.reservation.user,
            chat_id: self.chat_id,
            new_thread: self.new_thread,
        }
    }
}

/// A chat turn whose provider has started answering.
pub struct StartedTurn {
    service: AiService,
    reservation: Reservation,
    chat_id: Uuid,
    new_thread: Option<NewThread>,
    question: NewMessage,
    answer_id: Uuid,
    prompt: Vec<PromptMessage>,
    /// `None` when the whole answer already arrived in [`AiService::start_turn`].
    stream: Option<Box<dyn CompletionStream>>,
    first_text: Option<String>,
    usage: Option<TokenUsage>,
}

impl StartedTurn {
    /// The thread (new or not) and the id the answer will be stored under.
    pub fn chat_id(&self) -> Uuid {
        self.chat_id
    }

    pub fn answer_id(&self) -> Uuid {
        self.answer_id
    }

    /// The provider failed mid-answer: the message is given back and nothing of the turn is
    /// stored, but a new thread whose id the client was already given (`event: chat`) is created,
    /// empty, so that the id it holds is a thread (a turn without `chat_id` creates one).
    async fn failed(self, e: AiError) -> TurnOutcome {
        let error = self.service.provider_failed(self.reservation, e).await;
        if let Some(new) = self.new_thread {
            let now = self.service.clock.now();
            // Best effort: if even this fails (the database is gone too), the answer is the same.
            let _ = self
                .service
                .chats
                .create(self.reservation.user, self.chat_id, new, now)
                .await;
        }
        TurnOutcome::Failed(error)
    }

    /// The second half of `POST /v1/chat`: relays the answer to `sink`, then stores the turn and
    /// settles its tokens. Never leaves the reservation dangling: it is settled (answered, in
    /// full or until the client left) or released (the provider failed).
    pub async fn finish(mut self, sink: &mut dyn TurnSink) -> TurnOutcome {
        let mut answer = String::new();
        let mut answer_chars = 0;
        let mut client_gone = false;
        let mut interrupted = false;
        if let Some(text) = self.first_text.take() {
            answer.push_str(&text);
            answer_chars += text.chars().count();
            client_gone = !sink.text(&text).await;
        }
        if let Some(mut stream) = self.stream.take() {
            while !client_gone {
                match stream.next().await {
                    None => break,
                    Some(Ok(StreamPiece::Text(text))) => {
                        answer_chars += text.chars().count();
                        // Past the cap the provider is ignoring `max_tokens`: stop reading it.
                        if let Err(e) = super::rules::check_answer_length(answer_chars) {
                            return self.failed(e).await;
                        }
                        answer.push_str(&text);
                        client_gone = !sink.text(&text).await;
                    }
                    Some(Ok(StreamPiece::Usage(u))) => self.usage = Some(u),
                    // The server is stopping: keep what was answered, marked as cut short, and
                    // tell the client (recorded as interrupted, never lost).
                    Some(Err(AiError::Interrupted)) => {
                        answer.push_str(super::rules::INTERRUPTED_MARK);
                        interrupted = true;
                        break;
                    }
                    Some(Err(e)) => return self.failed(e).await,
                }
            }
            // Dropping the stream here closes the provider connection when the client left, so
            // the provider stops generating an answer nobody will read.
        }
        let usage = self
            .usage
            .unwrap_or_else(|| estimate_usage(&self.prompt, &answer));
        let service = self.service.clone();
        let settled = service.settle(self.reservation, usage).await;
        let now = service.clock.now();
        let record = TurnRecord {
            chat_id: self.chat_id,
            new_thread: self.new_thread,
            question: self.question,
            answer: NewMessage {
                id: self.answer_id,
                content: answer,
                created_at: now,
            },
            now,
        };
        let stored = service
            .chats
            .record_turn(self.reservation.user, record)
            .await;
        match (settled.and(stored), client_gone) {
            (Err(e), _) => TurnOutcome::Failed(e),
            (Ok(()), true) => TurnOutcome::ClientGone,
            (Ok(()), false) if interrupted => TurnOutcome::Failed(DomainError::Interrupted),
            (Ok(()), false) => TurnOutcome::Done(usage),
        }
    }
}
