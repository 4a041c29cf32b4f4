//! A modest reading of one SQL statement: which tables it names, and whether it says which
//! account it is about. Not a parser: a tokenizer and a few rules, enough for the statements
//! diesel writes and the few written by hand in `crates/db`.
//!
//! * Tables are the names right after `FROM`, `JOIN`, `UPDATE`, `INTO` and `USING`, and each
//!   further name of a `FROM a x, b y` list.
//! * A statement says its account when, in a condition (`WHERE`, `ON`, `HAVING`, at any depth
//!   of subqueries), a `user_id` column is compared with a bound parameter (`user_id = $1`,
//!   `$1 = r.user_id`, `user_id = ANY ($1)`, `user_id IN ($1, …)`), or when `user_id` is in an
//!   `INSERT`'s column list. A join on `a.user_id = b.user_id` keeps rows of one account
//!   together but chooses none, so alone it does not count. The accounts table says its account
//!   by its own `id`.

/// One token of a statement.
#[derive(Debug, Clone, PartialEq)]
enum Token {
    /// A bare word (keyword or identifier), lower-cased.
    Word(String),
    /// A `"quoted"` identifier, as written.
    Quoted(String),
    /// A bound parameter, `$1`.
    Param,
    /// One character of punctuation or an operator.
    Punct(char),
    /// A number or anything else that matters to no rule here.
    Other,
}

impl Token {
    /// The identifier this token names, if it can name one.
    fn ident(&self) -> Option<&str> {
        match self {
            Token::Word(w) | Token::Quoted(w) => Some(w),
            _ => None,
        }
    }

    fn is_word(&self, word: &str) -> bool {
        matches!(self, Token::Word(w) if w == word)
    }
}

fn tokens(sql: &str) -> Vec<Token> {
    let chars: Vec<char> = sql.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        let rest = |from: usize, end: &dyn Fn(char) -> bool| {
            let mut j = from;
            while chars.get(j).is_some_and(|&c| !end(c)) {
                j += 1;
            }
            j
        };
        match c {
            c if c.is_whitespace() => i += 1,
            '-' if chars.get(i + 1) == Some(&'-') => i = rest(i, &|c| c == '\n'),
            '\'' | '"' => {
                // A string or a quoted identifier; a doubled quote is one quote inside.
                let mut j = i + 1;
                let mut text = String::new();
                while let Some(&d) = chars.get(j) {
                    if d == c {
                        if chars.get(j + 1) == Some(&c) {
                            text.push(c);
                            j += 2;
                            continue;
                        }
                        break;
                    }
                    text.push(d);
                    j += 1;
                }
                out.push(if c == '"' {
                    Token::Quoted(text)
                } else {
                    Token::Other
                });
                i = j + 1;
            }
            '$' if chars.get(i + 1).is_some_and(char::is_ascii_digit) => {
                out.push(Token::Param);
                i = rest(i + 1, &|c| !c.is_ascii_digit());
            }
            c if c.is_alphabetic() || c == '_' => {
                let j = rest(i, &|c| !(c.is_alphanumeric() || c == '_' || c == '$'));
                out.push(Token::Word(
                    chars[i..j].iter().collect::<String>().to_lowercase(),
                ));
                i = j;
            }
            c if c.is_ascii_digit() => {
                out.push(Token::Other);
                i = rest(i, &|c| !(c.is_ascii_alphanumeric() || c == '.'));
            }
            c => {
                out.push(Token::Punct(c));
                i += 1;
            }
        }
    }
    out
}

/// Words that end a table's alias: what may follow `FROM t` or `FROM t x`.
const AFTER_TABLE: &[&str] = &[
    "where",
    "join",
    "inner",
    "left",
    "right",
    "full",
    "cross",
    "natural",
    "on",
    "using",
    "group",
    "order",
    "limit",
    "offset",
    "for",
    "union",
    "except",
    "intersect",
    "returning",
    "set",
    "having",
    "window",
    "values",
    "select",
    "default",
];

