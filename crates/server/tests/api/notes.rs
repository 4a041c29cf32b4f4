//! Notes on a session's fermentation chart: a text at an instant, listed oldest first, changed,
//! deleted, owned by the session's account and gone with the session.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::support::{Account, TestApp, call, get, issue_codes, post, random_id};

async fn session(app: &TestApp, acct: &Account) -> String {
    let recipe = post(app, acct, "/v1/recipes", json!({"name": "Saison"})).await;
    let session = post(
        app,
        acct,
        "/v1/sessions",
        json!({"recipe_id": recipe["id"], "brew_date": "2026-12-01"}),
    )
    .await;
    session["id"].as_str().unwrap().to_owned()
}

async fn send(
    app: &TestApp,
    acct: &Account,
    m: Method,
    path: &str,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let req = app.with_key(m, path, &acct.key);
    call(match body {
        Some(b) => req.json(&b),
        None => req,
    })
    .await
}

fn instant(v: &Value) -> OffsetDateTime {
    OffsetDateTime::parse(v.as_str().unwrap(), &Rfc3339).unwrap()
}

#[tokio::test]
async fn notes_are_written_listed_oldest_first_changed_and_deleted() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let sid = session(&app, &acct).await;
    let list = format!("/v1/sessions/{sid}/notes");
    let before = get(&app, &acct, &format!("/v1/sessions/{sid}")).await;

    let later = post(
        &app,
        &acct,
        &list,
        json!({"at": "2026-12-03T18:00:00+01:00", "text": "Krausen fell"}),
    )
    .await;
    assert_eq!(later["at"], "2026-12-03T17:00:00.000Z");
    assert_eq!(later["text"], "Krausen fell");
    assert_eq!(later["session_id"], sid.as_str());
    assert_eq!(later["created_at"], later["updated_at"]);
    let mut keys: Vec<&str> = later
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        ["at", "created_at", "id", "session_id", "text", "updated_at"]
    );
    // Writing a note touches its session.
    let touched = get(&app, &acct, &format!("/v1/sessions/{sid}")).await;
    assert!(instant(&touched["updated_at"]) > instant(&before["updated_at"]));

    let earlier = post(
        &app,
        &acct,
        &list,
        json!({"at": "2026-12-02T08:30:00Z", "text": "Pitched at 20 °C"}),
    )
    .await;
    // Without `at`, the note is about now; text is kept exactly as sent, spaces included.
    let started = OffsetDateTime::now_utc() - time::Duration::seconds(1);
    let now = post(&app, &acct, &list, json!({"text": "  Smells of pear  "})).await;
    assert_eq!(now["text"], "  Smells of pear  ");
    let at = instant(&now["at"]);
    assert!(at >= started && at <= OffsetDateTime::now_utc(), "{at}");

    // Oldest `at` first, whatever the order they were written in, paged like other lists.
    let res = app
        .with_key(Method::GET, &format!("{list}?limit=2"), &acct.key)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["X-Total-Count"], "3");
    assert_eq!(
        res.headers()["Link"],
        format!("</v1/sessions/{sid}/notes?limit=2&offset=2>; rel=\"next\"").as_str()
    );
    let page: Value = res.json().await.unwrap();
    let ids: Vec<&Value> = page.as_array().unwrap().iter().map(|n| &n["id"]).collect();
    assert_eq!(ids, [&earlier["id"], &later["id"]]);
    let rest = get(&app, &acct, &format!("{list}?limit=2&offset=2")).await;
    assert_eq!(rest.as_array().unwrap().len(), 1);
    assert_eq!(rest[0]["id"], now["id"]);

    // PATCH: only what is sent changes; `{}` changes nothing, not even `updated_at`.
    let item = format!("/v1/notes/{}", earlier["id"].as_str().unwrap());
    let (status, same) = send(&app, &acct, Method::PATCH, &item, Some(json!({}))).await;
    assert_eq!(status, 200);
    assert_eq!(same, earlier);
    let (status, moved) = send(
        &app,
        &acct,
        Method::PATCH,
        &item,
        Some(json!({"at": "2026-12-04T09:00:00Z", "id": random_id()})),
    )
    .await;
    assert_eq!(status, 200, "{moved}");
    assert_eq!(moved["id"], earlier["id"]);
    assert_eq!(moved["at"], "2026-12-04T09:00:00.000Z");
    assert_eq!(moved["text"], "Pitched at 20 °C");
    assert!(instant(&moved["updated_at"]) > instant(&earlier["updated_at"]));
    assert_eq!(moved["created_at"], earlier["created_at"]);
    let (_, retexted) = send(
        &app,
        &acct,
        Method::PATCH,
        &item,
        Some(json!({"text": "Pitched at 19 °C"})),
    )
    .await;
    assert_eq!(retexted["text"], "Pitched at 19 °C");
    assert_eq!(get(&app, &acct, &item).await, retexted);
    // Moved after "Krausen fell", it now lists after it.
    let all = get(&app, &acct, &list).await;
    let ids: Vec<&Value> = all.as_array().unwrap().iter().map(|n| &n["id"]).collect();
    assert_eq!(ids, [&later["id"], &earlier["id"], &now["id"]]);

    let (status, body) = send(&app, &acct, Method::DELETE, &item, None).await;
    assert_eq!((status, body), (StatusCode::NO_CONTENT, Value::Null));
    let (status, _) = send(&app, &acct, Method::DELETE, &item, None).await;
    assert_eq!(status, 404);
    let (status, _) = send(&app, &acct, Method::GET, &item, None).await;
    assert_eq!(status, 404);
    assert_eq!(get(&app, &acct, &list).await.as_array().unwrap().len(), 2);
}

