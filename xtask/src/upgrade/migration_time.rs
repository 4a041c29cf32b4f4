//! `cargo xtask upgrade --time-migrations`: how long each migration takes on a large data set.
//!
//! On a private cluster the migrations of `migrations/` are applied one by one, as diesel does
//! (each in its own transaction, its version recorded in `__diesel_schema_migrations`), up to
//! [`FILL_AFTER`], the schema before the first migration that rewrites existing rows. There
//! [`fill_sql`] loads a large data set with `INSERT … SELECT generate_series` (10,000 recipes
//! with their children, 10,000 brew sessions with 150,000 checklist steps whose titles are the
//! generated ones the later migrations recognise, 100,000 fermentation readings, …), then
//! `VACUUM ANALYZE`. Every later migration is then timed alone (wall clock around its
//! transaction). Finally this build's `wort migrate` must find nothing pending, which checks the
//! bookkeeping against diesel's own.
//!
//! Each migration is also classified from its SQL ([`classify`]): *rewrites rows* (`UPDATE`,
//! `DELETE`, `ALTER COLUMN … TYPE`, a volatile column default), *scans rows* (a constraint, a
//! checked or referencing new column, or an index on an existing table), or neither.

use std::{
    fs,
    io::Write as _,
    path::{Path, PathBuf},
    process::{ExitCode, Stdio},
    time::Instant,
};

use wort_pgcluster::{ClusterOptions, RunningCluster};

use super::{builds, step};
use crate::cluster::{TestCluster, sweep_orphans};
use crate::process::wort_migrate;
use crate::{target_dir, workspace_root};

const DIR_PREFIX: &str = "wort-migration-time-";
const DATABASE: &str = "wort";

/// The data set is loaded at the schema this migration leaves (the base tables, before the
/// first migration that rewrites rows); [`fill_sql`] is written for it.
pub const FILL_AFTER: &str = "20261122000005";

/// A migration that takes longer than this on the data set must be batched or made online.
const LIMIT_SECS: f64 = 3.0;

const USAGE: &str = "usage: cargo xtask upgrade -- --time-migrations [options]

  --scale N    multiply the data set (default 1: 10,000 recipes, 10,000 brew sessions with
               150,000 checklist steps, 100,000 fermentation readings)
  --wort PATH  the wort whose `migrate` checks the result (default: this checkout's, built now)";

pub fn run(args: &[String]) -> ExitCode {
    let mut scale = 1usize;
    let mut wort = None;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--scale" => match args
                .next()
                .and_then(|v| v.parse::<usize>().ok())
                .filter(|n| *n > 0)
            {
                Some(n) => scale = n,
                None => {
                    eprintln!("--scale needs a positive number\n\n{USAGE}");
                    return ExitCode::from(2);
                }
            },
            "--wort" => match args.next() {
                Some(path) => wort = Some(PathBuf::from(path)),
                None => {
                    eprintln!("--wort needs a path\n\n{USAGE}");
                    return ExitCode::from(2);
                }
            },
            "-h" | "--help" => {
                eprintln!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            other => {
                eprintln!("unknown option {other}\n\n{USAGE}");
                return ExitCode::from(2);
            }
        }
    }
    match time_migrations(scale, wort) {
        Ok((report, over)) => {
            let _ = std::io::stdout().write_all(report.as_bytes());
            if over {
                eprintln!("xtask upgrade --time-migrations: a migration took over {LIMIT_SECS} s");
            }
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("xtask upgrade --time-migrations: {error}");
            ExitCode::FAILURE
        }
    }
}

/// One migration folder.
struct Migration {
    /// The folder name, `2026-11-26-000022_brew_step_boil_timing`.
    name: String,
    /// diesel's version: the name's digits before `_`.
    version: String,
    up: String,
}