/// Words after `FROM`, `UPDATE`… that are no table: `FOR UPDATE OF t`, `FOR UPDATE SKIP LOCKED`,
/// `ON CONFLICT … DO UPDATE SET`, `JOIN LATERAL (…)`.
const NOT_A_TABLE: &[&str] = &["of", "skip", "nowait", "set", "lateral", "only", "select"];

/// What a statement touches and whether it says which account.
#[derive(Debug, Default, PartialEq)]
pub struct Scope {
    /// The names after `FROM`, `JOIN`, `UPDATE`, `INTO`, `USING` (any name: the caller keeps
    /// those of tables it knows).
    pub tables: Vec<String>,
    /// `user_id` compared with a parameter in a condition, or in an `INSERT`'s columns.
    pub filters_user_id: bool,
    /// `id` compared with a parameter in a condition, or in an `INSERT`'s columns (what says
    /// the account in a statement on `users` alone).
    pub filters_id: bool,
}

#[derive(Clone, Copy, PartialEq, Debug)]
enum Clause {
    /// A condition: `WHERE`, `ON`, `HAVING`.
    Condition,
    /// The column list of `INSERT INTO t (…)`.
    InsertColumns,
    /// Anything else (the select list, `SET`, `VALUES`, `ORDER BY`…).
    Elsewhere,
}

/// Is this a statement that reads or writes rows (and not `BEGIN`, `SET`, DDL…)?
pub fn is_data_statement(sql: &str) -> bool {
    tokens(sql)
        .iter()
        .find(|t| **t != Token::Punct('('))
        .is_some_and(|t| {
            ["select", "with", "insert", "update", "delete"]
                .iter()
                .any(|k| t.is_word(k))
        })
}

pub fn scope(sql: &str) -> Scope {
    let toks = tokens(sql);
    let mut scope = Scope::default();
    // One clause per open parenthesis: a subquery's own `SELECT` or `WHERE` ends where it does.
    let mut frames = vec![Clause::Elsewhere];
    // Where the column list of `INSERT INTO t [AS x] (…)` opens.
    let mut insert_columns = None;
    let mut i = 0;
    while let Some(tok) = toks.get(i) {
        let clause = *frames.last().unwrap_or(&Clause::Elsewhere);
        match tok {
            Token::Punct('(') => frames.push(if insert_columns == Some(i) {
                Clause::InsertColumns
            } else {
                clause
            }),
            Token::Punct(')') if frames.len() > 1 => {
                frames.pop();
            }
            Token::Word(w) => {
                let next = match w.as_str() {
                    "where" | "on" | "having" => Some(Clause::Condition),
                    "select" | "set" | "values" | "returning" | "group" | "order" | "limit"
                    | "offset" | "from" | "join" | "update" | "into" | "using" => {
                        Some(Clause::Elsewhere)
                    }
                    _ => None,
                };
                if let Some(next) = next
                    && let Some(frame) = frames.last_mut()
                {
                    *frame = next;
                }
                if matches!(w.as_str(), "from" | "join" | "update" | "into" | "using") {
                    i = read_tables(&toks, i + 1, w == "from" || w == "using", &mut scope);
                    if w == "into" {
                        let alias = toks.get(i).is_some_and(|t| t.is_word("as"));
                        insert_columns = Some(if alias { i + 2 } else { i });
                    }
                    continue;
                }
            }
            _ => {}
        }
        if let Some(name) = tok.ident() {
            let compared = match clause {
                Clause::Condition => compared_with_parameter(&toks, i),
                Clause::InsertColumns => true,
                Clause::Elsewhere => false,
            };
            // A qualified `x.id` or `x.user_id`: the column is the last name.
            let column = !toks.get(i + 1).is_some_and(|t| *t == Token::Punct('.'));
            if compared && column {
                match name {
                    "user_id" => scope.filters_user_id = true,
                    "id" => scope.filters_id = true,
                    _ => {}
                }
            }
        }
        i += 1;
    }
    scope
}

