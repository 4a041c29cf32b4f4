//! `cargo xtask bench -- --scale`: how a request's cost grows with the data around it.
//!
//! Three sizes, grown in place (the smallest is the standard bench seed):
//!
//! | size   | ordinary accounts | the heavy account's readings |
//! |--------|-------------------|------------------------------|
//! | small  | 1,000             | 100,000                      |
//! | medium | 10,000            | 1,000,000                    |
//! | large  | 100,000           | 10,000,000                   |
//!
//! Every ordinary account has 5 recipes of 15 children, a fermenting session of 100 readings
//! and 10 ingredients of its own in the catalogue, named as brewers name them (so a search
//! for "citra" meets every account's "Citra (2024 harvest)" in the shared index). At each size a
//! fresh wort serves every endpoint of the standard bench, catalogue search, a shopping list and
//! a 50-recipe export, each at a fixed rate ([`RATE`], open loop, latency from the intended send
//! time), three runs each; p50, p99 and the CPU wort and PostgreSQL spent per request
//! (`cpu`), medians of the runs. The storage each table takes is read at every size too.
//!
//! The goal: at the largest size every per-account endpoint's p50 and CPU per request within
//! 1.25× of the smallest's, its p99 within 1.5×.

use std::fmt::Write as _;
use std::fs;
use std::net::SocketAddr;
use std::path::Path;
use std::time::{Duration, Instant};

use wort_pgcluster::RunningCluster;

use super::load::{self, Request};
use super::{Kind, Series, Target, Wort, cpu, history::query, psql_stdin, seed, step};

/// The fixed rate of every endpoint (requests a second): moderate on 2 cores, so latency is the
/// request's own and not a queue's.
pub const RATE: f64 = 200.0;
/// The two heaviest answers (a 50-recipe export, a shopping list of 5 recipes) cost tens of
/// milliseconds of CPU each: at 200 a second they would need more than the machine's two cores
/// and measure the queue. They run at this rate instead.
const HEAVY_RATE: f64 = 20.0;
const RUNS: usize = 3;
const RUN_SECS: u64 = 5;
const WARMUP_SECS: u64 = 2;
/// Connections (a thread each) of the fixed-rate client.
const CONNECTIONS: usize = 8;
/// Goals at the largest size against the smallest.
const MAX_P50_RATIO: f64 = 1.25;
const MAX_CPU_RATIO: f64 = 1.25;
const MAX_P99_RATIO: f64 = 1.5;
/// Own catalogue items every account has (made through the API for the heavy account, copied
/// to the others).
const OWN_ITEMS: [(&str, &str); 10] = [
    ("hops", "Citra (2024 harvest)"),
    ("hops", "Cascade homegrown"),
    ("hops", "Mosaic cryo"),
    ("hops", "Saaz from the club order"),
    ("fermentables", "Maris Otter floor-malted"),
    ("fermentables", "Crystal 40 local"),
    ("fermentables", "Pilsner malt bulk"),
    ("yeasts", "US-05 washed"),
    ("yeasts", "Kveik Voss house"),
    ("miscs", "Irish moss tablets"),
];

#[derive(Clone, Copy, Debug)]
pub struct Size {
    pub name: &'static str,
    pub accounts: u32,
    pub heavy_readings: u32,
}

pub const SIZES: [Size; 3] = [
    Size {
        name: "small",
        accounts: seed::ORDINARY_ACCOUNTS,
        heavy_readings: seed::HEAVY_READINGS,
    },
    Size {
        name: "medium",
        accounts: 10_000,
        heavy_readings: 1_000_000,
    },
    Size {
        name: "large",
        accounts: 100_000,
        heavy_readings: 10_000_000,
    },
];

/// One endpoint measured at one size.
#[derive(Clone, Debug, Default)]
struct Point {
    p50: Series,
    p99: Series,
    /// µs of CPU (wort + PostgreSQL) per request.
    cpu: Series,
    errors: u64,
}

/// The tables a size's storage is read from, grouped by what a brewer owns.
const RECIPE_TABLES: [&str; 6] = [
    "recipes",
    "fermentables",
    "hops",
    "yeasts",
    "miscs",
    "mash_steps",
];

