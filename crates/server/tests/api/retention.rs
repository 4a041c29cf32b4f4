//! The readings retention (`WORT_READINGS_RETENTION_DAYS`): which readings a pass removes from
//! PostgreSQL, that a second pass removes nothing, that instances take turns, and that a server
//! started with the option thins at start and says so in its log. The rule's own function
//! (`wort_domain::brew_session::retention::thinned`) is the second opinion on the SQL.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use reqwest::Method;
use serde_json::json;
use time::format_description::well_known::Rfc3339;
use time::macros::datetime;
use time::{Duration, OffsetDateTime};
use uuid::Uuid;
use wort_db::brew_sessions::retention::{BATCH, THINNING_LOCK};
use wort_domain::brew_session::retention::{
    ReadingRetention, RetentionDays, ThinningPass, ThinningReading, thinned,
};
use wort_domain::ports::SystemClock;

use crate::database::Psql;
use crate::devices::{device, fermenting_session, readings};
use crate::support::{Account, Options, TestApp, call, captured_logs, post};

/// The fixed "now" of the passes: readings logged before 2026-11-07 00:00 UTC are 30 days old.
const NOW: OffsetDateTime = datetime!(2026-12-07 00:00 UTC);

fn retention(url: &str, days: u32) -> ReadingRetention {
    let pool = wort_db::build_pool(url, &wort_db::PoolSettings::default()).unwrap();
    ReadingRetention::new(
        Arc::new(wort_db::PgBrewSessions::new(pool)),
        Arc::new(SystemClock),
        RetentionDays::new(days).unwrap(),
    )
}

/// Stores a reading as a device's post would (or by hand when `device` is `None`), at `at`.
fn insert(
    psql: &mut Psql,
    session: &str,
    device: Option<&str>,
    at: &str,
    notes: Option<&str>,
) -> String {
    let id = Uuid::now_v7().to_string();
    let device = device.map_or("NULL".to_owned(), |d| format!("'{d}'"));
    let notes = notes.map_or("NULL".to_owned(), |n| format!("'{n}'"));
    psql.run(&format!(
        "INSERT INTO fermentation_logs (id, user_id, session_id, logged_at, gravity, gravity_unit, \
         temperature_c, notes, created_at, device_id) \
         SELECT '{id}', user_id, id, '{at}', 1.020, 'sg', 19.5, {notes}, '{at}', {device} \
         FROM brew_sessions WHERE id = '{session}'"
    ))
    .unwrap();
    id
}

/// The ids of a session's readings, as the brewer's list shows them.
async fn listed(app: &TestApp, acct: &Account, session: &str) -> BTreeSet<String> {
    readings(app, acct, session)
        .await
        .iter()
        .map(|r| r["id"].as_str().unwrap().to_owned())
        .collect()
}

/// Every reading of the database, by session, as the rule sees them.
fn all_readings(psql: &mut Psql) -> BTreeMap<String, Vec<ThinningReading>> {
    let mut sessions: BTreeMap<String, Vec<ThinningReading>> = BTreeMap::new();
    let rows = psql
        .run(
            "SELECT session_id, id, (extract(epoch FROM logged_at) * 1000000)::bigint, \
             coalesce(device_id::text, ''), coalesce(notes, '<none>') FROM fermentation_logs",
        )
        .unwrap();
    for row in rows {
        let f: Vec<&str> = row.split('|').collect();
        let micros: i128 = f[2].parse().unwrap();
        sessions
            .entry(f[0].to_owned())
            .or_default()
            .push(ThinningReading {
                id: f[1].parse().unwrap(),
                logged_at: OffsetDateTime::from_unix_timestamp_nanos(micros * 1_000).unwrap(),
                device_id: (!f[3].is_empty()).then(|| f[3].parse().unwrap()),
                notes: (f[4] != "<none>").then(|| f[4].to_owned()),
            });
    }
    sessions
}

/// What the rule removes from `readings` with the cutoff of `days` before [`NOW`].
fn expected_removed(
    readings: &BTreeMap<String, Vec<ThinningReading>>,
    days: u32,
) -> BTreeSet<Uuid> {
    let cutoff = RetentionDays::new(days).unwrap().cutoff(NOW);
    readings
        .values()
        .flat_map(|session| thinned(session, cutoff))
        .collect()
}

