//! Chat threads and their messages.

use async_trait::async_trait;
use diesel::prelude::*;
use diesel::result::{DatabaseErrorKind, Error as DieselError};
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use time::OffsetDateTime;
use uuid::Uuid;
use wort_domain::ai::chat::{
    ChatMessage, ChatThread, ChatThreadDetail, MessageRole, NewMessage, NewThread, ThreadPatch,
    TurnRecord,
};
use wort_domain::page::{Page, PageRequest};
use wort_domain::ports::ChatRepository;
use wort_domain::{DomainError, DomainResult, UserId};

use crate::error::{TxError, db_error, found};
use crate::pool::{DbPool, checkout};
use crate::schema::{chat_messages as messages, chat_threads as threads, recipes};

pub struct PgChats {
    pool: DbPool,
}

impl PgChats {
    pub fn new(pool: DbPool) -> Self {
        PgChats { pool }
    }
}

#[derive(Queryable, Selectable, Insertable)]
#[diesel(table_name = threads)]
struct ThreadRow {
    id: Uuid,
    user_id: Uuid,
    recipe_id: Option<Uuid>,
    title: Option<String>,
    created_at: OffsetDateTime,
    updated_at: OffsetDateTime,
}

impl From<ThreadRow> for ChatThread {
    fn from(r: ThreadRow) -> Self {
        ChatThread {
            id: r.id,
            title: r.title,
            recipe_id: r.recipe_id,
            created_at: r.created_at,
            updated_at: r.updated_at,
        }
    }
}

#[derive(Queryable, Selectable)]
#[diesel(table_name = messages)]
struct MessageRow {
    id: Uuid,
    role: String,
    content: String,
    created_at: OffsetDateTime,
}

impl TryFrom<MessageRow> for ChatMessage {
    type Error = DomainError;

    fn try_from(r: MessageRow) -> DomainResult<Self> {
        let role = MessageRole::parse(&r.role)
            .ok_or_else(|| DomainError::Internal(format!("unknown message role {}", r.role)))?;
        Ok(ChatMessage {
            id: r.id,
            role,
            content: r.content,
            created_at: r.created_at,
        })
    }
}

#[derive(Insertable)]
#[diesel(table_name = messages)]
struct NewMessageRow<'a> {
    id: Uuid,
    user_id: Uuid,
    thread_id: Uuid,
    role: &'static str,
    content: &'a str,
    created_at: OffsetDateTime,
}

/// A recipe that is gone (or never was the caller's) when the thread row is written: the
/// foreign key refuses it, which is "not found" to the caller.
fn recipe_gone(e: DieselError) -> DomainError {
    match e {
        DieselError::DatabaseError(DatabaseErrorKind::ForeignKeyViolation, _) => {
            DomainError::NotFound
        }
        other => db_error(other),
    }
}

async fn owns_recipe(
    conn: &mut AsyncPgConnection,
    user: UserId,
    recipe_id: Uuid,
) -> Result<bool, DieselError> {
    // FOR KEY SHARE: inside a transaction, the recipe cannot be deleted until it commits, so the
    // thread row written next never points at a recipe that is gone.
    let found: Option<Uuid> = recipes::table
        .filter(recipes::id.eq(recipe_id))
        .filter(recipes::user_id.eq(user.0))
        .select(recipes::id)
        .for_key_share()
        .first(conn)
        .await
        .optional()?;
    Ok(found.is_some())
}

async fn find_thread(
    conn: &mut AsyncPgConnection,
    user: UserId,
    id: Uuid,
) -> DomainResult<ChatThread> {
    threads::table
        .filter(threads::id.eq(id))
        .filter(threads::user_id.eq(user.0))
        .select(ThreadRow::as_select())
        .first(conn)
        .await
        .map(ChatThread::from)
        .map_err(db_error)
}

async fn insert_message(
    conn: &mut AsyncPgConnection,
    user: UserId,
    thread_id: Uuid,
    role: MessageRole,
    m: &NewMessage,
) -> Result<(), TxError> {
    diesel::insert_into(messages::table)
        .values(NewMessageRow {
            id: m.id,
            user_id: user.0,
            thread_id,
            role: role.as_str(),
            content: &m.content,
            created_at: m.created_at,
        })
        .execute(conn)
        .await?;
    Ok(())
}

async fn record_turn_in_tx(
    conn: &mut AsyncPgConnection,
    user: UserId,
    turn: TurnRecord,
) -> Result<(), TxError> {
    match turn.new_thread {
        Some(new) => {
            // The recipe may have been deleted while the answer was streaming: keep the
            // conversation, without it (as ON DELETE SET NULL would have done).
            let recipe_id = match new.recipe_id {
                Some(id) if owns_recipe(conn, user, id).await? => Some(id),
                _ => None,
            };
            diesel::insert_into(threads::table)
                .values(ThreadRow {
                    id: turn.chat_id,
                    user_id: user.0,
                    recipe_id,
                    title: new.title,
                    created_at: turn.question.created_at,
                    updated_at: turn.now,
                })
                .execute(conn)
                .await?;
        }
        None => {
            // Also locks the thread, so concurrent turns of one thread store one after the other.
            let updated = diesel::update(
                threads::table
                    .filter(threads::id.eq(turn.chat_id))
                    .filter(threads::user_id.eq(user.0)),
            )
            .set(threads::updated_at.eq(turn.now))
            .execute(conn)
            .await?;
            if updated == 0 {
                return Err(TxError(DomainError::NotFound));
            }
        }
    }
    // Two statements, so the identity column numbers the question before the answer.
    insert_message(conn, user, turn.chat_id, MessageRole::User, &turn.question).await?;
    insert_message(
        conn,
        user,
        turn.chat_id,
        MessageRole::Assistant,
        &turn.answer,
    )
    .await?;
    Ok(())
}