/// The endpoints: the standard bench's (without the hello ceiling) and three heavier reads.
fn endpoints(targets: &[Target]) -> Vec<(String, Request, f64)> {
    let heavy = Some(seed::heavy_key());
    let mut list: Vec<(String, Request, f64)> = targets
        .iter()
        .filter(|t| t.kind != Kind::Hello && !t.missing)
        .map(|t| {
            let label = match t.kind {
                Kind::Light { .. } => format!("{} (1-recipe account)", t.label),
                _ => t.label.to_owned(),
            };
            (label, t.request.clone(), RATE)
        })
        .collect();
    let get = |path: String| Request {
        method: "GET",
        path,
        api_key: heavy.clone(),
        body: None,
    };
    list.push((
        "GET /v1/catalog/hops?q=citra".into(),
        get("/v1/catalog/hops?q=citra".into()),
        RATE,
    ));
    let recipes: String = (1..=5)
        .map(|n| format!("recipe_id={}", seed::heavy_recipe(n * 1_000)))
        .collect::<Vec<_>>()
        .join("&");
    list.push((
        "GET /v1/shopping-list (5 recipes)".into(),
        get(format!("/v1/shopping-list?{recipes}")),
        HEAVY_RATE,
    ));
    list.push((
        "GET /v1/recipes/export?limit=50 (BeerJSON)".into(),
        get("/v1/recipes/export?format=beerjson&limit=50".into()),
        HEAVY_RATE,
    ));
    list
}

