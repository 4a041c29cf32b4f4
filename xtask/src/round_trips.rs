//! `cargo xtask round-trips [--update]`: a guard on the SQL each main endpoint sends.
//!
//! On a private PostgreSQL cluster migrated and seeded like the bench's (`bench::seed`), a debug
//! `wort` with one pooled connection, behind the bench's round-trip-counting proxy, serves warm
//! requests to the bench's endpoints and a few more main reads ([`bench::capture`]). Each
//! endpoint's statements and round trips are compared with [`FILE`]: any that grew, or an
//! endpoint missing on either side, fails the guard; one that shrank passes with a reminder to
//! update the file. `--update` writes the measured counts instead.
//!
//! Counts, not times: they are the same on every machine and in every build mode, so the guard
//! can run in `cargo xtask test` and fail on one extra round trip.

use std::{fs, path::PathBuf, process::ExitCode, time::Instant};

use wort_pgcluster::ClusterOptions;

use crate::bench::{self, capture::Recorder, load::Request, seed};
use crate::cluster::{TestCluster, sweep_orphans};
use crate::process::build_debug_wort;

/// The committed counts, relative to the workspace root.
const FILE: &str = "xtask/round-trips.txt";
/// Guard clusters live in `$TMPDIR/wort-round-trips-<pid>-<nanos>`.
const DIR_PREFIX: &str = "wort-round-trips-";
const UPDATE: &str = "cargo xtask round-trips --update";

const USAGE: &str = "usage: cargo xtask round-trips [-- --update]

  Measures the SQL statements and round trips of one warm request to each main endpoint on the
  bench's data set, and compares them with xtask/round-trips.txt: fails when any grew or an
  endpoint is missing.

  --update   write the measured counts to xtask/round-trips.txt instead";

/// The file's header: what it is and how to change it.
const HEADER: &str = "\
# SQL per request: the statements and round trips of one warm request to each endpoint, on
# the bench's data set (xtask/src/bench/seed.rs), written by `cargo xtask round-trips --update`
# (statements from PostgreSQL's log, round trips counted on the wire). `cargo xtask test` fails
# when an endpoint's statements or round trips grow, or an endpoint is missing. Counts, not
# times: they do not depend on the machine. After a change that lowers a count (or one that
# needs more SQL on purpose), run `cargo xtask round-trips --update` and commit this file with
# the change.
#
# statements  trips  endpoint
";

