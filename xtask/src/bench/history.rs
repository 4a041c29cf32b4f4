//! Recipe history: what a version costs, how history grows for a recipe edited a thousand
//! times, and what an edit costs with versions kept.
//!
//! A full recipe (8 fermentables, 6 hops, 2 yeasts, 4 other ingredients, 3 mash steps, 3 water
//! additions, 2 fermentation steps) is created in the light account and edited 1,000 times
//! twice over:
//! - in one sitting (every edit within ten minutes of the first: they coalesce into one
//!   version, the way an autosaving editor works);
//! - each edit closed as its own version (`POST …/versions` after every edit: the worst case,
//!   as if every edit came more than ten minutes after the last).
//!
//! Then the table's size (rows, TOASTed snapshots and indexes) is read from PostgreSQL, and the
//! history's reads are timed.

use std::net::SocketAddr;
use std::time::Instant;

use wort_pgcluster::RunningCluster;

use super::load::{self, Request};
use super::seed;

const EDITS: usize = 1_000;
const READS: usize = 50;

/// The request's answer body, when its status is `status`.
fn expect(
    addr: SocketAddr,
    method: &'static str,
    path: String,
    body: Option<String>,
    status: u16,
) -> Result<String, String> {
    let request = Request {
        method,
        path: path.clone(),
        api_key: Some(seed::light_key()),
        body,
    };
    let response = load::once(addr, &request)?;
    let text = String::from_utf8_lossy(&response.body).into_owned();
    if response.status != status {
        return Err(format!(
            "{method} {path} answered {}: {text}",
            response.status
        ));
    }
    Ok(text)
}

/// The `"id"` of a created resource (the first member of every answer that has one).
fn id_of(answer: &str) -> Result<String, String> {
    let start = answer
        .find("\"id\":\"")
        .ok_or_else(|| format!("no id in {answer}"))?
        + 6;
    answer
        .get(start..start + 36)
        .map(str::to_owned)
        .ok_or_else(|| format!("no id in {answer}"))
}