/// The whole scale run on a cluster already migrated and seeded with the standard seed (the
/// smallest size). `sizes` limits the run to the first few sizes (a quick look).
pub fn measure(
    pg: &RunningCluster,
    wort_bin: &Path,
    work: &Path,
    database_url: &str,
    targets: &[Target],
    sizes: usize,
) -> Result<String, String> {
    let sizes = SIZES.get(..sizes.clamp(1, SIZES.len())).unwrap_or(&SIZES);
    let endpoints = endpoints(targets);
    let mut points: Vec<Vec<Point>> = vec![Vec::new(); endpoints.len()];
    let mut storage = Vec::new();
    let mut seeding = Vec::new();
    let mut previous: Option<Size> = None;
    for size in sizes {
        if let Some(before) = previous {
            step(&format!(
                "scale: grow to {} accounts, {} readings",
                size.accounts, size.heavy_readings
            ));
            let started = Instant::now();
            grow(pg, before, *size)?;
            seeding.push((size.name, started.elapsed().as_secs_f64()));
        }
        let server = Wort::start(
            wort_bin,
            work,
            database_url,
            16,
            &work.join(format!("wort-scale-{}.log", size.name)),
        )?;
        if previous.is_none() {
            own_catalogue_items(server.addr)?;
            copy_own_items(pg)?;
        }
        storage.push((*size, storage_of(pg)?));
        let pid = server.process.id().ok_or("wort has exited")?;
        let meters = cpu::CpuMeters::new(pid, pg.data_dir())?;
        step(&format!("scale: measure at the {} size", size.name));
        for (i, (label, request, rate)) in endpoints.iter().enumerate() {
            let point = measure_endpoint(server.addr, &meters, request, *rate)?;
            eprintln!(
                "    {label}: p50 {:.2} ms, p99 {:.2} ms, {:.0} µs CPU, {} errors",
                point.p50.median(),
                point.p99.median(),
                point.cpu.median(),
                point.errors
            );
            if let Some(list) = points.get_mut(i) {
                list.push(point);
            }
        }
        server.stop()?;
        previous = Some(*size);
    }
    let plot = plot_svg(sizes, &endpoints, &points);
    let plot_file = crate::target_dir().join("bench").join("scale.svg");
    if let Some(dir) = plot_file.parent() {
        fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    fs::write(&plot_file, plot).map_err(|e| format!("{}: {e}", plot_file.display()))?;
    Ok(report(sizes, &endpoints, &points, &storage, &seeding))
}

fn measure_endpoint(
    addr: SocketAddr,
    meters: &cpu::CpuMeters,
    request: &Request,
    rate: f64,
) -> Result<Point, String> {
    let first = load::once(addr, request)?;
    if !(200..300).contains(&first.status) {
        return Err(format!(
            "{} {} answered {}: {}",
            request.method,
            request.path,
            first.status,
            String::from_utf8_lossy(&first.body)
        ));
    }
    let connections = CONNECTIONS.min(rate as usize).max(1);
    load::fixed_rate(
        addr,
        request,
        rate,
        Duration::from_secs(WARMUP_SECS),
        connections,
    )?;
    let mut point = Point::default();
    for _ in 0..RUNS {
        let before = meters.read()?;
        let run = load::fixed_rate(
            addr,
            request,
            rate,
            Duration::from_secs(RUN_SECS),
            connections,
        )?;
        let spent = meters.read()? - before;
        point.p50.0.push(run.p50_ms);
        point.p99.0.push(run.p99_ms);
        let requests = run.requests.max(1) as f64;
        point
            .cpu
            .0
            .push((spent.wort + spent.postgres) * 1e6 / requests);
        point.errors += run.errors;
    }
    Ok(point)
}

/// Adds the ordinary accounts and heavy readings between `from` and `to`, in one transaction,
/// then vacuums and checkpoints, so that writing out the grown data is not billed to the
/// requests measured next.
pub(super) fn grow(pg: &RunningCluster, from: Size, to: Size) -> Result<(), String> {
    let accounts = seed::ordinary_accounts_sql(from.accounts + 1, to.accounts);
    let readings = seed::heavy_readings_sql(from.heavy_readings, to.heavy_readings);
    let items = copy_own_items_sql();
    psql_stdin(
        pg,
        &format!(
            "\\set ON_ERROR_STOP on\nBEGIN;\n{accounts}\n{readings}\n{items}\nCOMMIT;\nVACUUM ANALYZE;\n\
             CHECKPOINT;\n"
        ),
    )
}

/// The heavy account's own catalogue items, made through the API so they are folded and
/// indexed exactly as a brewer's would be.
fn own_catalogue_items(addr: SocketAddr) -> Result<(), String> {
    for (kind, name) in OWN_ITEMS {
        let request = Request {
            method: "POST",
            path: format!("/v1/catalog/{kind}"),
            api_key: Some(seed::heavy_key()),
            body: Some(format!(r#"{{"name":"{name}"}}"#)),
        };
        let created = load::once(addr, &request)?;
        if created.status != 201 {
            return Err(format!(
                "POST /v1/catalog/{kind} answered {}: {}",
                created.status,
                String::from_utf8_lossy(&created.body)
            ));
        }
    }
    Ok(())
}

fn copy_own_items(pg: &RunningCluster) -> Result<(), String> {
    psql_stdin(
        pg,
        &format!(
            "\\set ON_ERROR_STOP on\n{}\nVACUUM ANALYZE catalog_items;\nCHECKPOINT;\n",
            copy_own_items_sql()
        ),
    )
}

/// Copies the heavy account's own catalogue items to every ordinary account without any.
fn copy_own_items_sql() -> String {
    format!(
        r#"
INSERT INTO catalog_items (id, user_id, kind, name, aliases, details, notes, folded_name, folded_names, search_text, created_at, updated_at)
SELECT gen_random_uuid(), u.id, c.kind, c.name, c.aliases, c.details, c.notes, c.folded_name, c.folded_names, c.search_text, c.created_at, c.updated_at
FROM users u CROSS JOIN catalog_items c
WHERE c.user_id = '{heavy}' AND u.email LIKE 'brewer%'
  AND NOT EXISTS (SELECT 1 FROM catalog_items x WHERE x.user_id = u.id);
"#,
        heavy = seed::HEAVY_USER
    )
}

/// Rows and bytes (heap, TOAST and indexes) of a table.
#[derive(Clone, Copy, Debug, Default)]
struct TableSize {
    rows: f64,
    bytes: f64,
}

fn storage_of(pg: &RunningCluster) -> Result<Vec<(String, TableSize)>, String> {
    let text = query(
        pg,
        "SELECT c.relname, c.reltuples::bigint, pg_total_relation_size(c.oid) \
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace \
         WHERE n.nspname = 'public' AND c.relkind = 'r' ORDER BY 3 DESC",
    )?;
    Ok(text
        .lines()
        .filter_map(|line| {
            let mut parts = line.split('|');
            let name = parts.next()?.to_owned();
            let rows = parts.next()?.parse::<f64>().ok()?;
            let bytes = parts.next()?.parse::<f64>().ok()?;
            Some((name, TableSize { rows, bytes }))
        })
        .collect())
}

fn ratio(points: &[Point], of: impl Fn(&Point) -> f64) -> f64 {
    match (points.first(), points.last()) {
        (Some(first), Some(last)) => of(last) / of(first),
        _ => f64::NAN,
    }
}

fn report(
    sizes: &[Size],
    endpoints: &[(String, Request, f64)],
    points: &[Vec<Point>],
    storage: &[(Size, Vec<(String, TableSize)>)],
    seeding: &[(&str, f64)],
) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "\n### Scale: cost as the data grows\n");
    let names: Vec<String> = sizes
        .iter()
        .map(|s| {
            format!(
                "{} ({} accounts, {} readings)",
                s.name, s.accounts, s.heavy_readings
            )
        })
        .collect();
    let _ = writeln!(
        out,
        "Sizes: {}. Each endpoint at a fixed rate ({RATE:.0} requests/s; the export and the \
         shopping list {HEAVY_RATE:.0}/s), {RUNS} runs of {RUN_SECS} s, medians. CPU is wort's \
         and PostgreSQL's per request. Ratios: the largest size against the smallest (goals: \
         p50 and CPU ≤ {MAX_P50_RATIO}×, p99 ≤ {MAX_P99_RATIO}×).\n",
        names.join(", ")
    );
    let mut head = String::from("| endpoint |");
    let mut rule = String::from("|---|");
    for size in sizes {
        let _ = write!(head, " p50 / p99 ms, CPU µs ({}) |", size.name);
        rule.push_str("---|");
    }
    head.push_str(" p50 × | p99 × | CPU × | errors |");
    rule.push_str("---|---|---|---|");
    let _ = writeln!(out, "{head}\n{rule}");
    let mut missed = Vec::new();
    for ((label, _, _), list) in endpoints.iter().zip(points) {
        let mut row = format!("| {label} |");
        for point in list {
            let _ = write!(
                row,
                " {:.2} / {:.2}, {:.0} |",
                point.p50.median(),
                point.p99.median(),
                point.cpu.median()
            );
        }
        let p50 = ratio(list, |p| p.p50.median());
        let p99 = ratio(list, |p| p.p99.median());
        let cpu = ratio(list, |p| p.cpu.median());
        let errors: u64 = list.iter().map(|p| p.errors).sum();
        let _ = writeln!(row, " {p50:.2} | {p99:.2} | {cpu:.2} | {errors} |");
        out.push_str(&row);
        if p50 > MAX_P50_RATIO || p99 > MAX_P99_RATIO || cpu > MAX_CPU_RATIO || errors > 0 {
            missed.push(label.as_str());
        }
    }
    if sizes.len() > 1 {
        if missed.is_empty() {
            let _ = writeln!(out, "\nEvery endpoint within the goals.");
        } else {
            let _ = writeln!(out, "\nOutside the goals: {}.", missed.join("; "));
        }
    }
    let _ = writeln!(out, "\nThe plot: `target/bench/scale.svg`.");
    for (name, secs) in seeding {
        let _ = writeln!(out, "Growing to the {name} size took {secs:.0} s.");
    }
    out.push_str(&storage_report(storage));
    out
}

/// Bytes per recipe (with its children), session, reading and own catalogue item, indexes
/// included, and the whole database, at each size.
fn storage_report(storage: &[(Size, Vec<(String, TableSize)>)]) -> String {
    let mut out = String::from(
        "\n#### Storage (heap, TOAST and indexes)\n\n| size | bytes per recipe (15 children) \
         | per session | per reading | per own catalogue item | readings table | whole \
         database |\n|---|---|---|---|---|---|---|\n",
    );
    for (size, tables) in storage {
        let get = |name: &str| {
            tables
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, t)| *t)
                .unwrap_or_default()
        };
        let recipes = get("recipes").rows.max(1.0);
        let recipe_bytes: f64 = RECIPE_TABLES.iter().map(|t| get(t).bytes).sum();
        let sessions = get("brew_sessions");
        let readings = get("fermentation_logs");
        let items = get("catalog_items");
        let total: f64 = tables.iter().map(|(_, t)| t.bytes).sum();
        let _ = writeln!(
            out,
            "| {} | {:.0} | {:.0} | {:.0} | {:.0} | {:.0} MiB ({:.1} M rows) | {:.0} MiB |",
            size.name,
            recipe_bytes / recipes,
            sessions.bytes / sessions.rows.max(1.0),
            readings.bytes / readings.rows.max(1.0),
            items.bytes / items.rows.max(1.0),
            readings.bytes / 1_048_576.0,
            readings.rows / 1e6,
            total / 1_048_576.0,
        );
    }
    out
}