pub fn run(args: &[String]) -> ExitCode {
    let mut update = false;
    for arg in args {
        match arg.as_str() {
            "--update" => update = true,
            "-h" | "--help" => {
                eprintln!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            other => {
                eprintln!("xtask round-trips: unknown option {other}\n\n{USAGE}");
                return ExitCode::from(2);
            }
        }
    }
    let started = Instant::now();
    let result = guard(update);
    let took = started.elapsed().as_secs_f64();
    match result {
        Ok(()) => {
            eprintln!("xtask round-trips: ok ({took:.0} s)");
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("xtask round-trips: {error} ({took:.0} s)");
            ExitCode::FAILURE
        }
    }
}

/// The step of `cargo xtask test`: measure and compare, never write.
pub fn check() -> Result<(), String> {
    guard(false)
}

fn step(what: &str) {
    eprintln!("==> round-trips: {what}");
}

fn file() -> PathBuf {
    crate::workspace_root().join(FILE)
}

fn guard(update: bool) -> Result<(), String> {
    sweep_orphans(DIR_PREFIX);
    step("build wort (debug)");
    let wort_bin = build_debug_wort()?;
    let measured = measure(&wort_bin)?;
    let path = file();
    let expected = match fs::read_to_string(&path) {
        Ok(text) => parse(&text).map_err(|e| format!("{FILE}: {e}"))?,
        Err(e) if update && e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    let verdict = compare(&expected, &measured);
    if update {
        for line in verdict.lines() {
            eprintln!("    {line}");
        }
        fs::write(&path, render(&measured)).map_err(|e| format!("{}: {e}", path.display()))?;
        eprintln!("    wrote {FILE} ({} endpoints)", measured.len());
        return Ok(());
    }
    for line in verdict.lines() {
        eprintln!("    {line}");
    }
    if !verdict.passed() {
        return Err(format!(
            "the SQL of some endpoints grew or their list changed (above). Fewer statements and \
             round trips are the aim; if the change needs them, run `{UPDATE}` and commit {FILE}"
        ));
    }
    if !verdict.shrunk.is_empty() {
        eprintln!(
            "    fewer than {FILE} says: run `{UPDATE}` and commit it, so the guard holds the \
             new counts"
        );
    }
    Ok(())
}

/// The endpoints guarded: the bench's, then main reads the bench does not load, all on the
/// heavy account (10,000 recipes).
fn endpoints() -> Vec<(String, Request)> {
    let recipe = seed::heavy_recipe(seed::HEAVY_RECIPES / 2);
    let get = |label: &str, path: String| {
        let request = Request {
            method: "GET",
            path,
            api_key: Some(seed::heavy_key()),
            body: None,
        };
        (label.to_owned(), request)
    };
    let mut all = bench::endpoints();
    all.extend([
        get("GET /v1/home", "/v1/home".into()),
        get("GET /v1/sessions", "/v1/sessions".into()),
        get(
            "GET /v1/recipes/{id}/versions",
            format!("/v1/recipes/{recipe}/versions"),
        ),
        get(
            "GET /v1/shopping-list?recipe_id={id}",
            format!("/v1/shopping-list?recipe_id={recipe}"),
        ),
    ]);
    all
}

/// Every endpoint's counts, on a cluster of its own (stopped and deleted on every way out).
fn measure(wort_bin: &std::path::Path) -> Result<Vec<Count>, String> {
    step("postgres");
    let options = ClusterOptions {
        ephemeral: true,
        max_connections: Some(20),
    };
    let cluster = TestCluster::start(DIR_PREFIX, bench::DATABASE, options)?;
    let result = measure_on(&cluster, wort_bin);
    let finished = cluster.finish();
    let counts = result?;
    finished?;
    Ok(counts)
}

fn measure_on(cluster: &TestCluster, wort_bin: &std::path::Path) -> Result<Vec<Count>, String> {
    let work = cluster.dir.join("round-trips");
    fs::create_dir_all(&work).map_err(|e| format!("{}: {e}", work.display()))?;
    bench::migrate_and_seed(cluster, wort_bin, &work)?;
    step("one warm request per endpoint");
    let recorder = Recorder::start(cluster.running()?, &cluster.dir, wort_bin, &work)?;
    let mut counts = Vec::new();
    for (label, request) in endpoints() {
        let Some(recorded) = recorder.record(&label, &request)? else {
            return Err(format!(
                "{label} answered 404: its route or the seed changed; fix its request in \
                 xtask/src/round_trips.rs or xtask/src/bench.rs"
            ));
        };
        counts.push(Count {
            statements: recorded.statements.len(),
            trips: recorded.trips.len(),
            label,
        });
    }
    recorder.finish()?;
    Ok(counts)
}

// ---- The file and the comparison (pure) --------------------------------------------------------

/// One endpoint's line: what one warm request sends to PostgreSQL.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Count {
    statements: usize,
    trips: usize,
    label: String,
}

impl Count {
    fn describe(&self) -> String {
        let plural =
            |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        format!(
            "{} in {}",
            plural(self.statements, "statement", "statements"),
            plural(self.trips, "round trip", "round trips")
        )
    }
}

/// The file's text: the header, then `statements trips endpoint`, one line each, in order.
fn render(counts: &[Count]) -> String {
    let mut out = HEADER.to_owned();
    for c in counts {
        out.push_str(&format!(
            "{:>12} {:>6}  {}\n",
            c.statements, c.trips, c.label
        ));
    }
    out
}

/// The counts in the file's text; blank lines and `#` comments are skipped.
fn parse(text: &str) -> Result<Vec<Count>, String> {
    let mut counts: Vec<Count> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let malformed = || {
            format!(
                "line {}: `{line}` is not `<statements> <round trips> <endpoint>`",
                i + 1
            )
        };
        let mut rest = line;
        let mut number = || -> Option<usize> {
            let (word, after) = rest.split_once(char::is_whitespace)?;
            rest = after.trim_start();
            word.parse().ok()
        };
        let (Some(statements), Some(trips)) = (number(), number()) else {
            return Err(malformed());
        };
        let label = rest.trim();
        if label.is_empty() {
            return Err(malformed());
        }
        if counts.iter().any(|c| c.label == label) {
            return Err(format!("line {}: `{label}` is listed twice", i + 1));
        }
        counts.push(Count {
            statements,
            trips,
            label: label.to_owned(),
        });
    }
    Ok(counts)
}

/// What changed between the file and a measurement, one message per endpoint.
#[derive(Debug, Default)]
struct Verdict {
    /// More statements or more round trips than the file says (fails).
    grown: Vec<String>,
    /// In the file, not measured (fails).
    missing: Vec<String>,
    /// Measured, not in the file (fails: the file must guard every endpoint).
    unlisted: Vec<String>,
    /// Fewer and none more (passes; the file should be updated).
    shrunk: Vec<String>,
}

impl Verdict {
    fn passed(&self) -> bool {
        self.grown.is_empty() && self.missing.is_empty() && self.unlisted.is_empty()
    }

    /// Every message, the failures first.
    fn lines(&self) -> impl Iterator<Item = &String> {
        self.grown
            .iter()
            .chain(&self.missing)
            .chain(&self.unlisted)
            .chain(&self.shrunk)
    }
}

