//! The AI assistant (docs/ai.md), against a fake OpenAI-compatible provider started in the test
//! (a small actix-web server on 127.0.0.1 speaking `POST /v1/chat/completions`, streaming and
//! not, that records what it was sent and can be told to fail or hang).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration as StdDuration;

use actix_web::{App, HttpRequest, HttpResponse, HttpServer, web};
use futures_util::StreamExt;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use time::Duration;

use crate::support::{Options, TestApp, call, captured_logs, issue_codes, random_id};

// ---- The fake provider --------------------------------------------------------------------------

const MODEL: &str = "fake-brewer-1";
const KEY: &str = "sk-test-do-not-log-0123456789";

#[derive(Debug, Clone, Copy, PartialEq)]
enum Mode {
    /// Answer (streamed when asked).
    Answer,
    /// `500` with an error body.
    Fail,
    /// Never answer.
    Hang,
    /// Stream the first piece of the answer, then go silent.
    HangMidStream,
}

struct Received {
    body: Value,
    authorization: Option<String>,
}

struct Fake {
    mode: Mutex<Mode>,
    pieces: Mutex<Vec<String>>,
    /// `(prompt_tokens, completion_tokens)` reported with the answer; `None`: no usage reported.
    usage: Mutex<Option<(i64, i64)>>,
    /// Pause between two streamed pieces.
    delay: Mutex<StdDuration>,
    received: Mutex<Vec<Received>>,
    /// Streams whose reader went away before the last chunk.
    abandoned: AtomicUsize,
}

pub(crate) struct FakeProvider {
    base_url: String,
    state: Arc<Fake>,
    handle: actix_web::dev::ServerHandle,
}

/// Counts a stream as abandoned when it is dropped before its end.
struct EndGuard {
    state: Arc<Fake>,
    finished: std::cell::Cell<bool>,
}

impl Drop for EndGuard {
    fn drop(&mut self) {
        if !self.finished.get() {
            self.state.abandoned.fetch_add(1, Ordering::SeqCst);
        }
    }
}

async fn completions(state: web::Data<Fake>, req: HttpRequest, body: web::Bytes) -> HttpResponse {
    let body: Value = serde_json::from_slice(&body).unwrap();
    state.received.lock().unwrap().push(Received {
        body: body.clone(),
        authorization: req
            .headers()
            .get("authorization")
            .map(|v| v.to_str().unwrap().to_owned()),
    });
    let mode = *state.mode.lock().unwrap();
    let pieces = state.pieces.lock().unwrap().clone();
    let usage =
        state.usage.lock().unwrap().map(
            |(p, c)| json!({"prompt_tokens": p, "completion_tokens": c, "total_tokens": p + c}),
        );
    let served_model = format!("{}-served", body["model"].as_str().unwrap());
    match mode {
        Mode::Fail => {
            return HttpResponse::InternalServerError().json(
                json!({"error": {"message": "the fake is failing", "type": "server_error"}}),
            );
        }
        Mode::Hang => {
            tokio::time::sleep(StdDuration::from_secs(3600)).await;
        }
        Mode::Answer | Mode::HangMidStream => {}
    }
    if body["stream"] != true {
        return HttpResponse::Ok().json(json!({
            "id": "chatcmpl-1", "object": "chat.completion", "model": served_model,
            "choices": [{"index": 0, "message": {"role": "assistant", "content": pieces.concat()},
                         "finish_reason": "stop"}],
            "usage": usage,
        }));
    }
    let chunk = |delta: Value, usage: Value| {
        format!(
            "data: {}\n\n",
            json!({"id": "chatcmpl-1", "object": "chat.completion.chunk", "model": served_model,
                   "choices": if delta.is_null() { json!([]) } else { json!([{"index": 0, "delta": delta}]) },
                   "usage": usage})
        )
    };
    let mut chunks = vec![chunk(
        json!({"role": "assistant", "content": ""}),
        Value::Null,
    )];
    chunks.extend(
        pieces
            .iter()
            .map(|p| chunk(json!({"content": p}), Value::Null)),
    );
    let include_usage = body["stream_options"]["include_usage"] == true;
    if let (true, Some(usage)) = (include_usage, usage) {
        chunks.push(chunk(Value::Null, usage));
    }
    chunks.push("data: [DONE]\n\n".to_owned());
    let hang_at = (mode == Mode::HangMidStream).then_some(2);
    let delay = *state.delay.lock().unwrap();
    let guard = EndGuard {
        state: state.clone().into_inner(),
        finished: std::cell::Cell::new(false),
    };
    let stream = futures_util::stream::unfold(
        (0usize, chunks, guard),
        move |(i, chunks, guard)| async move {
            if i == chunks.len() {
                guard.finished.set(true);
                return None;
            }
            if i > 1 && !delay.is_zero() {
                tokio::time::sleep(delay).await;
            }
            if hang_at == Some(i) {
                tokio::time::sleep(StdDuration::from_secs(3600)).await;
            }
            let bytes = web::Bytes::from(chunks[i].clone());
            Some((Ok::<_, actix_web::Error>(bytes), (i + 1, chunks, guard)))
        },
    );
    HttpResponse::Ok()
        .content_type("text/event-stream")
        .streaming(stream)
}

impl FakeProvider {
    pub(crate) async fn start() -> FakeProvider {
        let state = Arc::new(Fake {
            mode: Mutex::new(Mode::Answer),
            pieces: Mutex::new(vec!["A clean, ".into(), "balanced ".into(), "beer.".into()]),
            usage: Mutex::new(Some((120, 30))),
            delay: Mutex::new(StdDuration::ZERO),
            received: Mutex::new(Vec::new()),
            abandoned: AtomicUsize::new(0),
        });
        let data = web::Data::from(state.clone());
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let server = HttpServer::new(move || {
            App::new()
                .app_data(data.clone())
                .route("/v1/chat/completions", web::post().to(completions))
        })
        .workers(1)
        .shutdown_timeout(0)
        .listen(listener)
        .unwrap()
        .run();
        let handle = server.handle();
        tokio::spawn(server);
        FakeProvider {
            base_url: format!("http://{addr}/v1"),
            state,
            handle,
        }
    }

    pub(crate) fn settings(&self, timeout: StdDuration) -> wort_ai::AiSettings {
        let mut settings =
            wort_ai::AiSettings::new(self.base_url.clone(), MODEL, Some(KEY.to_owned()));
        settings.timeout = timeout;
        settings
    }

    /// A wort server using this provider (10 s timeout: generous for slow CI machines).
    async fn app(&self) -> TestApp {
        self.app_with_timeout(StdDuration::from_secs(10)).await
    }

