//! `cargo xtask bench -- --readings-layout`: the readings table at tens of millions of rows,
//! laid out three ways and measured the same way.
//!
//! The data: [`SESSIONS`] fermentations of [`READINGS_EACH`] readings 15 minutes apart (a
//! hydrometer's pace), starting one after another over two years, so about 27 are fermenting at
//! any moment; the rows go in in time order, as a live installation writes them.
//!
//! The layouts:
//! - **btree** (wort's today): a heap, the primary key on `id`, and a B-tree on
//!   `(session_id, logged_at, id)`.
//! - **partitioned**: the same, partitioned by month of `logged_at` (the primary key must then
//!   hold `logged_at` too).
//! - **brin**: a heap, the primary key on `id`, a BRIN index on `logged_at` and a B-tree on
//!   `session_id` alone.
//!
//! Each is measured for its size, how long filling it took, and with pgbench (one client, so
//! the time is a query's own): a day of one session's chart, a whole session, its latest
//! reading, one new reading, and the month of everyone's readings a retention pass reads.

use std::fmt::Write as _;
use std::fs;
use std::path::Path;
use std::time::{Duration, Instant};

use wort_pgcluster::RunningCluster;

use super::{DATABASE, history::query, psql_stdin, sql, step};

const SESSIONS: u32 = 20_000;
const READINGS_EACH: u32 = 1_000;
/// Minutes between one session's start and the next's: 20,000 sessions over two years.
const STAGGER_MINUTES: f64 = 730.0 * 24.0 * 60.0 / SESSIONS as f64;
const SECS: u64 = 10;

struct Layout {
    name: &'static str,
    /// The table, without indexes.
    create: String,
    /// Its keys and indexes, built once the rows are in (faster than keeping them while
    /// loading; what one more row costs them is measured on its own).
    index: String,
}

fn layouts() -> Vec<Layout> {
    let columns = "id uuid NOT NULL, user_id uuid NOT NULL, session_id uuid NOT NULL, \
                   logged_at timestamptz NOT NULL, gravity double precision, \
                   temperature_c double precision, device_id uuid, created_at timestamptz NOT NULL";
    let mut partitions = String::new();
    for month in 0..26 {
        let _ = writeln!(
            partitions,
            "CREATE TABLE readings_partitioned_{month} PARTITION OF readings_partitioned \
             FOR VALUES FROM (timestamptz '2025-01-01' + interval '{month} month') \
             TO (timestamptz '2025-01-01' + interval '{} month');",
            month + 1
        );
    }
    vec![
        Layout {
            name: "btree",
            create: format!("CREATE TABLE readings_btree ({columns});"),
            index: "ALTER TABLE readings_btree ADD PRIMARY KEY (id);\n\
                    CREATE INDEX ON readings_btree (session_id, logged_at, id);"
                .into(),
        },
        Layout {
            name: "partitioned",
            create: format!(
                "CREATE TABLE readings_partitioned ({columns}) PARTITION BY RANGE (logged_at);\n\
                 {partitions}"
            ),
            index: "ALTER TABLE readings_partitioned ADD PRIMARY KEY (id, logged_at);\n\
                    CREATE INDEX ON readings_partitioned (session_id, logged_at, id);"
                .into(),
        },
        Layout {
            name: "brin",
            create: format!("CREATE TABLE readings_brin ({columns});"),
            index: "ALTER TABLE readings_brin ADD PRIMARY KEY (id);\n\
                    CREATE INDEX ON readings_brin USING brin (logged_at);\n\
                    CREATE INDEX ON readings_brin (session_id);"
                .into(),
        },
    ]
}

/// `session n`'s id and first reading's time, as SQL expressions of `n`.
fn session_id_sql(n: &str) -> String {
    format!("('c0000000-0000-4000-8000-' || lpad(to_hex(({n})::int), 12, '0'))::uuid")
}

fn session_start_sql(n: &str) -> String {
    format!("(timestamptz '2025-01-01' + (({n})::int * {STAGGER_MINUTES}) * interval '1 minute')")
}