fn ids(readings: &BTreeMap<String, Vec<ThinningReading>>) -> BTreeSet<Uuid> {
    readings.values().flatten().map(|r| r.id).collect()
}

#[tokio::test]
async fn old_readings_are_thinned_to_one_per_device_and_hour_keeping_what_people_wrote() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let session = fermenting_session(&app, &acct).await;
    let finished = fermenting_session(&app, &acct).await;
    let (hydrometer, _) = device(&app, &acct, "ispindel", Some(&session)).await;
    let (probe, _) = device(&app, &acct, "stream", Some(&session)).await;
    let (gone_device, _) = device(&app, &acct, "tilt", Some(&session)).await;
    let [hydrometer, probe, gone_device] =
        [hydrometer, probe, gone_device].map(|d| d["id"].as_str().unwrap().to_owned());
    let (h, p, g) = (
        Some(hydrometer.as_str()),
        Some(probe.as_str()),
        Some(gone_device.as_str()),
    );
    let mut psql = Psql::start(&crate::support::database_url()).unwrap();
    let mut at = |device: Option<&str>, time: &str, notes: Option<&str>| {
        insert(&mut psql, &session, device, time, notes)
    };

    // 30 days before NOW is 2026-11-07 00:00 UTC.
    let a1 = at(h, "2026-10-01T10:00:00Z", None); // first of the hydrometer's 10:00 hour
    let a2 = at(h, "2026-10-01T10:20:00Z", None);
    let a3 = at(h, "2026-10-01T10:40:00Z", Some("")); // an empty note says nothing
    let a4 = at(h, "2026-10-01T10:50:00Z", Some("krausen fell")); // a comment: kept
    let b1 = at(p, "2026-10-01T10:10:00Z", None); // the probe's own 10:00 hour
    let b2 = at(p, "2026-10-01T10:30:00Z", None);
    let a5 = at(h, "2026-10-01T11:05:00Z", None);
    let a6 = at(h, "2026-10-01T11:25:00Z", None);
    let a7 = at(h, "2026-10-01T12:05:00Z", None); // first of the hydrometer's 12:00 hour…
    let a8 = at(h, "2026-10-01T12:15:00Z", None);
    // …although a hand reading came before it in that hour.
    let typed = post(
        &app,
        &acct,
        &format!("/v1/sessions/{session}/fermentation-logs"),
        json!({"logged_at": "2026-10-01T12:00:00Z", "gravity": 1.030}),
    )
    .await;
    let typed = typed["id"].as_str().unwrap().to_owned();
    let a9 = at(h, "2026-11-06T23:30:00Z", None);
    let a10 = at(h, "2026-11-06T23:45:00Z", None); // old by a quarter of an hour
    let a11 = at(h, "2026-11-07T00:00:00Z", None); // exactly 30 days: not older
    let a12 = at(h, "2026-11-07T00:10:00Z", None);
    let a13 = at(h, "2026-11-20T08:00:00Z", None);
    // A device deleted since: its readings no longer name it, and count as typed by hand.
    let g1 = at(g, "2026-10-02T09:00:00Z", None);
    let g2 = at(g, "2026-10-02T09:10:00Z", None);
    let (status, _) = call(app.with_key(
        Method::DELETE,
        &format!("/v1/devices/{gone_device}"),
        &acct.key,
    ))
    .await;
    assert_eq!(status, 204);
    // A finished brew, all of it old: its last reading is its final gravity.
    let mut at = |time: &str| insert(&mut psql, &finished, p, time, None);
    let c1 = at("2026-09-01T08:00:00Z");
    let c2 = at("2026-09-01T08:30:00Z");
    let c3 = at("2026-09-01T08:45:00Z");

    let before = all_readings(&mut psql);
    let pass = retention(&crate::support::database_url(), 30)
        .run_at(NOW)
        .await
        .unwrap();
    let removed: BTreeSet<String> = [&a2, &a3, &b2, &a6, &a8, &a10, &c2]
        .map(String::clone)
        .into();
    assert_eq!(
        pass,
        ThinningPass {
            removed: 7,
            batches: 1,
            yielded: false,
            full: true,
        }
    );
    let kept: BTreeSet<String> = [a1, a4, b1, a5, a7, typed, a9, a11, a12, a13, g1, g2].into();
    assert_eq!(listed(&app, &acct, &session).await, kept);
    assert_eq!(listed(&app, &acct, &finished).await, [c1, c3].into());
    // The rule's function says the same.
    let said: BTreeSet<String> = expected_removed(&before, 30)
        .iter()
        .map(Uuid::to_string)
        .collect();
    assert_eq!(said, removed);

    // Applied again, it removes nothing.
    let again = retention(&crate::support::database_url(), 30)
        .run_at(NOW)
        .await
        .unwrap();
    assert_eq!(again.removed, 0);
    assert_eq!(listed(&app, &acct, &session).await.len(), 12);
    // A shorter retention reaches further: the 00:10 reading of 2026-11-07 now goes.
    let shorter = retention(&crate::support::database_url(), 20)
        .run_at(NOW)
        .await
        .unwrap();
    assert_eq!(shorter.removed, 1);
}