/// A full recipe; its id and its hops' ids.
fn full_recipe(addr: SocketAddr, name: &str) -> Result<(String, Vec<String>), String> {
    let recipe = expect(
        addr,
        "POST",
        "/v1/recipes".into(),
        Some(format!(
            r#"{{"name":"{name}","style":"American IPA","notes":"Bench recipe"}}"#
        )),
        201,
    )?;
    let id = id_of(&recipe)?;
    let add = |kind: &str, body: String| {
        expect(
            addr,
            "POST",
            format!("/v1/recipes/{id}/{kind}"),
            Some(body),
            201,
        )
    };
    let malts = [
        "Pale malt",
        "Munich",
        "Vienna",
        "Crystal 40",
        "Carapils",
        "Wheat",
        "Oats",
        "Dextrose",
    ];
    for (i, name) in malts.iter().enumerate() {
        let kg = 0.5 + i as f64 * 0.3;
        add(
            "fermentables",
            format!(
                r#"{{"name":"{name}","amount_kg":{kg},"color_srm":{},"yield_percent":78}}"#,
                2 + i
            ),
        )?;
    }
    let mut hops = Vec::new();
    for (i, name) in [
        "Magnum",
        "Citra",
        "Mosaic",
        "Simcoe",
        "Centennial",
        "Amarillo",
    ]
    .iter()
    .enumerate()
    {
        let hop = add(
            "hops",
            format!(
                r#"{{"name":"{name}","alpha_acid":{},"amount_grams":{},"time_minutes":{}}}"#,
                8 + i,
                20 + 5 * i,
                60 - 10 * i
            ),
        )?;
        hops.push(id_of(&hop)?);
    }
    add("yeasts", r#"{"name":"US-05","attenuation":78}"#.into())?;
    add("yeasts", r#"{"name":"WLP001","attenuation":77}"#.into())?;
    for name in ["Irish moss", "Yeast nutrient", "Whirlfloc", "Orange peel"] {
        add("miscs", format!(r#"{{"name":"{name}","amount":5}}"#))?;
    }
    for (i, t) in [52, 65, 76].iter().enumerate() {
        add(
            "mash-steps",
            format!(r#"{{"name":"Rest {i}","temperature_c":{t},"duration_minutes":20}}"#),
        )?;
    }
    for agent in ["gypsum", "calcium_chloride", "epsom_salt"] {
        add(
            "water-additions",
            format!(r#"{{"agent":"{agent}","amount":3}}"#),
        )?;
    }
    add(
        "fermentation-steps",
        r#"{"name":"Primary","temperature_c":19,"days":10}"#.into(),
    )?;
    add(
        "fermentation-steps",
        r#"{"name":"Cold crash","temperature_c":2,"days":3}"#.into(),
    )?;
    Ok((id, hops))
}

/// Edits one hop's amount or the efficiency, in turn; the time of each edit in ms.
fn edit(addr: SocketAddr, id: &str, hops: &[String], i: usize) -> Result<f64, String> {
    let started = Instant::now();
    if i.is_multiple_of(2) {
        let hop = hops.get(i / 2 % hops.len()).ok_or("no hops")?;
        let body = format!(r#"{{"amount_grams":{}}}"#, 20 + i % 40);
        expect(addr, "PATCH", format!("/v1/hops/{hop}"), Some(body), 200)?;
    } else {
        let body = format!(r#"{{"efficiency":{}}}"#, 0.70 + (i % 20) as f64 / 100.0);
        expect(addr, "PATCH", format!("/v1/recipes/{id}"), Some(body), 200)?;
    }
    Ok(started.elapsed().as_secs_f64() * 1000.0)
}

fn median(mut ms: Vec<f64>) -> f64 {
    ms.sort_by(f64::total_cmp);
    ms.get(ms.len() / 2).copied().unwrap_or(f64::NAN)
}

fn timed_get(addr: SocketAddr, path: String) -> Result<f64, String> {
    let mut ms = Vec::with_capacity(READS);
    for _ in 0..READS {
        let started = Instant::now();
        expect(addr, "GET", path.clone(), None, 200)?;
        ms.push(started.elapsed().as_secs_f64() * 1000.0);
    }
    Ok(median(ms))
}

pub(super) fn query(pg: &RunningCluster, sql: &str) -> Result<String, String> {
    let output = pg
        .psql(super::DATABASE)
        .args(["-X", "-A", "-t", "-c", sql])
        .output()
        .map_err(|e| format!("could not run psql: {e}"))?;
    if output.status.success() {
        Ok(String::from_utf8_lossy(&output.stdout).trim().to_owned())
    } else {
        Err(format!("psql: {}", String::from_utf8_lossy(&output.stderr)))
    }
}

/// The section of the report (markdown).
pub fn measure(addr: SocketAddr, pg: &RunningCluster) -> Result<String, String> {
    // One sitting: every edit joins the open version.
    let (sitting, sitting_hops) = full_recipe(addr, "History bench: one sitting")?;
    let mut sitting_ms = Vec::with_capacity(EDITS);
    for i in 0..EDITS {
        sitting_ms.push(edit(addr, &sitting, &sitting_hops, i)?);
    }
    // Every edit its own version.
    let (each, each_hops) = full_recipe(addr, "History bench: every edit a version")?;
    let mut each_ms = Vec::with_capacity(EDITS);
    let mut close_ms = Vec::with_capacity(EDITS);
    for i in 0..EDITS {
        each_ms.push(edit(addr, &each, &each_hops, i)?);
        let started = Instant::now();
        let body = format!(r#"{{"message":"Edit {i}"}}"#);
        expect(
            addr,
            "POST",
            format!("/v1/recipes/{each}/versions"),
            Some(body),
            201,
        )?;
        close_ms.push(started.elapsed().as_secs_f64() * 1000.0);
    }
    let sitting_versions = query(
        pg,
        &format!("SELECT count(*) FROM recipe_versions WHERE recipe_id = '{sitting}'"),
    )?;
    let stats = query(
        pg,
        &format!(
            "SELECT count(*), round(avg(pg_column_size(snapshot))), round(avg(octet_length(snapshot::text))), \
             round(avg(pg_column_size(r.*))) FROM recipe_versions r WHERE recipe_id = '{each}'"
        ),
    )?;
    let parts: Vec<&str> = stats.split('|').collect();
    let [versions, stored, json_bytes, row] = parts.as_slice() else {
        return Err(format!("unexpected size answer {stats:?}"));
    };
    let table = query(
        pg,
        "SELECT pg_table_size('recipe_versions'), pg_indexes_size('recipe_versions'), \
         pg_total_relation_size('recipe_versions'), (SELECT count(*) FROM recipe_versions)",
    )?;
    let t: Vec<f64> = table.split('|').filter_map(|v| v.parse().ok()).collect();
    let [heap_and_toast, indexes, total, rows] = t.as_slice() else {
        return Err(format!("unexpected table answer {table:?}"));
    };
    let per_version = total / rows;
    let list_ms = timed_get(addr, format!("/v1/recipes/{each}/versions"))?;
    let read_ms = timed_get(addr, format!("/v1/recipes/{each}/versions/500"))?;
    let diff_ms = timed_get(
        addr,
        format!("/v1/recipes/{each}/versions/900/diff?against=100"),
    )?;
    Ok(format!(
        "\n### Recipe history\n\n\
         A full recipe (8 fermentables, 6 hops, 2 yeasts, 4 other ingredients, 3 mash steps, \
         3 water additions, 2 fermentation steps) edited {EDITS} times.\n\n\
         | what | figure |\n|---|---|\n\
         | {EDITS} edits in one sitting | {sitting_versions} version(s) |\n\
         | {EDITS} edits, each closed as a version | {versions} versions |\n\
         | a version's snapshot, as JSON text | {json_bytes} bytes |\n\
         | a version's snapshot, as stored (jsonb, TOAST-compressed) | {stored} bytes |\n\
         | a version's row, as stored | {row} bytes |\n\
         | the table (rows and TOAST) + its indexes, per version | {:.0} + {:.0} = {per_version:.0} bytes |\n\
         | the recipe's history after {EDITS} closed versions | {:.0} KiB |\n\
         | an edit joining the open version (median) | {:.1} ms |\n\
         | an edit starting a version (median) | {:.1} ms |\n\
         | naming a version: freezing its snapshot (median) | {:.1} ms |\n\
         | `GET …/versions` (a page of 20 of {versions}, median of {READS}) | {list_ms:.1} ms |\n\
         | `GET …/versions/500` (snapshot and its figures) | {read_ms:.1} ms |\n\
         | `GET …/versions/900/diff?against=100` | {diff_ms:.1} ms |\n",
        heap_and_toast / rows,
        indexes / rows,
        total / 1024.0,
        median(sitting_ms),
        median(each_ms),
        median(close_ms),
    ))
}