    async fn app_with_timeout(&self, timeout: StdDuration) -> TestApp {
        TestApp::spawn_with(Options {
            ai: Some(self.settings(timeout)),
            ..Options::default()
        })
        .await
    }

    fn set_mode(&self, mode: Mode) {
        *self.state.mode.lock().unwrap() = mode;
    }

    fn set_pieces(&self, pieces: &[&str]) {
        *self.state.pieces.lock().unwrap() = pieces.iter().map(|p| (*p).to_owned()).collect();
    }

    fn set_usage(&self, usage: Option<(i64, i64)>) {
        *self.state.usage.lock().unwrap() = usage;
    }

    fn set_delay(&self, delay: StdDuration) {
        *self.state.delay.lock().unwrap() = delay;
    }

    fn requests(&self) -> usize {
        self.state.received.lock().unwrap().len()
    }

    fn last_body(&self) -> Value {
        self.state
            .received
            .lock()
            .unwrap()
            .last()
            .unwrap()
            .body
            .clone()
    }

    /// `(role, content)` of every message of the last request.
    fn last_messages(&self) -> Vec<(String, String)> {
        self.last_body()["messages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| {
                (
                    m["role"].as_str().unwrap().to_owned(),
                    m["content"].as_str().unwrap().to_owned(),
                )
            })
            .collect()
    }

    pub(crate) async fn stop(self) {
        self.handle.stop(false).await;
    }
}

// ---- Helpers ------------------------------------------------------------------------------------

/// A recipe with one of each main ingredient; returns its id.
async fn recipe(app: &TestApp, key: &str, name: &str) -> String {
    let (status, r) = call(
        app.with_key(Method::POST, "/v1/recipes", key)
            .json(&json!({"name": name, "style": "American Pale Ale", "batch_size_liters": 20})),
    )
    .await;
    assert_eq!(status, 201, "{r}");
    let id = r["id"].as_str().unwrap().to_owned();
    for (kind, body) in [
        (
            "fermentables",
            json!({"name": "Pale malt", "amount_kg": 4.5, "color_srm": 3, "yield_percent": 80}),
        ),
        (
            "hops",
            json!({"name": "Cascade", "alpha_acid": 5.5, "amount_grams": 28, "time_minutes": 60}),
        ),
        ("yeasts", json!({"name": "US-05", "attenuation": 81})),
    ] {
        let (status, child) = call(
            app.with_key(Method::POST, &format!("/v1/recipes/{id}/{kind}"), key)
                .json(&body),
        )
        .await;
        assert_eq!(status, 201, "{child}");
    }
    id
}

async fn usage(app: &TestApp, key: &str) -> Value {
    let (status, body) = call(app.with_key(Method::GET, "/v1/ai/usage", key)).await;
    assert_eq!(status, 200, "{body}");
    body
}

async fn used(app: &TestApp, key: &str) -> (i64, i64) {
    let u = usage(app, key).await;
    (
        u["messages"]["used"].as_i64().unwrap(),
        u["tokens"]["used"].as_i64().unwrap(),
    )
}

fn analyse(app: &TestApp, key: &str, recipe_id: &str) -> reqwest::RequestBuilder {
    app.with_key(
        Method::POST,
        &format!("/v1/recipes/{recipe_id}/analysis"),
        key,
    )
}

/// Spends `n` messages with analyses, ten at a time; every one must succeed.
async fn spend(app: &TestApp, key: &str, recipe_id: &str, n: usize) {
    let statuses: Vec<StatusCode> = futures_util::stream::iter(0..n)
        .map(|_| async { analyse(app, key, recipe_id).send().await.unwrap().status() })
        .buffer_unordered(10)
        .collect()
        .await;
    assert!(
        statuses.iter().all(|s| *s == StatusCode::OK),
        "{statuses:?}"
    );
}

/// The events of a whole SSE body, as `(event, data)`.
fn events(text: &str) -> Vec<(String, Value)> {
    text.split("\n\n")
        .filter(|block| !block.trim().is_empty())
        .map(|block| {
            let mut name = String::new();
            let mut data = String::new();
            for line in block.lines() {
                if let Some(v) = line.strip_prefix("event: ") {
                    name = v.to_owned();
                } else if let Some(v) = line.strip_prefix("data: ") {
                    data = v.to_owned();
                }
            }
            (name, serde_json::from_str(&data).unwrap())
        })
        .collect()
}

fn chat(app: &TestApp, key: &str, body: Value) -> reqwest::RequestBuilder {
    app.with_key(Method::POST, "/v1/chat", key).json(&body)
}

/// A chat turn that must stream; returns its events.
async fn chat_turn(app: &TestApp, key: &str, body: Value) -> Vec<(String, Value)> {
    let res = chat(app, key, body).send().await.unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["content-type"], "text/event-stream");
    events(&res.text().await.unwrap())
}