/// A generated installation of more than two batches: devices posting every few minutes with
/// a jitter, some notes, hand readings, several sessions and accounts' worth of rows. The SQL
/// removes exactly what the rule's function removes, in several batches; two instances at once
/// remove it once between them; then nothing is left to remove.
#[tokio::test]
async fn batches_over_a_large_table_remove_exactly_what_the_rule_says() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let mut sessions = Vec::new();
    let mut devices = Vec::new();
    for _ in 0..3 {
        let session = fermenting_session(&app, &acct).await;
        let (d1, _) = device(&app, &acct, "ispindel", Some(&session)).await;
        let (d2, _) = device(&app, &acct, "rapt", Some(&session)).await;
        devices.push([d1, d2].map(|d| d["id"].as_str().unwrap().to_owned()));
        sessions.push(session);
    }
    let url = crate::support::database_url();
    let mut psql = Psql::start(&url).unwrap();
    for (n, (session, [d1, d2])) in sessions.iter().zip(&devices).enumerate() {
        // 6,000 readings a device: every 4 minutes and a few seconds (each a little late, by
        // up to 52 s) for 16.7 days from 2026-10-25 (so about a fifth are recent), each device
        // at its own offset. Every 300th carries a comment; a reading a day is typed by hand.
        psql.run(&format!(
            "INSERT INTO fermentation_logs (id, user_id, session_id, logged_at, gravity, \
             gravity_unit, temperature_c, notes, created_at, device_id) \
             SELECT gen_random_uuid(), s.user_id, s.id, t, 1.020, 'sg', 19, \
                    CASE WHEN i % 300 = 7 THEN 'comment' END, t, d \
             FROM brew_sessions s, \
                  (VALUES ('{d1}'::uuid, 0), ('{d2}'::uuid, 1)) dev(d, k), \
                  generate_series(0, 5999) i, \
                  LATERAL (SELECT timestamptz '2026-10-25T00:00:00Z' \
                     + (i * 241 + k * 97 + {n} * 13 + (i * 7919 % 53)) * interval '1 second' AS t) at \
             WHERE s.id = '{session}'"
        ))
        .unwrap();
        psql.run(&format!(
            "INSERT INTO fermentation_logs (id, user_id, session_id, logged_at, gravity, \
             gravity_unit, temperature_c, notes, created_at, device_id) \
             SELECT gen_random_uuid(), s.user_id, s.id, t, 1.030, 'sg', 19, NULL, t, NULL \
             FROM brew_sessions s, generate_series(0, 14) i, \
                  LATERAL (SELECT timestamptz '2026-10-25T07:00:00Z' + i * interval '1 day' AS t) at \
             WHERE s.id = '{session}'"
        ))
        .unwrap();
    }
    let before = all_readings(&mut psql);
    let removed = expected_removed(&before, 30);
    let old_candidates = psql
        .run(
            "SELECT count(*) FROM fermentation_logs WHERE device_id IS NOT NULL \
             AND coalesce(notes, '') = '' AND logged_at < '2026-11-07T00:00:00Z'",
        )
        .unwrap()[0]
        .parse::<i64>()
        .unwrap();
    assert!(
        old_candidates > 2 * BATCH,
        "{old_candidates} readings: not several batches"
    );

    // Two instances at once: each batch is one instance's, and between them the readings go once.
    let (one, two) = (retention(&url, 30), retention(&url, 30));
    let (one, two) = tokio::join!(one.run_at(NOW), two.run_at(NOW));
    let (one, two) = (one.unwrap(), two.unwrap());
    assert_eq!(
        one.removed + two.removed,
        removed.len() as u64,
        "{one:?} {two:?}"
    );
    // At most a batch's worth each time: more than two batches in all.
    assert!(one.batches + two.batches >= 3, "{one:?} {two:?}");

    let after = all_readings(&mut psql);
    let expected: BTreeSet<Uuid> = ids(&before).difference(&removed).copied().collect();
    assert_eq!(ids(&after), expected);
    let again = retention(&url, 30).run_at(NOW).await.unwrap();
    assert_eq!(again.removed, 0);
    assert!(expected_removed(&after, 30).is_empty());
}