#[tokio::test]
async fn a_note_is_checked_whole_with_the_domain_bounds() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let sid = session(&app, &acct).await;
    let list = format!("/v1/sessions/{sid}/notes");

    // Missing text, and a malformed time: both reported.
    let (status, body) = send(
        &app,
        &acct,
        Method::POST,
        &list,
        Some(json!({"at": "yesterday"})),
    )
    .await;
    assert_eq!(status, 422);
    assert_eq!(
        issue_codes(&body),
        [
            ("invalid_string".to_owned(), "at".to_owned()),
            ("invalid_type".to_owned(), "text".to_owned()),
        ]
    );
    assert_eq!(body["details"][0]["validation"], "datetime");
    assert_eq!(body["details"][1]["received"], "undefined");

    let (status, body) = send(&app, &acct, Method::POST, &list, Some(json!({"text": ""}))).await;
    assert_eq!(status, 422);
    assert_eq!(body["details"][0]["code"], "too_small");
    assert_eq!(body["details"][0]["minimum"], 1);
    assert_eq!(body["details"][0]["type"], "string");

    // Characters, not bytes: 10,000 two-byte characters fit, one more does not.
    let most = "é".repeat(10_000);
    let kept = post(&app, &acct, &list, json!({"text": most})).await;
    assert_eq!(kept["text"].as_str().unwrap().chars().count(), 10_000);
    let (status, body) = send(
        &app,
        &acct,
        Method::POST,
        &list,
        Some(json!({"text": "é".repeat(10_001)})),
    )
    .await;
    assert_eq!(status, 422);
    assert_eq!(body["details"][0]["code"], "too_big");
    assert_eq!(body["details"][0]["maximum"], 10_000);
    assert_eq!(body["details"][0]["path"], json!(["text"]));

    // Not more than five minutes ahead: a typo'd day is refused, a fast phone clock is not.
    let tomorrow = (OffsetDateTime::now_utc() + time::Duration::days(1))
        .format(&Rfc3339)
        .unwrap();
    let (status, body) = send(
        &app,
        &acct,
        Method::POST,
        &list,
        Some(json!({"at": tomorrow, "text": "Bottled"})),
    )
    .await;
    assert_eq!(status, 422);
    assert_eq!(
        issue_codes(&body),
        [("too_big".to_owned(), "at".to_owned())]
    );
    let soon = (OffsetDateTime::now_utc() + time::Duration::minutes(2))
        .format(&Rfc3339)
        .unwrap();
    post(
        &app,
        &acct,
        &list,
        json!({"at": soon, "text": "Fast clock"}),
    )
    .await;

    // PATCH: null for a non-nullable field, wrong types.
    let item = format!("/v1/notes/{}", kept["id"].as_str().unwrap());
    let (status, body) = send(
        &app,
        &acct,
        Method::PATCH,
        &item,
        Some(json!({"text": null, "at": 5})),
    )
    .await;
    assert_eq!(status, 422);
    let codes = issue_codes(&body);
    assert_eq!(codes.len(), 2, "{body}");
    assert!(
        codes.iter().all(|(code, _)| code == "invalid_type"),
        "{body}"
    );
    let (status, body) = send(
        &app,
        &acct,
        Method::PATCH,
        &item,
        Some(json!({"at": tomorrow})),
    )
    .await;
    assert_eq!(
        (status.as_u16(), issue_codes(&body)),
        (422, vec![("too_big".to_owned(), "at".to_owned())])
    );
    // Nothing changed.
    assert_eq!(get(&app, &acct, &item).await, kept);
}