async fn chat_count(app: &TestApp, key: &str) -> i64 {
    let res = app
        .with_key(Method::GET, "/v1/chats", key)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    res.headers()["x-total-count"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap()
}

fn assert_error(status: StatusCode, body: &Value, expected_status: u16, error: &str) {
    assert_eq!(status, expected_status, "{body}");
    assert_eq!(body, &json!({ "error": error }));
}

/// Seconds from the app's clock to the next midnight UTC.
fn seconds_to_midnight(app: &TestApp) -> i64 {
    use wort_domain::ports::Clock;
    let now = app.clock.now();
    let midnight = now.date().next_day().unwrap().midnight().assume_utc();
    (midnight - now).whole_seconds()
}

const MESSAGE_LIMIT: &str = "Daily AI message limit reached (200 per day)";
const TOKEN_LIMIT: &str = "Daily AI token limit reached (2000000 per day)";
const PROVIDER_ERROR: &str = "AI provider error";
const NOT_CONFIGURED: &str = "AI is not configured on this deployment";
const TOO_LONG: &str = "Chat message exceeds 8000 characters";

// ---- Usage and analysis -------------------------------------------------------------------------

#[tokio::test]
async fn usage_starts_empty_in_the_contracts_shape() {
    use wort_domain::ports::Clock;
    let fake = FakeProvider::start().await;
    let app = fake.app().await;
    let acct = app.account().await;
    let body = usage(&app, &acct.key).await;
    let today = app.clock.now().date();
    let tomorrow = today.next_day().unwrap();
    assert_eq!(
        body,
        json!({"date": today.to_string(), "resets_at": format!("{tomorrow}T00:00:00Z"),
               "configured": true,
               "messages": {"used": 0, "limit": 200, "remaining": 200},
               "tokens": {"used": 0, "limit": 2000000, "remaining": 2000000}})
    );
    assert_eq!(call(app.request(Method::GET, "/v1/ai/usage")).await.0, 401);
    app.stop().await;
    fake.stop().await;
}

#[tokio::test]
async fn analysis_sends_the_recipe_and_counts_one_message_and_its_tokens() {
    let fake = FakeProvider::start().await;
    let app = fake.app().await;
    let acct = app.account().await;
    let id = recipe(&app, &acct.key, "Analysed Pale Ale").await;
    let (_, stats) =
        call(app.with_key(Method::GET, &format!("/v1/recipes/{id}/stats"), &acct.key)).await;

    let (status, body) = call(analyse(&app, &acct.key, &id)).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["recipe_id"], id.as_str());
    assert_eq!(body["analysis"], "A clean, balanced beer.");
    assert_eq!(
        body["model"],
        format!("{MODEL}-served"),
        "the model the provider reports"
    );
    assert_eq!(
        body["usage"],
        json!({"prompt_tokens": 120, "completion_tokens": 30, "total_tokens": 150})
    );
    let created_at = body["created_at"].as_str().unwrap();
    assert!(
        created_at.ends_with('Z') && created_at.len() == 24,
        "{created_at}"
    );

    // What the provider got: the recipe, its ingredients and its computed stats, with the key.
    let sent = fake.last_body();
    assert_eq!(sent["model"], MODEL);
    assert_eq!(sent["stream"], false);
    let prompt = fake.last_messages();
    assert_eq!(prompt[0].0, "system");
    let text = &prompt[1].1;
    for expected in [
        "Recipe: Analysed Pale Ale".to_owned(),
        "Style: American Pale Ale".to_owned(),
        "Pale malt (grain): 4.5 kg".to_owned(),
        "Cascade: 28 g, 5.5% alpha acid".to_owned(),
        "US-05 (ale), attenuation 81%".to_owned(),
        format!("OG {:.4}", stats["og"].as_f64().unwrap()),
        format!("IBU {}", stats["ibu"]),
    ] {
        assert!(text.contains(&expected), "{expected:?} missing from {text}");
    }
    assert_eq!(
        fake.state.received.lock().unwrap()[0]
            .authorization
            .as_deref(),
        Some(format!("Bearer {KEY}").as_str())
    );

    assert_eq!(used(&app, &acct.key).await, (1, 150));
    // A body is optional, but one that is sent must be a JSON object.
    assert_eq!(
        call(analyse(&app, &acct.key, &id).json(&json!({}))).await.0,
        200
    );
    assert_eq!(
        call(analyse(&app, &acct.key, &id).json(&json!([1])))
            .await
            .0,
        422
    );
    assert_eq!(
        call(
            analyse(&app, &acct.key, &id)
                .header("content-type", "text/plain")
                .body("x")
        )
        .await
        .0,
        400
    );
    assert_eq!(used(&app, &acct.key).await, (2, 300));
    // A provider that reports no usage still costs tokens (estimated), never nothing.
    fake.set_usage(None);
    let (status, body) = call(analyse(&app, &acct.key, &id)).await;
    assert_eq!(status, 200);
    let estimated = body["usage"]["total_tokens"].as_i64().unwrap();
    assert!(estimated > 100, "{body}");
    assert_eq!(used(&app, &acct.key).await, (3, 300 + estimated));

    assert!(
        !captured_logs().contains(KEY),
        "the provider key reached the log"
    );
    app.stop().await;
    fake.stop().await;
}

// ---- Chat turns ---------------------------------------------------------------------------------

#[tokio::test]
async fn a_chat_turn_streams_chat_deltas_done_and_stores_both_messages() {
    let fake = FakeProvider::start().await;
    let app = fake.app().await;
    let acct = app.account().await;
    let events = chat_turn(
        &app,
        &acct.key,
        json!({"message": "Which hops for a pale ale?"}),
    )
    .await;

    let names: Vec<&str> = events.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["chat", "delta", "delta", "delta", "done"]);
    let chat_id = events[0].1["chat_id"].as_str().unwrap().to_owned();
    let message_id = events[0].1["message_id"].as_str().unwrap().to_owned();
    let text: String = events[1..4]
        .iter()
        .map(|(_, d)| d["text"].as_str().unwrap())
        .collect();
    assert_eq!(text, "A clean, balanced beer.");
    assert_eq!(
        events[4].1,
        json!({"usage": {"prompt_tokens": 120, "completion_tokens": 30, "total_tokens": 150}})
    );
    let sent = fake.last_body();
    assert_eq!(sent["stream"], true);
    assert_eq!(sent["stream_options"], json!({"include_usage": true}));

    let (status, thread) =
        call(app.with_key(Method::GET, &format!("/v1/chats/{chat_id}"), &acct.key)).await;
    assert_eq!(status, 200);
    assert_eq!(thread["title"], "Which hops for a pale ale?");
    assert_eq!(thread["recipe_id"], Value::Null);
    let messages = thread["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 2);
    assert_eq!(messages[0]["role"], "user");
    assert_eq!(messages[0]["content"], "Which hops for a pale ale?");
    assert_eq!(messages[1]["role"], "assistant");
    assert_eq!(messages[1]["content"], "A clean, balanced beer.");
    assert_eq!(messages[1]["id"], message_id.as_str());
    assert_eq!(used(&app, &acct.key).await, (1, 150));
    app.stop().await;
    fake.stop().await;
}