#[tokio::test]
async fn a_pass_that_finds_another_instance_thinning_leaves_it_the_work() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let session = fermenting_session(&app, &acct).await;
    let (d, _) = device(&app, &acct, "ispindel", Some(&session)).await;
    let d = d["id"].as_str().unwrap().to_owned();
    let url = crate::support::database_url();
    let mut psql = Psql::start(&url).unwrap();
    for minute in ["00", "10", "20", "30"] {
        insert(
            &mut psql,
            &session,
            Some(&d),
            &format!("2026-10-01T10:{minute}:00Z"),
            None,
        );
    }
    let mut other = Psql::start(&url).unwrap();
    other
        .run(&format!("SELECT pg_advisory_lock({THINNING_LOCK})"))
        .unwrap();
    let pass = retention(&url, 30).run_at(NOW).await.unwrap();
    assert_eq!(
        pass,
        ThinningPass {
            removed: 0,
            batches: 0,
            yielded: true,
            full: true,
        }
    );
    other.finish().unwrap();
    let pass = retention(&url, 30).run_at(NOW).await.unwrap();
    assert_eq!(
        pass.removed, 2,
        "10:10 and 10:20; 10:30 is the session's last"
    );
}

/// The server wires the option: it thins at start, and the log says how many went.
#[tokio::test]
async fn a_server_started_with_a_retention_thins_at_start_and_logs_it() {
    let url = crate::database::isolated_database_url("retention_at_start");
    let app = TestApp::spawn_with(Options {
        database: Some(url.clone()),
        ..Options::default()
    })
    .await;
    let acct = app.account().await;
    let session = fermenting_session(&app, &acct).await;
    let (d, _) = device(&app, &acct, "ispindel", Some(&session)).await;
    let d = d["id"].as_str().unwrap().to_owned();
    let mut psql = Psql::start(&url).unwrap();
    // Three readings 40 days ago within one hour, and one now.
    let text = |at: OffsetDateTime| at.format(&Rfc3339).unwrap();
    let old = (OffsetDateTime::now_utc() - Duration::days(40))
        .replace_minute(0)
        .unwrap();
    for minutes in [0, 10, 20] {
        let at = text(old + Duration::minutes(minutes));
        insert(&mut psql, &session, Some(&d), &at, None);
    }
    let now = text(OffsetDateTime::now_utc());
    insert(&mut psql, &session, Some(&d), &now, None);
    app.stop().await;

    let app = TestApp::spawn_with(Options {
        database: Some(url),
        readings_retention: RetentionDays::new(30),
        ..Options::default()
    })
    .await;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let logged = loop {
        let logs = captured_logs();
        if let Some(line) = logs
            .lines()
            .find(|l| l.contains("readings retention: thinned"))
        {
            break line.to_owned();
        }
        assert!(
            std::time::Instant::now() < deadline,
            "no pass logged: {logs}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    };
    assert!(logged.contains("readings=2"), "{logged}");
    assert!(
        captured_logs().contains("readings retention: on"),
        "the start says the retention is on"
    );
    // The first of the old hour and the recent one.
    assert_eq!(listed(&app, &acct, &session).await.len(), 2);
}