fn migrations() -> Result<Vec<Migration>, String> {
    let dir = workspace_root().join("migrations");
    let mut list = Vec::new();
    for entry in fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))? {
        let entry = entry.map_err(|e| format!("{}: {e}", dir.display()))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let up_file = entry.path().join("up.sql");
        if !up_file.is_file() {
            continue;
        }
        let version: String = name
            .split('_')
            .next()
            .unwrap_or_default()
            .chars()
            .filter(char::is_ascii_digit)
            .collect();
        let up = fs::read_to_string(&up_file).map_err(|e| format!("{}: {e}", up_file.display()))?;
        list.push(Migration { name, version, up });
    }
    list.sort_by(|a, b| a.version.cmp(&b.version));
    Ok(list)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// Creates new objects or changes only the catalogue (instant on any data).
    Instant,
    /// Reads the existing rows once (a constraint, a checked or referencing column, an index).
    Scans,
    /// Writes existing rows.
    Rewrites,
}

impl Kind {
    fn label(self) -> &'static str {
        match self {
            Kind::Instant => "new objects only",
            Kind::Scans => "scans rows",
            Kind::Rewrites => "rewrites rows",
        }
    }
}

/// What a migration's SQL does to existing rows, read from its statements (comments removed):
/// a heuristic, for the report; the timings are what count.
pub fn classify(sql: &str, new_tables: &[String]) -> Kind {
    let text: String = sql
        .lines()
        .map(|line| line.split("--").next().unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n")
        .to_ascii_lowercase();
    let mut kind = Kind::Instant;
    for statement in text.split(';') {
        let words: Vec<&str> = statement.split_whitespace().collect();
        let joined = words.join(" ");
        let first = words.first().copied().unwrap_or_default();
        let on_existing = |table: &str| !new_tables.iter().any(|t| t == table);
        let rewrites = first == "update"
            || first == "delete"
            || (first == "do" && (joined.contains(" update ") || joined.contains(" delete ")))
            || (joined.starts_with("alter table")
                && joined.contains(" alter column ")
                && joined.contains(" type "))
            || (joined.starts_with("alter table")
                && joined.contains("add column")
                && [
                    "now()",
                    "random()",
                    "gen_random_uuid()",
                    "clock_timestamp()",
                ]
                .iter()
                .any(|f| joined.contains(&format!("default {f}"))));
        if rewrites {
            return Kind::Rewrites;
        }
        let table_after = |keyword: &str| {
            let position = words.iter().position(|w| *w == keyword)?;
            words
                .get(position + 1)
                .map(|w| w.trim_start_matches("only").trim_matches('(').to_owned())
        };
        let scans = (first == "alter"
            && words.get(1) == Some(&"table")
            && words.get(2).is_some_and(|t| on_existing(t))
            && (joined.contains("add constraint")
                || joined.contains("set not null")
                || (joined.contains("add column")
                    && (joined.contains(" check ")
                        || joined.contains(" check(")
                        || joined.contains(" references ")))))
            || ((first == "create")
                && (words.get(1) == Some(&"index") || words.get(2) == Some(&"index"))
                && table_after("on").is_some_and(|t| on_existing(&t)));
        if scans {
            kind = kind.max(Kind::Scans);
        }
    }
    kind
}

/// The tables a migration creates (an index on them scans nothing).
fn created_tables(sql: &str) -> Vec<String> {
    let lower = sql.to_ascii_lowercase();
    let words: Vec<&str> = lower.split_whitespace().collect();
    words
        .windows(3)
        .filter(|w| w.first() == Some(&"create") && w.get(1) == Some(&"table"))
        .filter_map(|w| w.get(2).map(|t| t.trim_end_matches('(').to_owned()))
        .collect()
}

fn psql(pg: &RunningCluster, sql: &str) -> Result<String, String> {
    let mut child = pg
        .psql(DATABASE)
        .args(["-t", "-A"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("could not run psql: {e}"))?;
    if let Some(mut stdin) = child.stdin.take() {
        stdin
            .write_all(sql.as_bytes())
            .map_err(|e| format!("psql: {e}"))?;
    }
    let output = child.wait_with_output().map_err(|e| format!("psql: {e}"))?;
    if output.status.success() {
        Ok(String::from_utf8_lossy(&output.stdout).trim().to_owned())
    } else {
        Err(format!(
            "psql failed: {}",
            String::from_utf8_lossy(&output.stderr)
        ))
    }
}

/// One migration as diesel applies it: its SQL and its version row in one transaction.
fn apply(pg: &RunningCluster, migration: &Migration) -> Result<f64, String> {
    let script = format!(
        "BEGIN;\n{}\n;\nINSERT INTO __diesel_schema_migrations (version) VALUES ('{}');\nCOMMIT;\n",
        migration.up, migration.version
    );
    let started = Instant::now();
    psql(pg, &script).map_err(|e| format!("{}: {e}", migration.name))?;
    Ok(started.elapsed().as_secs_f64())
}

struct Timed {
    name: String,
    kind: Kind,
    secs: f64,
}

fn time_migrations(scale: usize, wort: Option<PathBuf>) -> Result<(String, bool), String> {
    sweep_orphans(DIR_PREFIX);
    let list = migrations()?;
    let kinds: Vec<Kind> = list
        .iter()
        .map(|m| classify(&m.up, &created_tables(&m.up)))
        .collect();
    if let Some((m, _)) = list
        .iter()
        .zip(&kinds)
        .find(|(m, kind)| m.version.as_str() <= FILL_AFTER && **kind == Kind::Rewrites)
    {
        return Err(format!(
            "{} rewrites rows but comes before the fill ({FILL_AFTER}): move the fill point and \
             write fill_sql for that schema",
            m.name
        ));
    }
    let wort = match wort {
        Some(path) => path,
        None => {
            step("build this checkout's wort");
            builds::current_wort()?
        }
    };

    step("postgres");
    let cluster = TestCluster::start(
        DIR_PREFIX,
        DATABASE,
        ClusterOptions {
            ephemeral: true,
            max_connections: Some(20),
        },
    )?;
    let result = time_on(&cluster, &list, &kinds, scale, &wort);
    let finished = cluster.finish();
    let result = result?;
    finished?;
    Ok(result)
}

fn time_on(
    cluster: &TestCluster,
    list: &[Migration],
    kinds: &[Kind],
    scale: usize,
    wort: &Path,
) -> Result<(String, bool), String> {
    let pg = cluster.running()?;
    psql(
        pg,
        "CREATE TABLE IF NOT EXISTS __diesel_schema_migrations (\
           version VARCHAR(50) PRIMARY KEY NOT NULL, \
           run_on TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP);",
    )?;
    step(&format!("migrations up to {FILL_AFTER}"));
    let (before, after): (Vec<_>, Vec<_>) = list
        .iter()
        .zip(kinds)
        .partition(|(m, _)| m.version.as_str() <= FILL_AFTER);
    for (m, _) in &before {
        apply(pg, m)?;
    }

    step("fill a large data set at that schema");
    let filled = Instant::now();
    psql(pg, &fill_sql(scale))?;
    psql(pg, "VACUUM ANALYZE;")?;
    let fill_secs = filled.elapsed().as_secs_f64();
    let counts = psql(
        pg,
        "SELECT string_agg(t || ' ' || n, ', ' ORDER BY t) FROM (\
           SELECT 'users' t, count(*) n FROM users UNION ALL \
           SELECT 'recipes', count(*) FROM recipes UNION ALL \
           SELECT 'fermentables', count(*) FROM fermentables UNION ALL \
           SELECT 'hops', count(*) FROM hops UNION ALL \
           SELECT 'yeasts', count(*) FROM yeasts UNION ALL \
           SELECT 'miscs', count(*) FROM miscs UNION ALL \
           SELECT 'mash_steps', count(*) FROM mash_steps UNION ALL \
           SELECT 'inventory_items', count(*) FROM inventory_items UNION ALL \
           SELECT 'brew_sessions', count(*) FROM brew_sessions UNION ALL \
           SELECT 'brew_steps', count(*) FROM brew_steps UNION ALL \
           SELECT 'fermentation_logs', count(*) FROM fermentation_logs UNION ALL \
           SELECT 'chat_messages', count(*) FROM chat_messages UNION ALL \
           SELECT 'sign_in_failures', count(*) FROM sign_in_failures) c;",
    )?;
    let size = psql(
        pg,
        "SELECT pg_size_pretty(pg_database_size(current_database()));",
    )?;
    eprintln!("    {counts}\n    {size} in {fill_secs:.1} s");

    step("time each later migration");
    // What a transaction costs without a migration in it (psql's start, the connection, the
    // version row): the floor under every figure below.
    let mut floor = f64::MAX;
    for _ in 0..3 {
        let started = Instant::now();
        psql(pg, "BEGIN;\nSELECT 1;\nCOMMIT;\n")?;
        floor = floor.min(started.elapsed().as_secs_f64());
    }
    let load = fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| l.split_whitespace().next().map(str::to_owned))
        .unwrap_or_else(|| "unknown".into());
    eprintln!("    an empty transaction through psql: {floor:.3} s; load average {load}");
    let mut timed = Vec::new();
    for (m, kind) in after {
        let secs = apply(pg, m)?;
        eprintln!("    {:>7.3} s  {} ({})", secs, m.name, kind.label());
        timed.push(Timed {
            name: m.name.clone(),
            kind: *kind,
            secs,
        });
    }
    // What the data looks like after 000022: the checklist steps it recognised.
    let recognised = psql(
        pg,
        "SELECT count(*) FILTER (WHERE boil) || ' boil steps, ' || \
                count(*) FILTER (WHERE boil_addition_at IS NOT NULL) || ' timed additions' \
         FROM brew_steps;",
    )
    .unwrap_or_default();

    step("this build's wort migrate finds nothing pending");
    let work = cluster.dir.join("migrate");
    fs::create_dir_all(&work).map_err(|e| format!("{}: {e}", work.display()))?;
    let migrated = Instant::now();
    wort_migrate(wort, &work, &cluster.url)?;
    let migrate_secs = migrated.elapsed().as_secs_f64();
    let applied = psql(pg, "SELECT count(*) FROM __diesel_schema_migrations;")?;
    if applied != list.len().to_string() {
        return Err(format!(
            "after wort migrate the database has {applied} migrations, the folder {}",
            list.len()
        ));
    }

    let cores = std::thread::available_parallelism().map_or(0, usize::from);
    let mut s = String::new();
    s.push_str(&format!(
        "# Migration times on a large data set (scale {scale})\n\n\
         data set at {FILL_AFTER}: {counts} ({size}, loaded in {fill_secs:.1} s)\n\n\
         Wall clock of each migration's transaction through psql; an empty one takes \
         {floor:.3} s (the floor of every figure). Load average when timing began: {load} \
         ({cores} cores).\n\n\
         | migration | what it does to existing rows | seconds |\n|---|---|---:|\n"
    ));
    for t in &timed {
        s.push_str(&format!(
            "| {} | {} | {:.3} |\n",
            t.name,
            t.kind.label(),
            t.secs
        ));
    }
    let total: f64 = timed.iter().map(|t| t.secs).sum();
    let slowest = timed
        .iter()
        .max_by(|a, b| a.secs.total_cmp(&b.secs))
        .map_or(String::new(), |t| format!("{} ({:.2} s)", t.name, t.secs));
    let over: Vec<&Timed> = timed.iter().filter(|t| t.secs > LIMIT_SECS).collect();
    s.push_str(&format!(
        "\nall {} after the fill: {total:.2} s; the slowest: {slowest}\n\
         after 000022 the checklist has {recognised}\n\
         then `wort migrate` (nothing pending, the catalogue seeded): {migrate_secs:.1} s\n",
        timed.len()
    ));
    if over.is_empty() {
        s.push_str(&format!("none took over {LIMIT_SECS} s\n"));
    } else {
        for t in &over {
            s.push_str(&format!(
                "OVER {LIMIT_SECS} s: {} took {:.2} s: batch it or make it online\n",
                t.name, t.secs
            ));
        }
    }
    let file = target_dir()
        .join("upgrade")
        .join(format!("migration-times-scale{scale}.md"));
    if let Some(dir) = file.parent() {
        let _ = fs::create_dir_all(dir);
    }
    fs::write(&file, &s).map_err(|e| format!("{}: {e}", file.display()))?;
    eprintln!("    the report is in {}", file.display());
    Ok((s, !over.is_empty()))
}

/// The data set at schema [`FILL_AFTER`], `scale` times: 200 accounts with 50 recipes each
/// (four fermentables, four hops, a yeast, two miscs, two mash steps), 20 inventory items each,
/// a brew session per recipe with its snapshot, 15 checklist steps (the generated titles:
/// "Bring to a boil", "Add 28 g Cascade at 60 min", "At flame-out: add 30 g Citra", …) and
/// 10 fermentation readings, chat threads with messages, sign-in failures, sessions and keys.
/// Ids are `md5(…)::uuid` of the row's kind and number, so every run loads the same rows.
pub fn fill_sql(scale: usize) -> String {
    let users = 200 * scale;
    let recipes = 10_000 * scale;
    format!(
        r#"
BEGIN;
INSERT INTO users (id, email, name, password_hash, created_at, updated_at)
SELECT md5('user' || u)::uuid,
       CASE WHEN u % 20 = 0 THEN 'jose' || U&'\0301' || u || '@example.com'
            ELSE 'brewer' || u || '@example.com' END,
       'Brewer ' || u,
       '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$0123456789abcdef0123456789abcdef0123456789a',
       now() - interval '400 days', now() - interval '400 days'
FROM generate_series(1, {users}) u;

INSERT INTO auth_sessions (id, user_id, token_hash, expires_at, created_at)
SELECT md5('auth' || u)::uuid, md5('user' || u)::uuid, sha256(('auth' || u)::bytea),
       now() + interval '20 days', now() - interval '10 days'
FROM generate_series(1, {users}) u;

INSERT INTO api_keys (id, user_id, name, key_hash, start, prefix, created_at, updated_at, last_used_at)
SELECT md5('key' || u || '-' || k)::uuid, md5('user' || u)::uuid, 'script ' || k,
       sha256(('key' || u || '-' || k)::bytea), 'wort_abc', 'wort_', now() - interval '100 days',
       now() - interval '100 days', now() - interval '1 day'
FROM generate_series(1, {users}) u, generate_series(1, 2) k;

INSERT INTO sign_in_failures (email, failures, window_start)
SELECT 'someone' || n || '@example.com', 1 + n % 9, now() - interval '5 minutes'
FROM generate_series(1, {users} * 5) n;

INSERT INTO recipes (id, user_id, name, style, type, batch_size_liters, boil_time_minutes,
                     efficiency, notes, created_at, updated_at)
SELECT md5('recipe' || r)::uuid, md5('user' || (1 + r % {users}))::uuid,
       (ARRAY['West Coast IPA', 'Dry Stout', 'Hefeweizen', 'Czech Pilsner', 'Saison'])[1 + r % 5] || ' ' || r,
       (ARRAY['American IPA', 'Irish Stout', 'Weissbier', 'Czech Premium Pale Lager', 'Saison'])[1 + r % 5],
       (ARRAY['all_grain', 'extract', 'partial_mash'])[1 + r % 3],
       19 + r % 10, 60 + 30 * (r % 2), 0.65 + (r % 15) / 100.0,
       CASE WHEN r % 3 = 0 THEN 'Notes on brew ' || r || ': mash a little warmer next time.' END,
       now() - (r || ' minutes')::interval, now() - (r || ' minutes')::interval
FROM generate_series(1, {recipes}) r;

INSERT INTO fermentables (id, user_id, recipe_id, name, type, amount_kg, color_srm, yield_percent,
                          origin, notes, sort_order, created_at)
SELECT md5('fermentable' || r || '-' || k)::uuid, md5('user' || (1 + r % {users}))::uuid,
       md5('recipe' || r)::uuid,
       (ARRAY['Pale Ale Malt', 'Munich Malt', 'Crystal 60', 'Wheat Malt'])[1 + k],
       'grain', 0.3 + (4 - k) * 1.1, (ARRAY[3, 9, 60, 2])[1 + k], 78, 'DE', NULL, k,
       now() - (r || ' minutes')::interval
FROM generate_series(1, {recipes}) r, generate_series(0, 3) k;

INSERT INTO hops (id, user_id, recipe_id, name, alpha_acid, amount_grams, time_minutes, use,
                  sort_order, created_at)
SELECT md5('hop' || r || '-' || k)::uuid, md5('user' || (1 + r % {users}))::uuid,
       md5('recipe' || r)::uuid,
       (ARRAY['Magnum', 'Cascade', 'Citra', 'Mosaic'])[1 + k], 5 + 2 * k, 20 + 10 * k,
       (ARRAY[60, 15, 0, 4])[1 + k], (ARRAY['boil', 'boil', 'aroma', 'dry_hop'])[1 + k], k,
       now() - (r || ' minutes')::interval
FROM generate_series(1, {recipes}) r, generate_series(0, 3) k;

INSERT INTO yeasts (id, user_id, recipe_id, name, lab, product_id, type, form, attenuation,
                    min_temp_c, max_temp_c, amount, amount_unit, notes, sort_order, created_at)
SELECT md5('yeast' || r)::uuid, md5('user' || (1 + r % {users}))::uuid, md5('recipe' || r)::uuid,
       'American Ale', 'Wyeast', '1056', 'ale', 'liquid', 75, 15, 22, 1, 'pkg', NULL, 0,
       now() - (r || ' minutes')::interval
FROM generate_series(1, {recipes}) r;

INSERT INTO miscs (id, user_id, recipe_id, name, type, use, amount, amount_unit, time_minutes,
                   notes, sort_order, created_at)
SELECT md5('misc' || r || '-' || k)::uuid, md5('user' || (1 + r % {users}))::uuid,
       md5('recipe' || r)::uuid, (ARRAY['Whirlfloc', 'Yeast nutrient'])[1 + k],
       (ARRAY['fining', 'other'])[1 + k], 'boil', 1 + k, (ARRAY['items', 'g'])[1 + k], 15 - 5 * k,
       NULL, k, now() - (r || ' minutes')::interval
FROM generate_series(1, {recipes}) r, generate_series(0, 1) k;

INSERT INTO mash_steps (id, user_id, recipe_id, name, type, temperature_c, duration_minutes,
                        infuse_amount_liters, ramp_minutes, sort_order, created_at)
SELECT md5('mash' || r || '-' || k)::uuid, md5('user' || (1 + r % {users}))::uuid,
       md5('recipe' || r)::uuid, (ARRAY['Saccharification', 'Mash out'])[1 + k],
       (ARRAY['infusion', 'temperature'])[1 + k], 66 + 10 * k, 60 - 50 * k,
       CASE WHEN k = 0 THEN 17 END, 10 * k, k, now() - (r || ' minutes')::interval
FROM generate_series(1, {recipes}) r, generate_series(0, 1) k;

INSERT INTO inventory_items (id, user_id, category, name, amount, amount_unit, type, form, origin,
                             alpha_acid, color_srm, yield_percent, attenuation, year, notes,
                             created_at, updated_at)
SELECT md5('inventory' || u || '-' || k)::uuid, md5('user' || u)::uuid,
       (ARRAY['fermentable', 'hop', 'yeast', 'misc'])[1 + k % 4], 'Item ' || k, k * 1.5,
       (ARRAY['kg', 'g', 'pkg', 'g'])[1 + k % 4], NULL, NULL, NULL,
       CASE WHEN k % 4 = 1 THEN 11.5 END, CASE WHEN k % 4 = 0 THEN 3 END,
       CASE WHEN k % 4 = 0 THEN 80 END, CASE WHEN k % 4 = 2 THEN 76 END, 2025, NULL,
       now() - interval '30 days', now() - interval '30 days'
FROM generate_series(1, {users}) u, generate_series(0, 19) k;

INSERT INTO brew_sessions (id, user_id, recipe_id, name, brew_date, status, measured_og,
                           measured_fg, measured_batch_size_liters, notes, recipe_snapshot,
                           brewing_started_at, fermenting_started_at, conditioning_started_at,
                           completed_at, abandoned_at, created_at, updated_at)
SELECT md5('session' || r)::uuid, md5('user' || (1 + r % {users}))::uuid, md5('recipe' || r)::uuid,
       'Brew day ' || r, (now() - (r % 300 || ' days')::interval)::date,
       (ARRAY['planned', 'brewing', 'fermenting', 'conditioning', 'completed', 'abandoned'])[1 + r % 6],
       1.050, CASE WHEN r % 6 >= 3 THEN 1.011 END, 21, NULL,
       jsonb_build_object(
           'id', md5('recipe' || r)::uuid, 'name', 'Recipe ' || r, 'style', 'American IPA',
           'type', 'all_grain', 'batch_size_liters', 23, 'boil_time_minutes', 60, 'efficiency', 0.72,
           'fermentables', (SELECT jsonb_agg(jsonb_build_object('name', 'Malt ' || k, 'amount_kg', 1.5 * k,
                                'color_srm', 3 * k, 'yield_percent', 78, 'type', 'grain'))
                            FROM generate_series(1, 4) k),
           'hops', (SELECT jsonb_agg(jsonb_build_object('name', 'Hop ' || k, 'alpha_acid', 10,
                        'amount_grams', 25, 'time_minutes', 15 * k, 'use', 'boil'))
                    FROM generate_series(1, 4) k),
           'yeasts', jsonb_build_array(jsonb_build_object('name', 'American Ale', 'attenuation', 75)),
           'miscs', '[]'::jsonb, 'mash_steps', '[]'::jsonb,
           'stats', jsonb_build_object('og', 1.052, 'fg', 1.012, 'abv', 5.3, 'ibu', 45, 'color_srm', 7)),
       now() - interval '20 days', CASE WHEN r % 6 >= 2 THEN now() - interval '19 days' END,
       CASE WHEN r % 6 >= 3 THEN now() - interval '5 days' END,
       CASE WHEN r % 6 = 4 THEN now() - interval '1 day' END,
       CASE WHEN r % 6 = 5 THEN now() - interval '1 day' END,
       now() - interval '21 days', now() - interval '1 day'
FROM generate_series(1, {recipes}) r;

INSERT INTO brew_steps (id, user_id, session_id, title, description, sort_order, duration_minutes,
                        completed, completed_at, created_at)
SELECT md5('step' || r || '-' || k)::uuid, md5('user' || (1 + r % {users}))::uuid,
       md5('session' || r)::uuid,
       CASE k
           WHEN 0 THEN 'Heat 17.2 L of strike water to 72.4 °C'
           WHEN 1 THEN 'Mash in: Saccharification at 66 °C for 60 min'
           WHEN 2 THEN 'Mash out at 76 °C for 10 min'
           WHEN 3 THEN 'Sparge with 14.1 L at 76 °C'
           WHEN 4 THEN 'Collect 27.4 L of wort'
           WHEN 5 THEN 'Bring to a boil'
           WHEN 6 THEN 'Add 10 g first-wort Magnum at 60 min'
           WHEN 7 THEN 'Add 28 g Magnum at 60 min'
           WHEN 8 THEN 'Add 1 items Whirlfloc at 15 min'
           WHEN 9 THEN 'Add 30 g Cascade at 15 min'
           WHEN 10 THEN 'Add 20.5 g Cascade at 7.5 min'
           WHEN 11 THEN 'At flame-out: add 40 g Citra'
           WHEN 12 THEN 'Chill to 19 °C'
           WHEN 13 THEN 'Pitch American Ale'
           ELSE 'Measure the original gravity'
       END,
       CASE WHEN k % 3 = 0 THEN 'Check the thermometer first' END, k,
       CASE WHEN k IN (1, 2, 5) THEN 60 END, r % 6 >= 2, CASE WHEN r % 6 >= 2 THEN now() - interval '19 days' END,
       now() - interval '21 days'
FROM generate_series(1, {recipes}) r, generate_series(0, 14) k;

INSERT INTO fermentation_logs (id, user_id, session_id, logged_at, gravity, gravity_unit,
                               temperature_c, ph, notes, created_at)
SELECT md5('reading' || r || '-' || k)::uuid, md5('user' || (1 + r % {users}))::uuid,
       md5('session' || r)::uuid, now() - ((19 - k) || ' days')::interval, 1.050 - 0.004 * k,
       (ARRAY['sg', 'plato', 'brix'])[1 + k % 3], 18 + k % 3, CASE WHEN k % 4 = 0 THEN 4.4 END,
       CASE WHEN k = 0 THEN 'Pitched at 18 °C' END, now() - ((19 - k) || ' days')::interval
FROM generate_series(1, {recipes}) r, generate_series(0, 9) k;

INSERT INTO ai_usage (user_id, day, messages, tokens)
SELECT md5('user' || u)::uuid, current_date - d, 5, 12000
FROM generate_series(1, {users}) u, generate_series(0, 9) d;

INSERT INTO chat_threads (id, user_id, recipe_id, title, created_at, updated_at)
SELECT md5('thread' || t)::uuid, md5('user' || (1 + t % {users}))::uuid, md5('recipe' || t)::uuid,
       'About recipe ' || t, now() - interval '3 days', now() - interval '3 days'
FROM generate_series(1, {users} * 10) t;

INSERT INTO chat_messages (id, user_id, thread_id, role, content, created_at)
SELECT md5('message' || t || '-' || k)::uuid, md5('user' || (1 + t % {users}))::uuid,
       md5('thread' || t)::uuid, (ARRAY['user', 'assistant'])[1 + k % 2],
       repeat('How do I make it drier? ', 10), now() - interval '3 days'
FROM generate_series(1, {users} * 10) t, generate_series(0, 9) k;
COMMIT;
"#
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn updates_are_rewrites_and_checked_columns_scans() {
        assert_eq!(
            classify(
                "-- UPDATE in a comment\nCREATE TABLE t (id int);",
                &["t".into()]
            ),
            Kind::Instant
        );
        assert_eq!(
            classify(
                "ALTER TABLE hops ADD COLUMN x double precision CHECK (x > 0);",
                &[]
            ),
            Kind::Scans
        );
        assert_eq!(classify("CREATE INDEX i ON hops (name);", &[]), Kind::Scans);
        assert_eq!(
            classify("CREATE INDEX i ON t (name);", &["t".into()]),
            Kind::Instant
        );
        assert_eq!(
            classify(
                "ALTER TABLE b ADD COLUMN q jsonb NOT NULL DEFAULT '[]';",
                &[]
            ),
            Kind::Instant
        );
        assert_eq!(
            classify("UPDATE brew_steps SET boil = true;", &[]),
            Kind::Rewrites
        );
        assert_eq!(
            classify(
                "DO $$ BEGIN IF x THEN UPDATE users SET a = 1; END IF; END $$;",
                &[]
            ),
            Kind::Rewrites
        );
        assert_eq!(
            classify("ALTER TABLE t ALTER COLUMN a TYPE bigint;", &[]),
            Kind::Rewrites
        );
    }

    #[test]
    fn no_migration_before_the_fill_rewrites_rows() {
        let list = migrations().unwrap_or_default();
        assert!(list.len() > 20);
        for m in list.iter().filter(|m| m.version.as_str() <= FILL_AFTER) {
            assert_ne!(
                classify(&m.up, &created_tables(&m.up)),
                Kind::Rewrites,
                "{}",
                m.name
            );
        }
        // and the first one after it does (else the fill point could move later)
        let first_after = list.iter().find(|m| m.version.as_str() > FILL_AFTER);
        assert!(
            first_after.is_some_and(|m| classify(&m.up, &created_tables(&m.up)) == Kind::Rewrites)
        );
    }
}
