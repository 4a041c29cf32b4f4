//! The repository of notes on a session's fermentation chart. Every write touches the session
//! (`updated_at`) in the same transaction, and every statement names the account.

use async_trait::async_trait;
use diesel::prelude::*;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use time::OffsetDateTime;
use uuid::Uuid;
use wort_domain::page::{Page, PageRequest};
use wort_domain::session_note::{NewNote, Note, NotePatch, NoteRepository};
use wort_domain::{DomainError, DomainResult, UserId, new_id};

use crate::error::{TxError, db_error};
use crate::pool::{DbPool, checkout};
use crate::schema::{brew_sessions as sessions, session_notes as notes};

pub struct PgNotes {
    pool: DbPool,
}

impl PgNotes {
    pub fn new(pool: DbPool) -> Self {
        PgNotes { pool }
    }
}

#[derive(Queryable, Selectable, Insertable, Debug)]
#[diesel(table_name = notes)]
struct NoteRow {
    id: Uuid,
    user_id: Uuid,
    session_id: Uuid,
    at: OffsetDateTime,
    text: String,
    created_at: OffsetDateTime,
    updated_at: OffsetDateTime,
}

impl NoteRow {
    fn entity(self) -> Note {
        Note {
            id: self.id,
            session_id: self.session_id,
            at: self.at,
            text: self.text,
            created_at: self.created_at,
            updated_at: self.updated_at,
        }
    }
}

/// Bumps the caller's session `updated_at`; `NotFound` when it is not the caller's.
async fn touch_session(
    conn: &mut AsyncPgConnection,
    user: UserId,
    session_id: Uuid,
    now: OffsetDateTime,
) -> Result<(), TxError> {
    let touched = diesel::update(
        sessions::table
            .filter(sessions::id.eq(session_id))
            .filter(sessions::user_id.eq(user.0)),
    )
    .set(sessions::updated_at.eq(now))
    .execute(conn)
    .await?;
    if touched == 0 {
        Err(TxError(DomainError::NotFound))
    } else {
        Ok(())
    }
}

fn unwrap_tx<T>(r: Result<T, TxError>) -> DomainResult<T> {
    r.map_err(|TxError(e)| e)
}

#[async_trait]
impl NoteRepository for PgNotes {
    async fn list(
        &self,
        user: UserId,
        session_id: Uuid,
        page: PageRequest,
    ) -> DomainResult<Page<Note>> {
        let conn = checkout(&self.pool).await?;
        let conn_ref: &AsyncPgConnection = &conn;
        let mine = || {
            notes::table
                .filter(notes::session_id.eq(session_id))
                .filter(notes::user_id.eq(user.0))
        };
        let exists = sessions::table
            .filter(sessions::id.eq(session_id))
            .filter(sessions::user_id.eq(user.0))
            .count();
        let page_query = mine()
            .order((notes::at.asc(), notes::created_at.asc(), notes::id.asc()))
            .select(NoteRow::as_select())
            .limit(page.limit)
            .offset(page.offset);
        // Existence, page and count: three statements, one round trip.
        let (exists, rows, total) = futures_util::try_join!(
            exists.get_result::<i64>(&mut &*conn_ref),
            page_query.load::<NoteRow>(&mut &*conn_ref),
            mine().count().get_result::<i64>(&mut &*conn_ref),
        )
        .map_err(db_error)?;
        if exists == 0 {
            return Err(DomainError::NotFound);
        }
        Ok(Page {
            items: rows.into_iter().map(NoteRow::entity).collect(),
            total,
        })
    }

    async fn create(
        &self,
        user: UserId,
        session_id: Uuid,
        new: NewNote,
        now: OffsetDateTime,
    ) -> DomainResult<Note> {
        let mut conn = checkout(&self.pool).await?;
        let row = NoteRow {
            id: new_id(),
            user_id: user.0,
            session_id,
            at: new.at.unwrap_or(now),
            text: new.text,
            created_at: now,
            updated_at: now,
        };
        unwrap_tx(
            conn.transaction(async |conn| {
                touch_session(conn, user, session_id, now).await?;
                let stored = diesel::insert_into(notes::table)
                    .values(&row)
                    .returning(NoteRow::as_returning())
                    .get_result(conn)
                    .await?;
                Ok(NoteRow::entity(stored))
            })
            .await,
        )
    }

    async fn get(&self, user: UserId, id: Uuid) -> DomainResult<Note> {
        let mut conn = checkout(&self.pool).await?;
        notes::table
            .filter(notes::id.eq(id))
            .filter(notes::user_id.eq(user.0))
            .select(NoteRow::as_select())
            .first(&mut conn)
            .await
            .map(NoteRow::entity)
            .map_err(db_error)
    }

    async fn update(
        &self,
        user: UserId,
        id: Uuid,
        patch: NotePatch,
        now: OffsetDateTime,
    ) -> DomainResult<Note> {
        let mut conn = checkout(&self.pool).await?;
        unwrap_tx(
            conn.transaction(async |conn| {
                let mine = notes::table
                    .filter(notes::id.eq(id))
                    .filter(notes::user_id.eq(user.0));
                let stored = mine
                    .select(NoteRow::as_select())
                    .for_update()
                    .first(conn)
                    .await?
                    .entity();
                let changed = patch.applied_to(stored, now);
                let saved = diesel::update(mine)
                    .set((
                        notes::at.eq(changed.at),
                        notes::text.eq(&changed.text),
                        notes::updated_at.eq(changed.updated_at),
                    ))
                    .returning(NoteRow::as_returning())
                    .get_result(conn)
                    .await?;
                touch_session(conn, user, saved.session_id, now).await?;
                Ok(saved.entity())
            })
            .await,
        )
    }

    async fn delete(&self, user: UserId, id: Uuid, now: OffsetDateTime) -> DomainResult<()> {
        let mut conn = checkout(&self.pool).await?;
        unwrap_tx(
            conn.transaction(async |conn| {
                let session_id: Option<Uuid> = diesel::delete(
                    notes::table
                        .filter(notes::id.eq(id))
                        .filter(notes::user_id.eq(user.0)),
                )
                .returning(notes::session_id)
                .get_result(conn)
                .await
                .optional()?;
                let session_id = session_id.ok_or(TxError(DomainError::NotFound))?;
                touch_session(conn, user, session_id, now).await
            })
            .await,
        )
    }
}
