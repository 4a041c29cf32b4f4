//! Statements prepared once per connection that diesel would prepare on every call.
//!
//! diesel marks some statements as unsafe to keep prepared: every `UPDATE` (a changeset with
//! optional fields writes a different `SET` list from one call to the next), every raw
//! `sql_query` and every query holding a SQL literal (`sql::<T>("lower(name)")`). diesel-async
//! then prepares such a statement afresh on every call: a round trip of its own (`Parse`,
//! `Describe`, `Sync`) before the one that runs it, and PostgreSQL plans it again. Inside a
//! transaction that holds a row lock, as a device's post does, that round trip also holds the
//! lock.
//!
//! [`Prepared`] keeps such a statement in diesel-async's cache keyed by its SQL text and bind
//! types (not by its Rust type), so each distinct text is prepared once per connection: a
//! changeset's optional fields or a list's optional filters give a few texts, each prepared
//! once. Wrap only statements whose texts are few and do not grow with the values (no literal
//! lists, no text built from input): the cache keeps one prepared statement per text for the
//! connection's life, in wort and in PostgreSQL (the recipe `PATCH`, whose eleven optional
//! fields could make 2,048 texts, is left unwrapped for that reason).

use diesel::QueryResult;
use diesel::pg::Pg;
use diesel::query_builder::{AstPass, Query, QueryFragment, QueryId};

/// `query`, kept prepared by its SQL text (see the module).
pub(crate) struct Prepared<Q>(pub Q);

impl<Q: QueryFragment<Pg>> QueryFragment<Pg> for Prepared<Q> {
    fn walk_ast<'b>(&'b self, pass: AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        self.0.walk_ast(pass)
    }

    fn is_safe_to_cache_prepared(&self, _backend: &Pg) -> QueryResult<bool> {
        Ok(true)
    }
}

/// No static id: the cache keys the statement by its text, so two texts of one Rust type (two
/// changesets) are two prepared statements.
impl<Q> QueryId for Prepared<Q> {
    type QueryId = ();
    const HAS_STATIC_QUERY_ID: bool = false;
}

impl<Q: Query> Query for Prepared<Q> {
    type SqlType = Q::SqlType;
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::Prepared;
    use crate::schema::devices;
    use diesel::pg::Pg;
    use diesel::prelude::*;
    use diesel::query_builder::{QueryFragment, QueryId};

    fn touch(id: uuid::Uuid) -> impl QueryFragment<Pg> + QueryId {
        diesel::update(devices::table.filter(devices::id.eq(id)))
            .set(devices::last_reading_at.eq(None::<time::OffsetDateTime>))
    }

    fn query_id_of<Q: QueryId>(_: &Q) -> Option<std::any::TypeId> {
        Q::query_id()
    }

    #[test]
    fn keeps_the_statement_and_its_text() {
        let id = uuid::Uuid::nil();
        // diesel's own verdict, which made every call prepare the update again.
        assert!(!touch(id).is_safe_to_cache_prepared(&Pg).unwrap());
        let kept = Prepared(touch(id));
        assert!(kept.is_safe_to_cache_prepared(&Pg).unwrap());
        // Keyed by its text, never by its Rust type: two changesets of one type stay apart.
        assert_eq!(query_id_of(&kept), None);
        assert_eq!(
            diesel::debug_query::<Pg, _>(&kept).to_string(),
            diesel::debug_query::<Pg, _>(&touch(id)).to_string()
        );
    }
}