fn compare(expected: &[Count], measured: &[Count]) -> Verdict {
    let mut verdict = Verdict::default();
    for old in expected {
        let Some(new) = measured.iter().find(|m| m.label == old.label) else {
            verdict.missing.push(format!(
                "{}: MISSING: {FILE} has {}, nothing was measured",
                old.label,
                old.describe()
            ));
            continue;
        };
        let change = format!("{} → now {}", old.describe(), new.describe());
        if new.statements > old.statements || new.trips > old.trips {
            verdict
                .grown
                .push(format!("{}: GREW: {FILE} has {change}", old.label));
        } else if new.statements < old.statements || new.trips < old.trips {
            verdict
                .shrunk
                .push(format!("{}: fewer: {FILE} has {change}", old.label));
        }
    }
    for new in measured {
        if !expected.iter().any(|e| e.label == new.label) {
            verdict.unlisted.push(format!(
                "{}: NOT IN {FILE}: measured {}",
                new.label,
                new.describe()
            ));
        }
    }
    verdict
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use super::*;

    fn count(statements: usize, trips: usize, label: &str) -> Count {
        Count {
            statements,
            trips,
            label: label.to_owned(),
        }
    }

    #[test]
    fn the_rendered_file_parses_back() {
        let counts = vec![
            count(0, 0, "GET /v1/me"),
            count(3, 2, "GET /v1/recipes?limit=50"),
            count(5, 4, "POST /ingest/{token}"),
            count(3, 1, "GET /v1/recipes?limit=50 [1-recipe account]"),
        ];
        let text = render(&counts);
        assert!(text.starts_with("# SQL per request"));
        assert!(text.contains("\n           3      2  GET /v1/recipes?limit=50\n"));
        assert_eq!(parse(&text).unwrap(), counts);
    }

    #[test]
    fn parse_skips_comments_and_blank_lines_and_keeps_labels_whole() {
        let text = "# a comment\n\n  2 1   GET /v1/sessions/{id}/fermentation-logs (one day)  \n";
        assert_eq!(
            parse(text).unwrap(),
            vec![count(
                2,
                1,
                "GET /v1/sessions/{id}/fermentation-logs (one day)"
            )]
        );
        assert_eq!(parse("# nothing\n").unwrap(), vec![]);
    }

    #[test]
    fn parse_names_the_bad_line() {
        for (text, line) in [
            ("1 1 GET /a\nx 1 GET /b\n", "line 2"),
            ("1 GET /a\n", "line 1"),
            ("1 1\n", "line 1"),
            ("# c\n1 1    \n", "line 2"),
            ("-1 1 GET /a\n", "line 1"),
        ] {
            let error = parse(text).unwrap_err();
            assert!(error.starts_with(line), "{text:?}: {error}");
        }
        let twice = parse("1 1 GET /a\n2 2 GET /a\n").unwrap_err();
        assert!(
            twice.contains("line 2") && twice.contains("twice"),
            "{twice}"
        );
    }

    #[test]
    fn equal_counts_pass_silently() {
        let counts = vec![count(1, 1, "GET /a"), count(0, 0, "GET /b")];
        let verdict = compare(&counts, &counts);
        assert!(verdict.passed());
        assert_eq!(verdict.lines().count(), 0);
    }

    #[test]
    fn more_statements_or_more_trips_fail_with_both_counts() {
        let expected = vec![count(3, 2, "GET /a"), count(3, 2, "GET /b")];
        let measured = vec![count(4, 2, "GET /a"), count(2, 3, "GET /b")];
        let verdict = compare(&expected, &measured);
        assert!(!verdict.passed());
        assert_eq!(
            verdict.grown,
            vec![
                format!(
                    "GET /a: GREW: {FILE} has 3 statements in 2 round trips → now 4 statements \
                     in 2 round trips"
                ),
                format!(
                    "GET /b: GREW: {FILE} has 3 statements in 2 round trips → now 2 statements \
                     in 3 round trips"
                ),
            ]
        );
        assert!(verdict.shrunk.is_empty());
    }

    #[test]
    fn fewer_pass_and_are_reported() {
        let verdict = compare(&[count(3, 2, "GET /a")], &[count(3, 1, "GET /a")]);
        assert!(verdict.passed());
        assert_eq!(verdict.shrunk.len(), 1);
        assert!(verdict.shrunk[0].contains("→ now 3 statements in 1 round trip"));
    }

    #[test]
    fn an_endpoint_missing_on_either_side_fails() {
        let verdict = compare(&[count(1, 1, "GET /a")], &[count(1, 1, "GET /b")]);
        assert!(!verdict.passed());
        assert_eq!(verdict.missing.len(), 1);
        assert!(verdict.missing[0].starts_with("GET /a: MISSING"));
        assert_eq!(verdict.unlisted.len(), 1);
        assert!(verdict.unlisted[0].starts_with("GET /b: NOT IN"));
    }

    #[test]
    fn the_guarded_labels_are_unique() {
        let labels: Vec<String> = endpoints().into_iter().map(|(label, _)| label).collect();
        for label in &labels {
            assert_eq!(labels.iter().filter(|l| *l == label).count(), 1, "{label}");
        }
    }
}