#[tokio::test]
async fn another_accounts_session_and_notes_are_not_found() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let other = app.account().await;
    let sid = session(&app, &acct).await;
    let list = format!("/v1/sessions/{sid}/notes");
    let note = post(&app, &acct, &list, json!({"text": "Mine"})).await;
    let item = format!("/v1/notes/{}", note["id"].as_str().unwrap());

    for (m, path, body) in [
        (Method::GET, list.clone(), None),
        (Method::POST, list.clone(), Some(json!({"text": "Theirs"}))),
        (Method::GET, item.clone(), None),
        (Method::PATCH, item.clone(), Some(json!({"text": "Theirs"}))),
        (Method::DELETE, item.clone(), None),
        (
            Method::GET,
            format!("/v1/sessions/{}/notes", random_id()),
            None,
        ),
    ] {
        let (status, body) = send(&app, &other, m.clone(), &path, body).await;
        assert_eq!(status, 404, "{m} {path}: {body}");
        assert_eq!(body, json!({"error": "Not found"}));
    }
    // Untouched, and the owner's own empty session lists an empty page.
    assert_eq!(get(&app, &acct, &item).await, note);
    let empty = session(&app, &acct).await;
    assert_eq!(
        get(&app, &acct, &format!("/v1/sessions/{empty}/notes")).await,
        json!([])
    );
}

#[tokio::test]
async fn deleting_a_session_deletes_its_notes() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let sid = session(&app, &acct).await;
    let note = post(
        &app,
        &acct,
        &format!("/v1/sessions/{sid}/notes"),
        json!({"text": "Gone with it"}),
    )
    .await;
    let (status, _) = send(
        &app,
        &acct,
        Method::DELETE,
        &format!("/v1/sessions/{sid}"),
        None,
    )
    .await;
    assert_eq!(status, 204);
    let item = format!("/v1/notes/{}", note["id"].as_str().unwrap());
    let (status, _) = send(&app, &acct, Method::GET, &item, None).await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn a_note_written_with_an_idempotency_key_is_stored_once() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let sid = session(&app, &acct).await;
    let list = format!("/v1/sessions/{sid}/notes");
    let key = random_id();
    let write = || {
        app.with_key(Method::POST, &list, &acct.key)
            .header("Idempotency-Key", &key)
            .json(&json!({"text": "Dry hopped"}))
    };
    let first = write().send().await.unwrap();
    assert_eq!(first.status(), 201);
    let first: Value = first.json().await.unwrap();
    let again = write().send().await.unwrap();
    assert_eq!(again.status(), 201);
    assert_eq!(again.headers()["Idempotent-Replayed"], "true");
    let again: Value = again.json().await.unwrap();
    assert_eq!(again, first);
    assert_eq!(get(&app, &acct, &list).await, json!([first]));
}
