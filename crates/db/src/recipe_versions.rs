//! Every write of a recipe or its children runs [`record_edit`] first, in its own transaction,
//! so that no committed change escapes a version; a brew session, a copy or a scaled copy runs
//! [`freeze_current`] to record the version it was made from.
//!
//! The rules (when an edit joins the open version, when a version is frozen, what a frozen
//! version keeps) are the domain's (`wort_domain::recipe::history`); this module stores them.
//! The history's reads and the restore are `crate::recipe_history`'s.

use diesel::prelude::*;
use diesel::sql_types::{Nullable, Text, Timestamptz};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use serde_json::Value;
use time::OffsetDateTime;
use uuid::Uuid;
use wort_domain::recipe::history::{self, COALESCE_WINDOW, Snapshot};
use wort_domain::{DomainError, DomainResult, UserId};

use crate::error::{TxError, db_error};
use crate::schema::{recipe_versions, recipes};

diesel::define_sql_function! {
    /// PostgreSQL's `greatest` of two instants.
    fn greatest(a: Timestamptz, b: Timestamptz) -> Timestamptz;
}

diesel::define_sql_function! {
    /// PostgreSQL's `coalesce` of two texts.
    fn coalesce(a: Nullable<Text>, b: Nullable<Text>) -> Nullable<Text>;
}

/// Locks the recipe's row for the rest of the transaction (`NotFound` when it is not the
/// caller's) and puts the edit about to be made into a version: the open one when it began less
/// than the coalescing window ago, else a new one (the open one frozen first, as it is before
/// this edit). Run before the edit's own statements; the common case (an edit joining the open
/// version) is two statements sent in one round trip.
pub(crate) async fn record_edit(
    conn: &mut AsyncPgConnection,
    user: UserId,
    recipe_id: Uuid,
    now: OffsetDateTime,
) -> Result<(), TxError> {
    let lock = recipes::table
        .filter(recipes::id.eq(recipe_id))
        .filter(recipes::user_id.eq(user.0))
        .select(recipes::created_at)
        .for_update();
    let join = diesel::update(
        recipe_versions::table
            .filter(recipe_versions::recipe_id.eq(recipe_id))
            .filter(recipe_versions::user_id.eq(user.0))
            .filter(recipe_versions::snapshot.is_null())
            .filter(recipe_versions::created_at.gt(now - COALESCE_WINDOW)),
    )
    .set(recipe_versions::updated_at.eq(greatest(recipe_versions::updated_at, now)));
    let shared: &AsyncPgConnection = conn;
    let (created, joined) = futures_util::try_join!(
        lock.get_result::<OffsetDateTime>(&mut &*shared),
        join.execute(&mut &*shared),
    )
    .map_err(|e| TxError(db_error(e)))?;
    if joined > 0 {
        return Ok(());
    }
    let latest = latest_version(conn, user, recipe_id).await?;
    let next = match latest {
        // Never edited since it was made: the implicit first version.
        None if history::coalesces(created, now) => {
            insert_open(conn, user, recipe_id, 1, (created, now), None).await?;
            return Ok(());
        }
        None => freeze(conn, user, recipe_id, 1, false, None).await? + 1,
        Some((number, true)) => freeze(conn, user, recipe_id, number, true, None).await? + 1,
        Some((number, false)) => number + 1,
    };
    insert_open(conn, user, recipe_id, next, (now, now), None).await
}

/// Freezes the open version, if there is one, and returns the number of the newest version:
/// what a brew session, a copy or a scaled copy records as the version it was made from. The
/// caller holds the recipe's row (`FOR SHARE` or `FOR UPDATE`).
pub(crate) async fn freeze_current(
    conn: &mut AsyncPgConnection,
    user: UserId,
    recipe_id: Uuid,
) -> Result<i32, TxError> {
    match latest_version(conn, user, recipe_id).await? {
        None => freeze(conn, user, recipe_id, 1, false, None).await,
        Some((number, true)) => freeze(conn, user, recipe_id, number, true, None).await,
        Some((number, false)) => Ok(number),
    }
}

/// The newest version's number and whether it is open, its row locked.
pub(crate) async fn latest_version(
    conn: &mut AsyncPgConnection,
    user: UserId,
    recipe_id: Uuid,
) -> Result<Option<(i32, bool)>, TxError> {
    Ok(recipe_versions::table
        .filter(recipe_versions::recipe_id.eq(recipe_id))
        .filter(recipe_versions::user_id.eq(user.0))
        .order(recipe_versions::number.desc())
        .select((recipe_versions::number, recipe_versions::snapshot.is_null()))
        .for_update()
        .first::<(i32, bool)>(conn)
        .await
        .optional()?)
}