/// Reads the table named at `at` (and, in a `FROM` list, the names after each comma); returns
/// where reading goes on.
fn read_tables(toks: &[Token], mut at: usize, list: bool, scope: &mut Scope) -> usize {
    loop {
        let Some(name) = toks.get(at).and_then(Token::ident) else {
            return at;
        };
        if matches!(&toks[at], Token::Word(w) if NOT_A_TABLE.contains(&w.as_str())) {
            return at;
        }
        // `schema.table`: the table is the last name.
        let (name, after) = match (toks.get(at + 1), toks.get(at + 2).and_then(Token::ident)) {
            (Some(Token::Punct('.')), Some(table)) => (table, at + 3),
            _ => (name, at + 1),
        };
        scope.tables.push(name.to_owned());
        at = after;
        if !list {
            return at;
        }
        // An alias: `AS x`, or a name that is no keyword.
        if toks.get(at).is_some_and(|t| t.is_word("as")) {
            at += 2;
        } else if let Some(Token::Word(w)) = toks.get(at)
            && !AFTER_TABLE.contains(&w.as_str())
        {
            at += 1;
        } else if let Some(Token::Quoted(_)) = toks.get(at) {
            at += 1;
        }
        if toks.get(at) != Some(&Token::Punct(',')) {
            return at;
        }
        at += 1;
    }
}

/// Is the column named at `at` compared with a parameter: `col = $1`, `col = ANY ($1)`,
/// `col IN ($1, …)`, or `$1 = col` (the column perhaps qualified: `$1 = "t"."col"`)?
fn compared_with_parameter(toks: &[Token], at: usize) -> bool {
    let after = |k: usize| toks.get(at + k);
    let forward = match after(1) {
        Some(Token::Punct('=')) => {
            let mut k = 2;
            while after(k).is_some_and(|t| t.is_word("any") || *t == Token::Punct('(')) {
                k += 1;
            }
            after(k) == Some(&Token::Param)
        }
        Some(t) if t.is_word("in") => {
            after(2) == Some(&Token::Punct('(')) && after(3) == Some(&Token::Param)
        }
        _ => false,
    };
    // Back over a qualifier (`"t".`) to the operator and the parameter.
    let mut start = at;
    if start >= 2 && toks.get(start - 1) == Some(&Token::Punct('.')) {
        start -= 2;
    }
    let backward = start >= 2
        && toks.get(start - 1) == Some(&Token::Punct('='))
        && toks.get(start - 2) == Some(&Token::Param);
    forward || backward
}

#[cfg(test)]
mod tests {
    use super::{Scope, is_data_statement, scope};

    fn tables(sql: &str) -> Vec<String> {
        scope(sql).tables
    }

