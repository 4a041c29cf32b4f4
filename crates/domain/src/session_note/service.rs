//! The note use cases.

use std::sync::Arc;

use uuid::Uuid;

use super::model::{NewNote, Note, NotePatch};
use super::ports::NoteRepository;
use super::rules::check_at;
use crate::page::{Page, PageRequest};
use crate::ports::Clock;
use crate::{DomainResult, UserId};

pub struct NoteService {
    notes: Arc<dyn NoteRepository>,
    clock: Arc<dyn Clock>,
}

impl NoteService {
    pub fn new(notes: Arc<dyn NoteRepository>, clock: Arc<dyn Clock>) -> Self {
        NoteService { notes, clock }
    }

    pub async fn list(
        &self,
        user: UserId,
        session_id: Uuid,
        page: PageRequest,
    ) -> DomainResult<Page<Note>> {
        self.notes.list(user, session_id, page).await
    }

    /// A note without `at` is about now; one more than five minutes ahead is refused.
    pub async fn create(&self, user: UserId, session_id: Uuid, new: NewNote) -> DomainResult<Note> {
        let now = self.clock.now();
        check_at(new.at, now)?;
        let new = NewNote {
            at: Some(new.at.unwrap_or(now)),
            ..new
        };
        self.notes.create(user, session_id, new, now).await
    }

    pub async fn get(&self, user: UserId, id: Uuid) -> DomainResult<Note> {
        self.notes.get(user, id).await
    }

    /// An empty patch answers the note unchanged (its `updated_at` too).
    pub async fn update(&self, user: UserId, id: Uuid, patch: NotePatch) -> DomainResult<Note> {
        let now = self.clock.now();
        check_at(patch.at, now)?;
        if patch.is_empty() {
            return self.notes.get(user, id).await;
        }
        self.notes.update(user, id, patch, now).await
    }

    pub async fn delete(&self, user: UserId, id: Uuid) -> DomainResult<()> {
        self.notes.delete(user, id, self.clock.now()).await
    }
}

#[cfg(test)]
mod tests {
    use std::pin::pin;
    use std::sync::Mutex;
    use std::task::{Context, Poll, Waker};

    use async_trait::async_trait;
    use time::OffsetDateTime;
    use time::macros::datetime;

    use super::*;
    use crate::DomainError;

    const NOW: OffsetDateTime = datetime!(2026-12-08 10:00 UTC);

    struct Fixed;
    impl Clock for Fixed {
        fn now(&self) -> OffsetDateTime {
            NOW
        }
    }

    /// Remembers what it was asked to store.
    #[derive(Default)]
    struct Recorder {
        created: Mutex<Vec<NewNote>>,
        updated: Mutex<usize>,
    }

    fn note(at: OffsetDateTime, text: &str) -> Note {
        Note {
            id: Uuid::nil(),
            session_id: Uuid::nil(),
            at,
            text: text.to_owned(),
            created_at: NOW,
            updated_at: NOW,
        }
    }

    #[async_trait]
    impl NoteRepository for Recorder {
        async fn list(&self, _: UserId, _: Uuid, _: PageRequest) -> DomainResult<Page<Note>> {
            Ok(Page {
                items: vec![],
                total: 0,
            })
        }
        async fn create(
            &self,
            _: UserId,
            _: Uuid,
            new: NewNote,
            _: OffsetDateTime,
        ) -> DomainResult<Note> {
            self.created
                .lock()
                .map_err(|_| DomainError::NotFound)?
                .push(new.clone());
            Ok(note(new.at.unwrap_or(NOW), &new.text))
        }
        async fn get(&self, _: UserId, _: Uuid) -> DomainResult<Note> {
            Ok(note(NOW, "stored"))
        }
        async fn update(
            &self,
            _: UserId,
            _: Uuid,
            patch: NotePatch,
            now: OffsetDateTime,
        ) -> DomainResult<Note> {
            *self.updated.lock().map_err(|_| DomainError::NotFound)? += 1;
            Ok(patch.applied_to(note(NOW, "stored"), now))
        }
        async fn delete(&self, _: UserId, _: Uuid, _: OffsetDateTime) -> DomainResult<()> {
            Ok(())
        }
    }

    fn service(repo: &Arc<Recorder>) -> NoteService {
        NoteService::new(repo.clone(), Arc::new(Fixed))
    }

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

    const USER: UserId = UserId(Uuid::nil());

    #[test]
    fn a_note_without_a_time_is_about_now() {
        let repo = Arc::new(Recorder::default());
        let new = NewNote {
            at: None,
            text: "Dry hopped".into(),
        };
        let stored = block_on(service(&repo).create(USER, Uuid::nil(), new)).unwrap();
        assert_eq!(stored.at, NOW);
        assert_eq!(repo.created.lock().unwrap()[0].at, Some(NOW));
    }

    #[test]
    fn a_note_placed_tomorrow_is_refused_before_anything_is_stored() {
        let repo = Arc::new(Recorder::default());
        let new = NewNote {
            at: Some(datetime!(2026-12-09 10:00 UTC)),
            text: "Typo".into(),
        };
        let refused = block_on(service(&repo).create(USER, Uuid::nil(), new));
        assert!(matches!(refused, Err(DomainError::Invalid(_))));
        assert!(repo.created.lock().unwrap().is_empty());
        let moved = NotePatch {
            at: Some(datetime!(2026-12-09 10:00 UTC)),
            text: None,
        };
        assert!(block_on(service(&repo).update(USER, Uuid::nil(), moved)).is_err());
        assert_eq!(*repo.updated.lock().unwrap(), 0);
    }

    #[test]
    fn an_empty_patch_changes_nothing() {
        let repo = Arc::new(Recorder::default());
        let same =
            block_on(service(&repo).update(USER, Uuid::nil(), NotePatch::default())).unwrap();
        assert_eq!(same.text, "stored");
        assert_eq!(*repo.updated.lock().unwrap(), 0);
        let changed = block_on(service(&repo).update(
            USER,
            Uuid::nil(),
            NotePatch {
                at: None,
                text: Some("Krausen fell".into()),
            },
        ))
        .unwrap();
        assert_eq!((changed.text.as_str(), changed.at), ("Krausen fell", NOW));
        assert_eq!(*repo.updated.lock().unwrap(), 1);
    }
}