#[async_trait]
impl ChatRepository for PgChats {
    async fn list(&self, user: UserId, page: PageRequest) -> DomainResult<Page<ChatThread>> {
        let conn = checkout(&self.pool).await?;
        let page_query = threads::table
            .filter(threads::user_id.eq(user.0))
            .order((threads::updated_at.desc(), threads::id.desc()))
            .select(ThreadRow::as_select())
            .limit(page.limit)
            .offset(page.offset);
        let count_query = threads::table.filter(threads::user_id.eq(user.0)).count();
        let conn_ref: &AsyncPgConnection = &conn;
        // The page and the total travel together in one round trip.
        let (rows, total) = futures_util::try_join!(
            page_query.load::<ThreadRow>(&mut &*conn_ref),
            count_query.get_result::<i64>(&mut &*conn_ref),
        )
        .map_err(db_error)?;
        Ok(Page {
            items: rows.into_iter().map(ChatThread::from).collect(),
            total,
        })
    }

    async fn create(
        &self,
        user: UserId,
        id: Uuid,
        new: NewThread,
        now: OffsetDateTime,
    ) -> DomainResult<ChatThread> {
        let mut conn = checkout(&self.pool).await?;
        if let Some(recipe_id) = new.recipe_id
            && !owns_recipe(&mut conn, user, recipe_id)
                .await
                .map_err(db_error)?
        {
            return Err(DomainError::NotFound);
        }
        diesel::insert_into(threads::table)
            .values(ThreadRow {
                id,
                user_id: user.0,
                recipe_id: new.recipe_id,
                title: new.title,
                created_at: now,
                updated_at: now,
            })
            .returning(ThreadRow::as_returning())
            .get_result(&mut conn)
            .await
            .map(ChatThread::from)
            .map_err(recipe_gone)
    }

    async fn get(&self, user: UserId, id: Uuid) -> DomainResult<ChatThreadDetail> {
        let conn = checkout(&self.pool).await?;
        let conn_ref: &AsyncPgConnection = &conn;
        let thread_query = threads::table
            .filter(threads::id.eq(id))
            .filter(threads::user_id.eq(user.0))
            .select(ThreadRow::as_select());
        let messages_query = messages::table
            .filter(messages::thread_id.eq(id))
            .filter(messages::user_id.eq(user.0))
            .order(messages::seq.asc())
            .select(MessageRow::as_select());
        let (thread, rows) = futures_util::try_join!(
            thread_query.get_results::<ThreadRow>(&mut &*conn_ref),
            messages_query.load::<MessageRow>(&mut &*conn_ref),
        )
        .map_err(db_error)?;
        let thread = thread.into_iter().next().ok_or(DomainError::NotFound)?;
        Ok(ChatThreadDetail {
            thread: thread.into(),
            messages: rows
                .into_iter()
                .map(ChatMessage::try_from)
                .collect::<DomainResult<_>>()?,
        })
    }

    async fn update(
        &self,
        user: UserId,
        id: Uuid,
        patch: ThreadPatch,
        now: OffsetDateTime,
    ) -> DomainResult<ChatThread> {
        let mut conn = checkout(&self.pool).await?;
        let Some(title) = patch.title else {
            return find_thread(&mut conn, user, id).await;
        };
        diesel::update(
            threads::table
                .filter(threads::id.eq(id))
                .filter(threads::user_id.eq(user.0)),
        )
        .set((threads::title.eq(title), threads::updated_at.eq(now)))
        .returning(ThreadRow::as_returning())
        .get_result(&mut conn)
        .await
        .map(ChatThread::from)
        .map_err(db_error)
    }

    async fn delete(&self, user: UserId, id: Uuid) -> DomainResult<()> {
        let mut conn = checkout(&self.pool).await?;
        let deleted = diesel::delete(
            threads::table
                .filter(threads::id.eq(id))
                .filter(threads::user_id.eq(user.0)),
        )
        .execute(&mut conn)
        .await
        .map_err(db_error)?;
        found(deleted)
    }

    async fn record_turn(&self, user: UserId, turn: TurnRecord) -> DomainResult<()> {
        let mut conn = checkout(&self.pool).await?;
        conn.transaction(async |conn| record_turn_in_tx(conn, user, turn).await)
            .await
            .map_err(|TxError(e)| e)
    }
}