#[tokio::test]
async fn earlier_messages_and_the_threads_recipe_are_sent_as_context() {
    let fake = FakeProvider::start().await;
    let app = fake.app().await;
    let acct = app.account().await;
    let id = recipe(&app, &acct.key, "Context Pale Ale").await;
    let (status, thread) = call(
        app.with_key(Method::POST, "/v1/chats", &acct.key)
            .json(&json!({"title": "About my pale ale", "recipe_id": id})),
    )
    .await;
    assert_eq!(status, 201, "{thread}");
    let chat_id = thread["id"].as_str().unwrap().to_owned();

    fake.set_pieces(&["Use ", "Cascade."]);
    chat_turn(
        &app,
        &acct.key,
        json!({"message": "Which hop?", "chat_id": chat_id}),
    )
    .await;
    fake.set_pieces(&["About 18 °C."]);
    chat_turn(
        &app,
        &acct.key,
        json!({"message": "How warm?", "chat_id": chat_id}),
    )
    .await;

    let prompt = fake.last_messages();
    let roles: Vec<&str> = prompt.iter().map(|(r, _)| r.as_str()).collect();
    assert_eq!(roles, ["system", "system", "user", "assistant", "user"]);
    assert!(
        prompt[1].1.contains("Recipe: Context Pale Ale"),
        "{}",
        prompt[1].1
    );
    assert_eq!(prompt[2].1, "Which hop?");
    assert_eq!(prompt[3].1, "Use Cascade.");
    assert_eq!(prompt[4].1, "How warm?");

    let (_, thread) =
        call(app.with_key(Method::GET, &format!("/v1/chats/{chat_id}"), &acct.key)).await;
    let contents: Vec<&str> = thread["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["content"].as_str().unwrap())
        .collect();
    assert_eq!(
        contents,
        ["Which hop?", "Use Cascade.", "How warm?", "About 18 °C."]
    );
    assert_eq!(thread["title"], "About my pale ale", "a given title stays");

    // A turn without chat_id starts a thread that keeps the turn's recipe.
    let events = chat_turn(
        &app,
        &acct.key,
        json!({"message": "Too bitter?", "recipe_id": id}),
    )
    .await;
    let new_id = events[0].1["chat_id"].as_str().unwrap();
    assert_ne!(new_id, chat_id);
    let (_, new_thread) =
        call(app.with_key(Method::GET, &format!("/v1/chats/{new_id}"), &acct.key)).await;
    assert_eq!(new_thread["recipe_id"], id.as_str());
    assert_eq!(
        fake.last_messages().len(),
        3,
        "system, recipe, the new message: no old context"
    );
    app.stop().await;
    fake.stop().await;
}

#[tokio::test]
async fn the_chat_message_cap_is_8000_characters_and_413_counts_nothing() {
    let fake = FakeProvider::start().await;
    let app = fake.app().await;
    let acct = app.account().await;

    let (status, body) = call(chat(&app, &acct.key, json!({"message": "a".repeat(8_001)}))).await;
    assert_error(status, &body, 413, TOO_LONG);
    // Multi-byte characters count as one each: 8,001 beers are too many…
    let (status, body) = call(chat(
        &app,
        &acct.key,
        json!({"message": "🍺".repeat(8_001)}),
    ))
    .await;
    assert_error(status, &body, 413, TOO_LONG);
    // …and 413 comes before every other body problem.
    let (status, body) = call(chat(
        &app,
        &acct.key,
        json!({"message": "a".repeat(8_001), "chat_id": "not-a-uuid", "recipe_id": 5}),
    ))
    .await;
    assert_error(status, &body, 413, TOO_LONG);
    // A body too large to hold an acceptable message at all.
    let huge = format!("{{\"message\":\"{}\"}}", "a".repeat(200_000));
    let (status, body) = call(
        app.with_key(Method::POST, "/v1/chat", &acct.key)
            .header("content-type", "application/json")
            .body(huge),
    )
    .await;
    assert_error(status, &body, 413, TOO_LONG);
    assert_eq!(fake.requests(), 0, "the provider was never asked");
    assert_eq!(used(&app, &acct.key).await, (0, 0));
    assert_eq!(chat_count(&app, &acct.key).await, 0);

    // Exactly 8,000 characters (32,000 bytes of UTF-8) are accepted and stored as sent.
    let longest = "🍺".repeat(8_000);
    let events = chat_turn(&app, &acct.key, json!({"message": longest})).await;
    let chat_id = events[0].1["chat_id"].as_str().unwrap();
    let (_, thread) =
        call(app.with_key(Method::GET, &format!("/v1/chats/{chat_id}"), &acct.key)).await;
    assert_eq!(thread["messages"][0]["content"], longest.as_str());
    assert_eq!(used(&app, &acct.key).await.0, 1);

    // The rest of the body is validated as usual.
    let (status, body) = call(chat(
        &app,
        &acct.key,
        json!({"message": "", "chat_id": "x"}),
    ))
    .await;
    assert_eq!(status, 422);
    assert_eq!(
        issue_codes(&body),
        [("too_small", "message"), ("invalid_string", "chat_id")]
            .map(|(c, p)| (c.to_owned(), p.to_owned()))
    );
    let (status, body) = call(chat(&app, &acct.key, json!({}))).await;
    assert_eq!(status, 422);
    assert_eq!(
        issue_codes(&body),
        [("invalid_type".to_owned(), "message".to_owned())]
    );
    let (status, _) = call(
        app.with_key(Method::POST, "/v1/chat", &acct.key)
            .header("content-type", "application/json")
            .body("{\"message\":"),
    )
    .await;
    assert_eq!(status, 400);
    app.stop().await;
    fake.stop().await;
}

// ---- Limits -------------------------------------------------------------------------------------

#[tokio::test]
async fn the_200th_message_is_the_last_of_the_day() {
    let fake = FakeProvider::start().await;
    fake.set_usage(Some((10, 5)));
    let app = fake.app().await;
    let acct = app.account().await;
    let id = recipe(&app, &acct.key, "Busy Bitter").await;
    spend(&app, &acct.key, &id, 200).await;
    assert_eq!(used(&app, &acct.key).await, (200, 3_000));

    let asked = fake.requests();
    let res = analyse(&app, &acct.key, &id).send().await.unwrap();
    assert_eq!(res.status(), 429);
    let retry_after: i64 = res.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    let expected = seconds_to_midnight(&app);
    assert!(
        (expected - 2..=expected + 1).contains(&retry_after),
        "{retry_after} vs {expected}"
    );
    assert_eq!(
        res.json::<Value>().await.unwrap(),
        json!({"error": MESSAGE_LIMIT})
    );

    let res = chat(&app, &acct.key, json!({"message": "One more?"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 429);
    assert!(res.headers().contains_key("retry-after"));
    assert_eq!(
        res.json::<Value>().await.unwrap(),
        json!({"error": MESSAGE_LIMIT})
    );
    assert_eq!(
        fake.requests(),
        asked,
        "refused calls never reach the provider"
    );
    assert_eq!(chat_count(&app, &acct.key).await, 0, "and store nothing");
    let u = usage(&app, &acct.key).await;
    assert_eq!(
        u["messages"],
        json!({"used": 200, "limit": 200, "remaining": 0})
    );
    app.stop().await;
    fake.stop().await;
}

#[tokio::test]
async fn the_token_limit_refuses_the_call_after_the_one_that_crossed_it() {
    let fake = FakeProvider::start().await;
    let app = fake.app().await;
    let acct = app.account().await;
    let id = recipe(&app, &acct.key, "Token Porter").await;
    fake.set_usage(Some((1_000_000, 999_990)));
    assert_eq!(call(analyse(&app, &acct.key, &id)).await.0, 200);
    // 1,999,990 used: still under the limit, so one more call is admitted and may overshoot.
    fake.set_usage(Some((50, 50)));
    let events = chat_turn(&app, &acct.key, json!({"message": "Still there?"})).await;
    assert_eq!(events.last().unwrap().0, "done");
    assert_eq!(used(&app, &acct.key).await, (2, 2_000_090));

    let res = analyse(&app, &acct.key, &id).send().await.unwrap();
    assert_eq!(res.status(), 429);
    assert!(
        res.headers()["retry-after"]
            .to_str()
            .unwrap()
            .parse::<u64>()
            .unwrap()
            >= 1
    );
    assert_eq!(
        res.json::<Value>().await.unwrap(),
        json!({"error": TOKEN_LIMIT})
    );
    let (status, body) = call(chat(&app, &acct.key, json!({"message": "And now?"}))).await;
    assert_error(status, &body, 429, TOKEN_LIMIT);
    let u = usage(&app, &acct.key).await;
    assert_eq!(
        u["tokens"],
        json!({"used": 2_000_090, "limit": 2_000_000, "remaining": 0})
    );
    assert_eq!(u["messages"]["used"], 2, "refused calls are not counted");
    app.stop().await;
    fake.stop().await;
}

/// Sends `n` calls at once — analyses and chat turns, alternating between `apps` — and returns
/// how many were admitted (200) and refused (429).
async fn race(apps: &[&TestApp], key: &str, recipe_id: &str, n: usize) -> (usize, usize) {
    let requests: Vec<_> = (0..n)
        .map(|i| {
            let app = apps[i % apps.len()];
            if i % 2 == 0 {
                analyse(app, key, recipe_id)
            } else {
                chat(app, key, json!({"message": "Me first!"}))
            }
        })
        .collect();
    let mut tasks = Vec::new();
    for req in requests {
        tasks.push(tokio::spawn(
            async move { req.send().await.unwrap().status() },
        ));
    }
    let (mut ok, mut refused) = (0, 0);
    for task in tasks {
        match task.await.unwrap() {
            StatusCode::OK => ok += 1,
            StatusCode::TOO_MANY_REQUESTS => refused += 1,
            other => panic!("unexpected {other}"),
        }
    }
    (ok, refused)
}

#[tokio::test]
async fn when_one_message_is_left_exactly_one_of_many_parallel_calls_gets_it() {
    let fake = FakeProvider::start().await;
    fake.set_usage(Some((1, 1)));
    let app = fake.app().await;
    let acct = app.account().await;
    let id = recipe(&app, &acct.key, "Race Saison").await;
    spend(&app, &acct.key, &id, 199).await;
    assert_eq!(race(&[&app], &acct.key, &id, 24).await, (1, 23));
    assert_eq!(used(&app, &acct.key).await, (200, 400));
    app.stop().await;
    fake.stop().await;
}

#[tokio::test]
async fn two_wort_instances_on_one_database_share_the_limit() {
    let fake = FakeProvider::start().await;
    fake.set_usage(Some((1, 1)));
    let first = fake.app().await;
    let second = fake.app().await;
    let acct = first.account().await;
    let id = recipe(&first, &acct.key, "Shared Stout").await;
    spend(&second, &acct.key, &id, 199).await;
    assert_eq!(used(&first, &acct.key).await, (199, 398));
    assert_eq!(race(&[&first, &second], &acct.key, &id, 24).await, (1, 23));
    assert_eq!(used(&second, &acct.key).await, (200, 400));
    first.stop().await;
    second.stop().await;
    fake.stop().await;
}

#[tokio::test]
async fn the_allowance_resets_at_midnight_utc() {
    use wort_domain::ports::Clock;
    let fake = FakeProvider::start().await;
    let app = fake.app().await;
    let acct = app.account().await;
    let id = recipe(&app, &acct.key, "Midnight Mild").await;
    // Thirty seconds before midnight UTC on the app's clock.
    let now = app.clock.now();
    let midnight = now.date().next_day().unwrap().midnight().assume_utc();
    app.clock.advance(midnight - Duration::seconds(30) - now);
    let today = app.clock.now().date();

    fake.set_usage(Some((1_000_000, 1_000_000)));
    assert_eq!(call(analyse(&app, &acct.key, &id)).await.0, 200);
    let res = analyse(&app, &acct.key, &id).send().await.unwrap();
    assert_eq!(res.status(), 429);
    let retry_after: i64 = res.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((25..=30).contains(&retry_after), "{retry_after}");
    let u = usage(&app, &acct.key).await;
    assert_eq!(u["date"], today.to_string());
    assert_eq!(
        u["resets_at"],
        format!("{}T00:00:00Z", today.next_day().unwrap())
    );

    // Waiting exactly Retry-After seconds lands on the new day.
    app.clock.advance(Duration::seconds(retry_after));
    let u = usage(&app, &acct.key).await;
    assert_eq!(u["date"], today.next_day().unwrap().to_string());
    assert_eq!(u["messages"]["used"], 0);
    assert_eq!(u["tokens"]["used"], 0);
    fake.set_usage(Some((10, 10)));
    assert_eq!(call(analyse(&app, &acct.key, &id)).await.0, 200);
    assert_eq!(used(&app, &acct.key).await, (1, 20));
    app.stop().await;
    fake.stop().await;
}

// ---- Failures -----------------------------------------------------------------------------------

#[tokio::test]
async fn a_failing_provider_is_502_and_gives_the_message_back() {
    let fake = FakeProvider::start().await;
    let app = fake.app().await;
    let acct = app.account().await;
    let id = recipe(&app, &acct.key, "Failing Faro").await;
    fake.set_mode(Mode::Fail);
    let (status, body) = call(analyse(&app, &acct.key, &id)).await;
    assert_error(status, &body, 502, PROVIDER_ERROR);
    let (status, body) = call(chat(&app, &acct.key, json!({"message": "Hello?"}))).await;
    assert_error(status, &body, 502, PROVIDER_ERROR);
    assert_eq!(fake.requests(), 2);
    assert_eq!(
        used(&app, &acct.key).await,
        (0, 0),
        "both reservations released"
    );
    assert_eq!(chat_count(&app, &acct.key).await, 0, "nothing stored");

    // Failing on an existing thread stores nothing in it either.
    fake.set_mode(Mode::Answer);
    let events = chat_turn(&app, &acct.key, json!({"message": "First"})).await;
    let chat_id = events[0].1["chat_id"].as_str().unwrap().to_owned();
    fake.set_mode(Mode::Fail);
    let (status, _) = call(chat(
        &app,
        &acct.key,
        json!({"message": "Second", "chat_id": chat_id}),
    ))
    .await;
    assert_eq!(status, 502);
    let (_, thread) =
        call(app.with_key(Method::GET, &format!("/v1/chats/{chat_id}"), &acct.key)).await;
    assert_eq!(thread["messages"].as_array().unwrap().len(), 2);
    assert_eq!(used(&app, &acct.key).await, (1, 150));
    app.stop().await;
    fake.stop().await;
}

#[tokio::test]
async fn a_provider_that_does_not_answer_in_time_is_502() {
    let fake = FakeProvider::start().await;
    let app = fake.app_with_timeout(StdDuration::from_secs(1)).await;
    let acct = app.account().await;
    let id = recipe(&app, &acct.key, "Slow Lager").await;
    fake.set_mode(Mode::Hang);
    let (status, body) = call(analyse(&app, &acct.key, &id)).await;
    assert_error(status, &body, 502, PROVIDER_ERROR);
    let (status, body) = call(chat(&app, &acct.key, json!({"message": "Anyone?"}))).await;
    assert_error(status, &body, 502, PROVIDER_ERROR);
    assert_eq!(used(&app, &acct.key).await, (0, 0));

    // Silent after the first piece: the stream ends with an error event, no message is stored
    // and the message is given back; the new thread whose id `event: chat` announced exists,
    // empty, so the id the client holds is not a 404.
    fake.set_mode(Mode::HangMidStream);
    let events = chat_turn(&app, &acct.key, json!({"message": "Tell me"})).await;
    let names: Vec<&str> = events.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["chat", "delta", "error"]);
    assert_eq!(events[2].1, json!({"error": PROVIDER_ERROR}));
    assert_eq!(chat_count(&app, &acct.key).await, 1);
    let chat_id = events[0].1["chat_id"].as_str().unwrap();
    let (status, thread) =
        call(app.with_key(Method::GET, &format!("/v1/chats/{chat_id}"), &acct.key)).await;
    assert_eq!(status, 200, "{thread}");
    assert_eq!(thread["messages"], json!([]));
    assert_eq!(used(&app, &acct.key).await, (0, 0));
    // On that thread a later turn works as on any other.
    fake.set_mode(Mode::Answer);
    let events = chat_turn(
        &app,
        &acct.key,
        json!({"message": "Again?", "chat_id": chat_id}),
    )
    .await;
    assert_eq!(events.last().unwrap().0, "done");
    app.stop().await;
    fake.stop().await;
}

/// A streaming chat sends keepalives at least every 15 s while waiting, the wait for the first
/// piece included. A provider that has not begun after 10 s: the stream starts (`event: chat`, then
/// keepalives), and its failure arrives as `event: error` on a thread that exists, empty.
#[tokio::test]
async fn a_provider_slow_to_begin_gets_the_stream_started_and_its_failure_as_an_event() {
    let fake = FakeProvider::start().await;
    let app = fake.app_with_timeout(StdDuration::from_secs(12)).await;
    let acct = app.account().await;
    fake.set_mode(Mode::Hang);
    let began = std::time::Instant::now();
    let mut res = chat(&app, &acct.key, json!({"message": "Anyone there?"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let first = res.chunk().await.unwrap().unwrap();
    let waited = began.elapsed();
    assert!(
        waited >= StdDuration::from_secs(9) && waited < StdDuration::from_secs(12),
        "the stream starts after 10 s of silence: {waited:?}"
    );
    let first = String::from_utf8_lossy(&first).into_owned();
    assert!(first.starts_with("event: chat\n"), "{first}");
    let mut rest = String::new();
    while let Some(chunk) = res.chunk().await.unwrap() {
        rest.push_str(&String::from_utf8_lossy(&chunk));
    }
    assert!(
        rest.contains("event: error") && rest.contains(PROVIDER_ERROR),
        "{rest}"
    );
    let data: Value = serde_json::from_str(
        first
            .lines()
            .find_map(|l| l.strip_prefix("data: "))
            .unwrap(),
    )
    .unwrap();
    let chat_id = data["chat_id"].as_str().unwrap();
    let (status, thread) =
        call(app.with_key(Method::GET, &format!("/v1/chats/{chat_id}"), &acct.key)).await;
    assert_eq!(status, 200, "{thread}");
    assert_eq!(thread["messages"], json!([]));
    assert_eq!(
        used(&app, &acct.key).await,
        (0, 0),
        "the message is given back"
    );
    app.stop().await;
    fake.stop().await;
}

#[tokio::test]
async fn a_client_leaving_mid_answer_leaves_a_consistent_thread() {
    let fake = FakeProvider::start().await;
    let pieces: Vec<String> = (0..40).map(|i| format!("word{i} ")).collect();
    let pieces: Vec<&str> = pieces.iter().map(String::as_str).collect();
    fake.set_pieces(&pieces);
    fake.set_delay(StdDuration::from_millis(50));
    let app = fake.app().await;
    let acct = app.account().await;

    let mut res = chat(&app, &acct.key, json!({"message": "Count slowly"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let mut received = String::new();
    while !received.contains("event: delta") {
        received.push_str(&String::from_utf8_lossy(
            &res.chunk().await.unwrap().unwrap(),
        ));
    }
    let chat_id = events(received.split("event: delta").next().unwrap())[0].1["chat_id"]
        .as_str()
        .unwrap()
        .to_owned();
    drop(res);

    // The turn is stored once wort notices; poll for it.
    let mut thread = Value::Null;
    for _ in 0..100 {
        let (status, body) =
            call(app.with_key(Method::GET, &format!("/v1/chats/{chat_id}"), &acct.key)).await;
        if status == 200 {
            thread = body;
            break;
        }
        tokio::time::sleep(StdDuration::from_millis(50)).await;
    }
    let messages = thread["messages"].as_array().expect("the turn was stored");
    assert_eq!(messages.len(), 2);
    assert_eq!(messages[0]["content"], "Count slowly");
    let partial = messages[1]["content"].as_str().unwrap();
    let full = pieces.concat();
    assert!(
        !partial.is_empty() && full.starts_with(partial) && partial.len() < full.len(),
        "{partial:?}"
    );
    // The message counts, with tokens estimated (the provider's own count never arrived).
    let (messages_used, tokens) = used(&app, &acct.key).await;
    assert_eq!(messages_used, 1);
    assert!(tokens > 0 && tokens != 150, "{tokens}");
    // And wort stopped reading the provider, which can stop generating.
    for _ in 0..100 {
        if fake.state.abandoned.load(Ordering::SeqCst) > 0 {
            break;
        }
        tokio::time::sleep(StdDuration::from_millis(50)).await;
    }
    assert_eq!(fake.state.abandoned.load(Ordering::SeqCst), 1);
    app.stop().await;
    fake.stop().await;
}

// ---- Not configured, ownership, threads ---------------------------------------------------------

#[tokio::test]
async fn without_a_provider_analysis_and_chat_are_503_but_the_rest_works() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let u = usage(&app, &acct.key).await;
    assert_eq!(u["configured"], false);
    assert_eq!(u["messages"]["remaining"], 200);

    let (status, r) = call(
        app.with_key(Method::POST, "/v1/recipes", &acct.key)
            .json(&json!({"name": "Plain"})),
    )
    .await;
    assert_eq!(status, 201);
    let id = r["id"].as_str().unwrap();
    let (status, body) = call(analyse(&app, &acct.key, id)).await;
    assert_error(status, &body, 503, NOT_CONFIGURED);
    let (status, body) = call(chat(&app, &acct.key, json!({"message": "Hello"}))).await;
    assert_error(status, &body, 503, NOT_CONFIGURED);
    // The API's order (docs/ai.md): credential, body, existence, then configuration.
    assert_eq!(
        call(
            app.request(Method::POST, "/v1/chat")
                .json(&json!({"message": "x"}))
        )
        .await
        .0,
        401
    );
    let (status, body) = call(chat(&app, &acct.key, json!({"message": "a".repeat(8_001)}))).await;
    assert_error(status, &body, 413, TOO_LONG);
    assert_eq!(
        call(chat(&app, &acct.key, json!({"message": 5}))).await.0,
        422
    );
    assert_eq!(call(analyse(&app, &acct.key, &random_id())).await.0, 404);
    assert_eq!(
        call(chat(
            &app,
            &acct.key,
            json!({"message": "x", "chat_id": random_id()})
        ))
        .await
        .0,
        404
    );
    assert_eq!(
        call(chat(
            &app,
            &acct.key,
            json!({"message": "x", "recipe_id": random_id()})
        ))
        .await
        .0,
        404
    );
    assert_eq!(call(analyse(&app, &acct.key, "not-a-uuid")).await.0, 400);
    assert_eq!(used(&app, &acct.key).await, (0, 0));

    // Threads work without a provider.
    let (status, thread) = call(app.with_key(Method::POST, "/v1/chats", &acct.key)).await;
    assert_eq!(status, 201, "{thread}");
    assert_eq!(thread["title"], Value::Null);
    let path = format!("/v1/chats/{}", thread["id"].as_str().unwrap());
    assert_eq!(
        call(app.with_key(Method::GET, &path, &acct.key)).await.1["messages"],
        json!([])
    );
    assert_eq!(
        call(app.with_key(Method::DELETE, &path, &acct.key)).await.0,
        204
    );
    app.stop().await;
}

#[tokio::test]
async fn another_accounts_chats_and_recipes_are_not_found() {
    let fake = FakeProvider::start().await;
    let app = fake.app().await;
    let alice = app.account().await;
    let bob = app.account().await;
    let bobs_recipe = recipe(&app, &bob.key, "Bob's Bock").await;
    let events = chat_turn(
        &app,
        &bob.key,
        json!({"message": "Mine", "recipe_id": bobs_recipe}),
    )
    .await;
    let bobs_chat = events[0].1["chat_id"].as_str().unwrap().to_owned();
    let path = format!("/v1/chats/{bobs_chat}");
    let asked = fake.requests();

    let not_found = |status: StatusCode, body: &Value| assert_error(status, body, 404, "Not found");
    let (s, b) = call(app.with_key(Method::GET, &path, &alice.key)).await;
    not_found(s, &b);
    let (s, b) = call(
        app.with_key(Method::PATCH, &path, &alice.key)
            .json(&json!({"title": "Mine now"})),
    )
    .await;
    not_found(s, &b);
    let (s, b) = call(app.with_key(Method::DELETE, &path, &alice.key)).await;
    not_found(s, &b);
    let (s, b) = call(chat(
        &app,
        &alice.key,
        json!({"message": "Hi", "chat_id": bobs_chat}),
    ))
    .await;
    not_found(s, &b);
    let (s, b) = call(chat(
        &app,
        &alice.key,
        json!({"message": "Hi", "recipe_id": bobs_recipe}),
    ))
    .await;
    not_found(s, &b);
    let (s, b) = call(
        app.with_key(Method::POST, "/v1/chats", &alice.key)
            .json(&json!({"recipe_id": bobs_recipe})),
    )
    .await;
    not_found(s, &b);
    let (s, b) = call(analyse(&app, &alice.key, &bobs_recipe)).await;
    not_found(s, &b);

    assert_eq!(fake.requests(), asked, "the provider was never asked");
    assert_eq!(used(&app, &alice.key).await, (0, 0));
    assert_eq!(chat_count(&app, &alice.key).await, 0);
    let (status, thread) = call(app.with_key(Method::GET, &path, &bob.key)).await;
    assert_eq!(status, 200);
    assert_eq!(
        thread["messages"].as_array().unwrap().len(),
        2,
        "Bob's thread is untouched"
    );
    app.stop().await;
    fake.stop().await;
}

#[tokio::test]
async fn chat_threads_page_sort_rename_and_delete() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let (_, r) = call(
        app.with_key(Method::POST, "/v1/recipes", &acct.key)
            .json(&json!({"name": "Linked"})),
    )
    .await;
    let recipe_id = r["id"].as_str().unwrap().to_owned();
    let mut ids = Vec::new();
    for title in ["first", "second", "third"] {
        let (status, t) = call(
            app.with_key(Method::POST, "/v1/chats", &acct.key)
                .json(&json!({"title": title, "recipe_id": recipe_id})),
        )
        .await;
        assert_eq!(status, 201);
        assert_eq!(t["recipe_id"], recipe_id.as_str());
        assert_eq!(t["created_at"], t["updated_at"]);
        ids.push(t["id"].as_str().unwrap().to_owned());
        app.clock.advance(Duration::seconds(1));
    }
    let titles = |v: &Value| {
        v.as_array()
            .unwrap()
            .iter()
            .map(|t| t["title"].as_str().unwrap_or("-").to_owned())
            .collect::<Vec<_>>()
    };
    let res = app
        .with_key(Method::GET, "/v1/chats?limit=2", &acct.key)
        .send()
        .await
        .unwrap();
    assert_eq!(res.headers()["x-total-count"], "3");
    assert_eq!(
        res.headers()["link"],
        "</v1/chats?limit=2&offset=2>; rel=\"next\""
    );
    assert_eq!(titles(&res.json().await.unwrap()), ["third", "second"]);
    assert_eq!(
        call(app.with_key(Method::GET, "/v1/chats?limit=0", &acct.key))
            .await
            .0,
        400
    );

    // Renaming moves a thread to the top; `{}` changes nothing; null clears the title.
    let first = format!("/v1/chats/{}", ids[0]);
    let (status, renamed) = call(
        app.with_key(Method::PATCH, &first, &acct.key)
            .json(&json!({"title": "renamed"})),
    )
    .await;
    assert_eq!(status, 200);
    assert_ne!(renamed["updated_at"], renamed["created_at"]);
    let (_, list) = call(app.with_key(Method::GET, "/v1/chats", &acct.key)).await;
    assert_eq!(titles(&list), ["renamed", "third", "second"]);
    let (_, same) = call(
        app.with_key(Method::PATCH, &first, &acct.key)
            .json(&json!({"id": "x"})),
    )
    .await;
    assert_eq!(same, renamed);
    let (_, cleared) = call(
        app.with_key(Method::PATCH, &first, &acct.key)
            .json(&json!({"title": null})),
    )
    .await;
    assert_eq!(cleared["title"], Value::Null);
    let (status, body) = call(
        app.with_key(Method::PATCH, &first, &acct.key)
            .json(&json!({"title": ""})),
    )
    .await;
    assert_eq!(status, 422);
    assert_eq!(
        issue_codes(&body),
        [("too_small".to_owned(), "title".to_owned())]
    );
    let (status, body) = call(
        app.with_key(Method::POST, "/v1/chats", &acct.key)
            .json(&json!({"title": "t".repeat(201), "recipe_id": "nope"})),
    )
    .await;
    assert_eq!(status, 422);
    assert_eq!(
        issue_codes(&body),
        [("too_big", "title"), ("invalid_string", "recipe_id")]
            .map(|(c, p)| (c.to_owned(), p.to_owned()))
    );
    assert_eq!(
        call(app.with_key(Method::GET, "/v1/chats/not-a-uuid", &acct.key))
            .await
            .0,
        400
    );
    assert_eq!(
        call(app.with_key(Method::PUT, &first, &acct.key)).await.0,
        405
    );

    // Deleting the recipe keeps the threads, without it.
    assert_eq!(
        call(app.with_key(
            Method::DELETE,
            &format!("/v1/recipes/{recipe_id}"),
            &acct.key
        ))
        .await
        .0,
        204
    );
    let (_, thread) =
        call(app.with_key(Method::GET, &format!("/v1/chats/{}", ids[1]), &acct.key)).await;
    assert_eq!(thread["recipe_id"], Value::Null);

    assert_eq!(
        call(app.with_key(Method::DELETE, &first, &acct.key))
            .await
            .0,
        204
    );
    assert_eq!(
        call(app.with_key(Method::DELETE, &first, &acct.key))
            .await
            .0,
        404
    );
    assert_eq!(
        call(app.with_key(Method::GET, &first, &acct.key)).await.0,
        404
    );
    app.stop().await;
}

#[tokio::test]
async fn threads_created_by_a_chat_turn_are_listed_first() {
    let fake = FakeProvider::start().await;
    let app = fake.app().await;
    let acct = app.account().await;
    let (_, older) = call(
        app.with_key(Method::POST, "/v1/chats", &acct.key)
            .json(&json!({"title": "older"})),
    )
    .await;
    app.clock.advance(Duration::seconds(1));
    let events = chat_turn(
        &app,
        &acct.key,
        json!({"message": "\n  Newest question\nwith details"}),
    )
    .await;
    let (_, list) = call(app.with_key(Method::GET, "/v1/chats", &acct.key)).await;
    assert_eq!(list[0]["id"], events[0].1["chat_id"]);
    assert_eq!(list[0]["title"], "Newest question");
    assert_eq!(list[1]["id"], older["id"]);
    // A turn on the older thread bumps it back to the top.
    app.clock.advance(Duration::seconds(1));
    chat_turn(
        &app,
        &acct.key,
        json!({"message": "Again", "chat_id": older["id"]}),
    )
    .await;
    let (_, list) = call(app.with_key(Method::GET, "/v1/chats", &acct.key)).await;
    assert_eq!(list[0]["id"], older["id"]);
    app.stop().await;
    fake.stop().await;
}

#[tokio::test]
async fn an_answer_past_the_cap_is_cut_off_as_a_provider_failure() {
    let fake = FakeProvider::start().await;
    let app = fake.app().await;
    let acct = app.account().await;
    let id = recipe(&app, &acct.key, "Endless Ale").await;
    // 40 pieces of 1,000 characters: past the 32,768-character cap on an answer.
    let piece = "x".repeat(1_000);
    let pieces: Vec<&str> = std::iter::repeat_n(piece.as_str(), 40).collect();
    fake.set_pieces(&pieces);

    let events = chat_turn(&app, &acct.key, json!({"message": "Talk forever"})).await;
    let (last, data) = events.last().unwrap();
    assert_eq!(last, "error", "{events:?}");
    assert_eq!(data["error"], PROVIDER_ERROR);
    let streamed: usize = events
        .iter()
        .filter(|(e, _)| e == "delta")
        .map(|(_, d)| d["text"].as_str().unwrap().chars().count())
        .sum();
    assert!(streamed <= 32_768, "{streamed} characters were relayed");
    assert_eq!(fake.last_body()["max_tokens"], 4096, "the cap is asked for");
    assert_eq!(used(&app, &acct.key).await, (0, 0), "nothing counted");

    let (status, body) = call(analyse(&app, &acct.key, &id)).await;
    assert_error(status, &body, 502, PROVIDER_ERROR);
    assert_eq!(fake.last_body()["max_tokens"], 4096);
    assert_eq!(used(&app, &acct.key).await, (0, 0));
    app.stop().await;
    fake.stop().await;
}

/// The Prometheus metrics count provider calls, their errors and the tokens reported.
#[tokio::test]
async fn provider_calls_errors_and_tokens_are_in_the_metrics() {
    let fake = FakeProvider::start().await;
    let app = TestApp::spawn_with(Options {
        ai: Some(fake.settings(StdDuration::from_secs(10))),
        metrics: true,
        ..Options::default()
    })
    .await;
    let acct = app.account().await;
    let id = recipe(&app, &acct.key, "Metered Mild").await;
    let (status, _) = call(analyse(&app, &acct.key, &id)).await;
    assert_eq!(status, 200);
    let events = chat_turn(&app, &acct.key, json!({"message": "Hops?"})).await;
    assert_eq!(events.last().unwrap().0, "done");
    fake.set_mode(Mode::Fail);
    let (status, _) = call(analyse(&app, &acct.key, &id)).await;
    assert_eq!(status, 502);
    let text = app
        .client
        .get(app.metrics_url.clone().unwrap())
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    for line in [
        "wort_ai_calls_total 3",
        "wort_ai_errors_total 1",
        "wort_ai_prompt_tokens_total 240",
        "wort_ai_completion_tokens_total 60",
    ] {
        assert!(text.contains(line), "{line}: {text}");
    }
    app.stop().await;
    fake.stop().await;
}