/// A version's row as written; `snapshot: None` is the open version.
#[derive(Insertable)]
#[diesel(table_name = recipe_versions)]
struct NewVersion {
    recipe_id: Uuid,
    number: i32,
    user_id: Uuid,
    created_at: OffsetDateTime,
    updated_at: OffsetDateTime,
    message: Option<String>,
    snapshot: Option<Value>,
    summary: Option<String>,
}

/// Writes the version, unless a concurrent write of the same recipe wrote it first.
async fn insert_version(conn: &mut AsyncPgConnection, row: NewVersion) -> Result<(), TxError> {
    diesel::insert_into(recipe_versions::table)
        .values(row)
        .on_conflict_do_nothing()
        .execute(conn)
        .await?;
    Ok(())
}

/// A new open version, begun at `created_at`, last edited `now`.
pub(crate) async fn insert_open(
    conn: &mut AsyncPgConnection,
    user: UserId,
    recipe_id: Uuid,
    number: i32,
    (created_at, now): (OffsetDateTime, OffsetDateTime),
    message: Option<String>,
) -> Result<(), TxError> {
    let row = NewVersion {
        recipe_id,
        number,
        user_id: user.0,
        created_at,
        updated_at: now,
        message,
        snapshot: None,
        summary: None,
    };
    insert_version(conn, row).await
}

/// The recipe as it is now, with the profile it names: a frozen version's content.
async fn take_snapshot(
    conn: &mut AsyncPgConnection,
    user: UserId,
    recipe_id: Uuid,
) -> Result<Snapshot, TxError> {
    let recipe = crate::recipe_rows::load_detail(conn, user, recipe_id, false).await?;
    let equipment = crate::equipment::profile_of(conn, user, recipe.recipe.equipment_id).await?;
    Ok(Snapshot { recipe, equipment })
}

async fn snapshot_of(
    conn: &mut AsyncPgConnection,
    user: UserId,
    recipe_id: Uuid,
    number: i32,
) -> Result<Option<Snapshot>, TxError> {
    let json: Option<Option<Value>> = recipe_versions::table
        .filter(recipe_versions::recipe_id.eq(recipe_id))
        .filter(recipe_versions::user_id.eq(user.0))
        .filter(recipe_versions::number.eq(number))
        .select(recipe_versions::snapshot)
        .first(conn)
        .await
        .optional()?;
    json.flatten()
        .map(read_snapshot)
        .transpose()
        .map_err(TxError)
}

pub(crate) fn read_snapshot(json: Value) -> DomainResult<Snapshot> {
    Snapshot::from_json(json)
        .map_err(|e| DomainError::Internal(format!("a stored recipe version: {e}")))
}

/// Stores the recipe as it is now as version `number`'s content (`exists`: its row is there and
/// open; else it is the implicit first version, written now), with its summary against the
/// version before. Returns `number`.
pub(crate) async fn freeze(
    conn: &mut AsyncPgConnection,
    user: UserId,
    recipe_id: Uuid,
    number: i32,
    exists: bool,
    message: Option<String>,
) -> Result<i32, TxError> {
    let snapshot = take_snapshot(conn, user, recipe_id).await?;
    let previous = match number {
        1 => None,
        n => snapshot_of(conn, user, recipe_id, n - 1).await?,
    };
    let summary = history::summary_of(previous.as_ref().map(|p| &p.recipe), &snapshot.recipe);
    let json = serde_json::to_value(&snapshot)
        .map_err(|e| TxError(DomainError::Internal(format!("a recipe version: {e}"))))?;
    if exists {
        diesel::update(
            recipe_versions::table
                .filter(recipe_versions::recipe_id.eq(recipe_id))
                .filter(recipe_versions::user_id.eq(user.0))
                .filter(recipe_versions::number.eq(number)),
        )
        .set((
            recipe_versions::snapshot.eq(json),
            recipe_versions::summary.eq(summary),
            // A name given now, else the one it has.
            recipe_versions::message.eq(coalesce(message, recipe_versions::message)),
        ))
        .execute(conn)
        .await?;
    } else {
        let r = &snapshot.recipe.recipe;
        let row = NewVersion {
            recipe_id,
            number,
            user_id: user.0,
            created_at: r.created_at,
            updated_at: r.updated_at,
            message,
            snapshot: Some(json),
            summary: Some(summary),
        };
        insert_version(conn, row).await?;
    }
    Ok(number)
}