/// A line plot of each endpoint's p50 against the smallest size's (1.0), with the goal drawn.
fn plot_svg(sizes: &[Size], endpoints: &[(String, Request, f64)], points: &[Vec<Point>]) -> String {
    const W: f64 = 1000.0;
    const H: f64 = 420.0;
    const LEFT: f64 = 60.0;
    const RIGHT: f64 = 420.0;
    /// Room at either end of the x axis for the sizes' labels.
    const PAD: f64 = 80.0;
    const TOP: f64 = 30.0;
    const BOTTOM: f64 = 60.0;
    const COLOURS: [&str; 8] = [
        "#1b6ca8", "#d1495b", "#2e933c", "#edae49", "#6c4ab6", "#00798c", "#8d6a9f", "#5c5c5c",
    ];
    // Ratios above this are drawn at the top edge with their value written beside them, so one
    // endpoint far off the goal does not flatten every other line.
    const Y_CAP: f64 = 3.0;
    let y_max = points
        .iter()
        .flat_map(|list| {
            let base = list.first().map_or(1.0, |p| p.p50.median());
            list.iter().map(move |p| p.p50.median() / base)
        })
        .filter(|v| v.is_finite())
        .fold(1.5_f64, f64::max)
        .ceil()
        .min(Y_CAP);
    let plot_w = W - LEFT - RIGHT;
    let plot_h = H - TOP - BOTTOM;
    let x =
        |i: usize| LEFT + PAD + (plot_w - 2.0 * PAD) * i as f64 / (sizes.len().max(2) - 1) as f64;
    let y = |v: f64| TOP + plot_h * (1.0 - v / y_max);
    let mut svg = format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" font-family="sans-serif" font-size="12">
<rect width="{W}" height="{H}" fill="#fff"/>
<text x="{LEFT}" y="18" font-size="14">p50 latency at each size, relative to the smallest (1.0)</text>
"##
    );
    let mut tick = 0.0;
    while tick <= y_max + 1e-9 {
        let _ = writeln!(
            svg,
            r##"<line x1="{LEFT}" x2="{}" y1="{y:.1}" y2="{y:.1}" stroke="#ddd"/><text x="{}" y="{:.1}" text-anchor="end">{tick:.1}</text>"##,
            LEFT + plot_w,
            LEFT - 6.0,
            y(tick) + 4.0,
            y = y(tick)
        );
        tick += 0.5;
    }
    let _ = writeln!(
        svg,
        r##"<line x1="{LEFT}" x2="{}" y1="{y:.1}" y2="{y:.1}" stroke="#d1495b" stroke-dasharray="6 4"/><text x="{}" y="{:.1}" fill="#d1495b">goal 1.25×</text>"##,
        LEFT + plot_w,
        LEFT + plot_w - 70.0,
        y(MAX_P50_RATIO) - 4.0,
        y = y(MAX_P50_RATIO)
    );
    for (i, size) in sizes.iter().enumerate() {
        let _ = writeln!(
            svg,
            r##"<text x="{x:.1}" y="{}" text-anchor="middle"><tspan x="{x:.1}">{}</tspan><tspan x="{x:.1}" dy="14">{}k accounts</tspan><tspan x="{x:.1}" dy="14">{}k readings</tspan></text>"##,
            H - BOTTOM + 18.0,
            size.name,
            size.accounts / 1000,
            size.heavy_readings / 1000,
            x = x(i),
        );
    }
    for (n, ((label, _, _), list)) in endpoints.iter().zip(points).enumerate() {
        let colour = COLOURS.get(n % COLOURS.len()).copied().unwrap_or("#000");
        let dash = if n >= COLOURS.len() {
            r#" stroke-dasharray="2 3""#
        } else {
            ""
        };
        let base = list.first().map_or(1.0, |p| p.p50.median());
        let coords: Vec<String> = list
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let ratio = p.p50.median() / base;
                if ratio > y_max {
                    let _ = writeln!(
                        svg,
                        r##"<text x="{:.1}" y="{:.1}" fill="{colour}" text-anchor="end">×{ratio:.0}</text>"##,
                        x(i) - 4.0,
                        y(y_max) + 14.0
                    );
                }
                format!("{:.1},{:.1}", x(i), y(ratio.min(y_max)))
            })
            .collect();
        let _ = writeln!(
            svg,
            r##"<polyline fill="none" stroke="{colour}" stroke-width="2"{dash} points="{}"/>"##,
            coords.join(" ")
        );
        let ly = TOP + 16.0 * n as f64;
        let _ = writeln!(
            svg,
            r##"<line x1="{}" x2="{}" y1="{ly:.1}" y2="{ly:.1}" stroke="{colour}" stroke-width="2"{dash}/><text x="{}" y="{:.1}">{}</text>"##,
            W - RIGHT + 15.0,
            W - RIGHT + 35.0,
            W - RIGHT + 40.0,
            ly + 4.0,
            label.replace('&', "&amp;").replace('<', "&lt;")
        );
    }
    svg.push_str("</svg>\n");
    svg
}