    #[test]
    fn diesel_statements_filtered_by_the_account() {
        let s = scope(
            r#"SELECT "hops"."id" FROM "hops" INNER JOIN "recipes" ON ("recipes"."id" = "hops"."recipe_id") WHERE (("hops"."recipe_id" = $1) AND ("hops"."user_id" = $2))"#,
        );
        assert_eq!(s.tables, ["hops", "recipes"]);
        assert!(s.filters_user_id);
        let s = scope(
            r#"UPDATE "recipes" SET "name" = $1 WHERE (("recipes"."id" = $2) AND ("recipes"."user_id" = $3)) RETURNING "recipes"."id""#,
        );
        assert_eq!(
            s,
            Scope {
                tables: vec!["recipes".into()],
                filters_user_id: true,
                filters_id: true,
            }
        );
        let s = scope(
            r#"INSERT INTO "hops" ("id", "user_id", "recipe_id") VALUES ($1, $2, $3) RETURNING "hops"."id""#,
        );
        assert_eq!(s.tables, ["hops"]);
        assert!(s.filters_user_id, "the insert's columns name the account");
        let s = scope(
            "INSERT INTO ai_usage AS u (user_id, day) VALUES ($1, $2) \
             ON CONFLICT (user_id, day) DO UPDATE SET messages = u.messages + 1",
        );
        assert_eq!(s.tables, ["ai_usage"]);
        assert!(s.filters_user_id, "an aliased insert's columns too");
        assert!(
            !scope("INSERT INTO hops (id, name) SELECT id, user_id FROM hops WHERE id = $1")
                .filters_user_id,
            "selected, not inserted"
        );
        assert!(
            scope(r#"DELETE FROM "devices" WHERE "devices"."user_id" = ANY($1)"#).filters_user_id
        );
        assert!(scope("SELECT 1 FROM chats WHERE user_id IN ($1, $2)").filters_user_id);
        assert!(scope(r#"SELECT 1 FROM "chats" AS c WHERE $1 = "c"."user_id""#).filters_user_id);
        assert!(
            scope("SELECT 1 FROM water_profiles WHERE (user_id IS NULL OR user_id = $1)")
                .filters_user_id
        );
    }

    #[test]
    fn statements_that_do_not_say_the_account_are_seen() {
        // By an id alone.
        let s = scope(
            r#"UPDATE "session_fermentation_steps" SET "became_due_at" = $1 WHERE (("session_fermentation_steps"."id" = $2) AND ("session_fermentation_steps"."became_due_at" IS NULL))"#,
        );
        assert_eq!(s.tables, ["session_fermentation_steps"]);
        assert!(!s.filters_user_id);
        // `user_id` selected, ordered or set is no filter.
        assert!(!scope("SELECT user_id FROM recipes WHERE id = $1").filters_user_id);
        assert!(!scope("SELECT id FROM recipes ORDER BY user_id").filters_user_id);
        assert!(!scope("UPDATE recipes SET user_id = $1 WHERE id = $2").filters_user_id);
        // A join on the account keeps rows together but chooses none.
        assert!(
            !scope("SELECT 1 FROM deliveries d JOIN endpoints e ON e.user_id = d.user_id")
                .filters_user_id
        );
        // Compared with something other than a parameter.
        assert!(!scope("SELECT 1 FROM recipes WHERE user_id IS NOT NULL").filters_user_id);
        // A subquery's selected `user_id` does not filter the outer statement.
        assert!(
            !scope("DELETE FROM hops WHERE recipe_id IN (SELECT id FROM recipes) AND id = $1")
                .filters_user_id
        );
        // Strings and comments are not read.
        assert!(!scope("SELECT 'user_id = $1' FROM recipes -- user_id = $1").filters_user_id);
    }

    #[test]
    fn subqueries_and_lists_of_tables() {
        let s = scope(
            "UPDATE webhook_deliveries d SET attempts = d.attempts + 1 \
             FROM due, webhook_events ev, webhook_endpoints e WHERE d.id = due.id",
        );
        assert_eq!(
            s.tables,
            [
                "webhook_deliveries",
                "due",
                "webhook_events",
                "webhook_endpoints"
            ]
        );
        let s = scope(
            "WITH targets AS (SELECT id FROM webhook_endpoints WHERE user_id = $1 AND active) \
             INSERT INTO webhook_deliveries (id, event_id) SELECT gen_random_uuid(), $2 FROM targets",
        );
        assert_eq!(
            s.tables,
            ["webhook_endpoints", "webhook_deliveries", "targets"]
        );
        assert!(s.filters_user_id, "the CTE says the account");
        let s = scope("SELECT x FROM (SELECT id AS x FROM recipes WHERE user_id = $1) mine");
        assert!(s.filters_user_id);
        assert_eq!(tables("SELECT 1 FROM public.recipes r"), ["recipes"]);
        assert_eq!(
            tables(r#"SELECT 1 FROM "recipes" FOR UPDATE OF "recipes" SKIP LOCKED"#),
            ["recipes"],
            "`FOR UPDATE` names no table"
        );
    }

    #[test]
    fn only_statements_about_rows_are_read() {
        assert!(is_data_statement("SELECT 1"));
        assert!(is_data_statement("(SELECT 1) UNION (SELECT 2)"));
        assert!(is_data_statement("WITH x AS (SELECT 1) SELECT * FROM x"));
        assert!(is_data_statement(r#"DELETE FROM "hops""#));
        assert!(!is_data_statement("BEGIN"));
        assert!(!is_data_statement("SAVEPOINT diesel_savepoint_1"));
        assert!(!is_data_statement(
            "ALTER TABLE recipes ADD COLUMN x int; UPDATE recipes SET x = 1"
        ));
    }
}