pub fn measure(pg: &RunningCluster, pgbench: &Path, work: &Path) -> Result<String, String> {
    let rows = u64::from(SESSIONS) * u64::from(READINGS_EACH);
    let mut out = format!(
        "\n### The readings table at {:.0} million rows: three layouts\n\n{SESSIONS} \
         fermentations of {READINGS_EACH} readings 15 minutes apart, over two years, written in \
         time order, then indexed. Query times are pgbench's with one client ({SECS} s each), \
         in ms.\n\n\
         | layout | table + indexes | loaded and indexed in | a day of a session | a whole session | \
         latest reading | add a reading | a month of everyone's (count) |\n\
         |---|---|---|---|---|---|---|---|\n",
        rows as f64 / 1e6
    );
    let pgbench = sql::Pgbench {
        program: pgbench,
        socket_dir: pg.socket_dir(),
        port: pg.port(),
        database: DATABASE,
        clients: 1,
        threads: 1,
    };
    for layout in layouts() {
        step(&format!("readings layout: {}", layout.name));
        let table = format!("readings_{}", layout.name);
        psql_stdin(pg, &format!("\\set ON_ERROR_STOP on\n{}\n", layout.create))?;
        let started = Instant::now();
        psql_stdin(
            pg,
            &format!(
                "\\set ON_ERROR_STOP on\nSET work_mem = '256MB';\n\
                 INSERT INTO {table} (id, user_id, session_id, logged_at, gravity, temperature_c, device_id, created_at)\n\
                 SELECT gen_random_uuid(), {sid}, {sid}, t, 1.010 + 0.04 * exp(-k / 300.0), 18 + (k % 7) / 10.0, {sid}, t\n\
                 FROM (SELECT n, k, {start} + k * interval '15 minutes' AS t\n\
                       FROM generate_series(1, {SESSIONS}) n, generate_series(0, {READINGS_EACH} - 1) k) r\n\
                 ORDER BY t;\n\
                 SET maintenance_work_mem = '512MB';\n{index}\n\
                 VACUUM ANALYZE {table};\n",
                index = layout.index,
                sid = session_id_sql("n"),
                start = session_start_sql("n"),
            ),
        )?;
        let filled = started.elapsed().as_secs_f64();
        let size: f64 = query(
            pg,
            &format!(
                "SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c \
                 WHERE c.relname = '{table}' OR c.relname LIKE '{table}\\_%' AND c.relkind = 'r'"
            ),
        )?
        .parse()
        .map_err(|e| format!("size of {table}: {e}"))?;
        let sid = session_id_sql(":s");
        let start = session_start_sql(":s");
        let scripts = [
            format!(
                "\\set s random(1, {SESSIONS})\n\\set d random(0, 9)\n\
                 SELECT logged_at, gravity, temperature_c FROM {table} WHERE session_id = {sid} \
                 AND logged_at >= {start} + (:d)::int * interval '1 day' \
                 AND logged_at < {start} + ((:d)::int + 1) * interval '1 day' ORDER BY logged_at, id;\n"
            ),
            format!(
                "\\set s random(1, {SESSIONS})\n\
                 SELECT logged_at, gravity, temperature_c FROM {table} WHERE session_id = {sid} \
                 ORDER BY logged_at, id;\n"
            ),
            format!(
                "\\set s random(1, {SESSIONS})\n\
                 SELECT logged_at, gravity FROM {table} WHERE session_id = {sid} \
                 ORDER BY logged_at DESC, id DESC LIMIT 1;\n"
            ),
            format!(
                "\\set s random({}, {SESSIONS})\n\
                 INSERT INTO {table} (id, user_id, session_id, logged_at, gravity, temperature_c, created_at) \
                 VALUES (gen_random_uuid(), {sid}, {sid}, timestamptz '2027-01-31' + random() * interval '1 hour', 1.012, 18.5, now());\n",
                SESSIONS - 30
            ),
            format!(
                "\\set m random(1, 20)\n\
                 SELECT count(*) FROM {table} WHERE logged_at >= timestamptz '2025-01-01' + (:m)::int * interval '1 month' \
                 AND logged_at < timestamptz '2025-01-01' + ((:m)::int + 1) * interval '1 month';\n"
            ),
        ];
        let mut row = format!(
            "| {} | {:.0} MiB | {filled:.0} s |",
            layout.name,
            size / 1_048_576.0
        );
        for (i, script) in scripts.iter().enumerate() {
            let path = work.join(format!("layout-{}-{i}.sql", layout.name));
            fs::write(&path, script).map_err(|e| format!("{}: {e}", path.display()))?;
            let tps = pgbench.run(&path, true, Duration::from_secs(SECS))?;
            let _ = write!(row, " {:.3} |", 1000.0 / tps);
        }
        let _ = writeln!(out, "{row}");
        eprintln!("    {row}");
        // One layout at a time on disk.
        psql_stdin(pg, &format!("DROP TABLE {table};\n"))?;
    }
    Ok(out)
}
