//! Brew sessions (`/v1/sessions`), their checklist steps (`/v1/steps`) and fermentation
//! readings (`/v1/fermentation-logs`).

use actix_web::{HttpRequest, HttpResponse, web};
use serde_json::Value;
use wort_domain::brew_session::{
    BrewSession, BrewSessionFilter, BrewSessionPatch, BrewStep, GravityUnit, NewBrewSession,
    NewReading, NewStep, Reading, ReadingPatch, ReadingRange, SessionStatus, StepPatch,
    TimerAction, has_measurement, rules,
};

use super::{created, page_response, resource, written_page_response};
use crate::body::JsonBody;
use crate::body::spec::{
    BodySpec, Choice, DefaultValue, FieldSpec, Kind, Missing, Mode, OnCreate, Reader,
    request_body_schema,
};
use crate::caller::{Caller, CallerAndId};
use crate::error::{ApiError, ApiResult};
use crate::fast_json;
use crate::params::{DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, Query};
use crate::state::AppState;

/// Inside the `/v1/sessions` scope.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(
        resource("", "GET, POST")
            .route(web::get().to(list_sessions))
            .route(web::post().to(create_session)),
    )
    .service(
        resource("/{id}", "GET, PATCH, DELETE")
            .route(web::get().to(get_session))
            .route(web::patch().to(update_session))
            .route(web::delete().to(delete_session)),
    )
    .service(
        resource("/{id}/steps", "GET, POST")
            .route(web::get().to(list_steps))
            .route(web::post().to(create_step)),
    )
    .service(
        resource("/{id}/fermentation-logs", "GET, POST")
            .route(web::get().to(list_readings))
            .route(web::post().to(create_reading)),
    )
    .service(resource("/{id}/fermentation-logs/latest", "GET").route(web::get().to(latest_reading)))
    .service(
        resource("/{id}/fermentation-schedule", "GET").route(web::get().to(fermentation_schedule)),
    )
    .service(resource("/{id}/forecast", "GET").route(web::get().to(forecast)));
}

/// `/v1/home`, a fixed path.
pub fn configure_home(cfg: &mut web::ServiceConfig) {
    cfg.service(resource("/v1/home", "GET").route(web::get().to(home)));
}

/// Inside the `/v1/steps` scope.
pub fn configure_steps(cfg: &mut web::ServiceConfig) {
    cfg.service(
        resource("/{id}", "GET, PATCH, DELETE")
            .route(web::get().to(get_step))
            .route(web::patch().to(update_step))
            .route(web::delete().to(delete_step)),
    )
    .service(resource("/{id}/timer", "POST").route(web::post().to(step_timer)));
}

/// Inside the `/v1/fermentation-logs` scope.
pub fn configure_logs(cfg: &mut web::ServiceConfig) {
    cfg.service(
        resource("/{id}", "GET, PATCH, DELETE")
            .route(web::get().to(get_reading))
            .route(web::patch().to(update_reading))
            .route(web::delete().to(delete_reading)),
    );
}

fn statuses() -> Vec<&'static str> {
    SessionStatus::ALL
        .iter()
        .map(SessionStatus::as_str)
        .collect()
}

fn timer_actions() -> Vec<&'static str> {
    TimerAction::ALL.iter().map(TimerAction::as_str).collect()
}

fn units() -> Vec<&'static str> {
    GravityUnit::ALL.iter().map(GravityUnit::as_str).collect()
}

// ---- Request bodies ----------------------------------------------------------------------------

fn planned() -> &'static str {
    SessionStatus::default().as_str()
}

fn sg() -> &'static str {
    GravityUnit::default().as_str()
}

/// A new session, in the order its fields are read.
static NEW_SESSION: BodySpec = BodySpec {
    rules: rules::NEW_SESSION_FIELDS,
    missing: Missing::WhereRead,
    fields: &[
        FieldSpec::required("recipe_id", Kind::Uuid),
        FieldSpec::required("brew_date", Kind::Date),
        FieldSpec::new("name", Kind::Text, OnCreate::Optional)
            .described("Default: the recipe's name."),
        FieldSpec::new(
            "status",
            Kind::Choice(Choice::inline::<SessionStatus>(statuses)),
            OnCreate::Default(DefaultValue::Variant(planned)),
        ),
        FieldSpec::clearable("notes", Kind::Text),
    ],
};

/// A change to a session: its status follows the state machine, the measurements come in.
static SESSION_UPDATE: BodySpec = BodySpec {
    rules: rules::SESSION_FIELDS,
    missing: Missing::WhereRead,
    fields: &[
        FieldSpec::new("name", Kind::Text, OnCreate::Optional),
        FieldSpec::new("brew_date", Kind::Date, OnCreate::Optional),
        FieldSpec::new(
            "status",
            Kind::Choice(Choice::inline::<SessionStatus>(statuses)),
            OnCreate::Optional,
        )
        .described("Forward moves (skipping allowed) or `abandoned`; final states are final."),
        FieldSpec::clearable("measured_og", Kind::Number),
        FieldSpec::clearable("measured_fg", Kind::Number),
        FieldSpec::clearable("measured_batch_size_liters", Kind::Number),
        FieldSpec::clearable("measured_mash_ph", Kind::Number).described(
            "Mash pH measured at room temperature; stored with the model's prediction for the \
             recipe as it is now (the pair `GET /v1/me/water-calibration` learns from).",
        ),
        FieldSpec::clearable("notes", Kind::Text),
    ],
};

request_body_schema!(
    /// `POST /v1/sessions`.
    CreateSessionRequest,
    NEW_SESSION,
    Mode::Create,
    field_descriptions = true
);

request_body_schema!(
    /// `PATCH /v1/sessions/{id}`.
    UpdateSessionRequest,
    SESSION_UPDATE,
    Mode::Update,
    field_descriptions = true
);

/// A new checklist step; a missing `title` is reported after the other failures.
static NEW_STEP: BodySpec = BodySpec {
    rules: rules::STEP_FIELDS,
    missing: Missing::Last,
    fields: &[
        FieldSpec::required("title", Kind::Text),
        FieldSpec::new("sort_order", Kind::Integer, OnCreate::Optional),
        FieldSpec::clearable("description", Kind::Text),
        FieldSpec::clearable("duration_minutes", Kind::Number),
    ],
};

/// A change to a checklist step, ticking it included.
static STEP_UPDATE: BodySpec = BodySpec {
    rules: rules::STEP_FIELDS,
    missing: Missing::Last,
    fields: &[
        FieldSpec::new("title", Kind::Text, OnCreate::Optional),
        FieldSpec::new("sort_order", Kind::Integer, OnCreate::Optional),
        FieldSpec::new("completed", Kind::Boolean, OnCreate::Optional)
            .described("true stamps `completed_at` now; false clears it."),
        FieldSpec::clearable("description", Kind::Text),
        FieldSpec::clearable("duration_minutes", Kind::Number),
    ],
};

request_body_schema!(
    /// `POST /v1/sessions/{id}/steps`.
    CreateStepRequest,
    NEW_STEP,
    Mode::Create,
    field_descriptions = true
);

request_body_schema!(
    /// `PATCH /v1/steps/{id}`.
    UpdateStepRequest,
    STEP_UPDATE,
    Mode::Update,
    field_descriptions = true
);

/// What to do with a step's timer.
static TIMER: BodySpec = BodySpec {
    rules: rules::TIMER_FIELDS,
    missing: Missing::WhereRead,
    fields: &[FieldSpec::required(
        "action",
        Kind::Choice(Choice::inline::<TimerAction>(timer_actions)),
    )
    .described(
        "start (idle only), pause (running only), resume (paused only) or reset (any state).",
    )],
};

request_body_schema!(
    /// `POST /v1/steps/{id}/timer`.
    StepTimerRequest,
    TIMER,
    Mode::Create,
    field_descriptions = true
);

/// A fermentation reading. A new one needs at least one of gravity, temperature_c, ph or notes:
/// the table cannot say "one of these", so the domain checks it ([`has_measurement`]) and the
/// document shows it as an `anyOf` added in one place (`ReadingNeedsAMeasurement` in
/// `openapi.rs`).
static READING: BodySpec = BodySpec {
    rules: rules::READING_FIELDS,
    missing: Missing::WhereRead,
    fields: &[
        FieldSpec::new("logged_at", Kind::DateTime, OnCreate::Optional).described("Default: now."),
        FieldSpec::new(
            "gravity_unit",
            Kind::Choice(Choice::inline::<GravityUnit>(units)),
            OnCreate::Default(DefaultValue::Variant(sg)),
        )
        .described("The unit the reading was entered in (stored for display)."),
        FieldSpec::clearable("gravity", Kind::Number).described("Specific gravity."),
        FieldSpec::clearable("temperature_c", Kind::Number),
        FieldSpec::clearable("ph", Kind::Number),
        FieldSpec::clearable("notes", Kind::Text),
    ],
};

request_body_schema!(
    /// `POST /v1/sessions/{id}/fermentation-logs`.
    CreateLogRequest,
    READING,
    Mode::Create,
    "At least one of gravity, temperature_c, ph, notes.",
    field_descriptions = true
);

request_body_schema!(
    /// `PATCH /v1/fermentation-logs/{id}`.
    UpdateLogRequest,
    READING,
    Mode::Update,
    field_descriptions = false
);

// ---- Readers ---------------------------------------------------------------------------------

fn read_session_request(body: &Value) -> ApiResult<NewBrewSession> {
    let mut f = Reader::new(body, &NEW_SESSION, Mode::Create)?;
    let recipe_id = f.uuid("recipe_id");
    let brew_date = f.date("brew_date");
    let name = f.text("name");
    let status = f.enumeration("status", SessionStatus::parse);
    let notes = f.nullable_text("notes").flatten();
    match (recipe_id, brew_date) {
        (Some(recipe_id), Some(brew_date)) => f.finish(NewBrewSession {
            recipe_id,
            brew_date,
            name,
            status,
            notes,
        }),
        _ => Err(f.finish(()).err().unwrap_or(ApiError::Internal)),
    }
}

/// The session's patch (`measured_mash_ph`'s `Some(None)` clears it).
fn read_session_patch(body: &Value) -> ApiResult<BrewSessionPatch> {
    let mut f = Reader::new(body, &SESSION_UPDATE, Mode::Update)?;
    // Read in the table's order (errors are listed in it).
    let name = f.text("name");
    let brew_date = f.date("brew_date");
    let status = f.enumeration("status", SessionStatus::parse);
    let measured_og = f.nullable_number("measured_og");
    let measured_fg = f.nullable_number("measured_fg");
    let measured_batch_size_liters = f.nullable_number("measured_batch_size_liters");
    let measured_mash_ph = f.nullable_number("measured_mash_ph");
    let patch = BrewSessionPatch {
        name,
        brew_date,
        status,
        measured_og,
        measured_fg,
        measured_batch_size_liters,
        notes: f.nullable_text("notes"),
        measured_mash_ph,
        predicted_mash_ph: None,
    };
    f.finish(patch)
}

fn sort_order(f: &mut Reader) -> Option<i32> {
    #[allow(clippy::cast_possible_truncation)]
    f.integer("sort_order").map(|n| n as i32)
}

fn read_new_step(body: &Value) -> ApiResult<NewStep> {
    let mut f = Reader::new(body, &NEW_STEP, Mode::Create)?;
    let title = f.text("title");
    let sort_order = sort_order(&mut f);
    // A `None` title is a required field not sent, which `finish` reports.
    let new = NewStep {
        title: title.unwrap_or_default(),
        sort_order,
        description: f.nullable_text("description").flatten(),
        duration_minutes: f.nullable_number("duration_minutes").flatten(),
        boil: false,
        boil_addition_at: None,
        quantities: Vec::new(),
    };
    f.finish(new)
}

fn read_step_patch(body: &Value) -> ApiResult<StepPatch> {
    let mut f = Reader::new(body, &STEP_UPDATE, Mode::Update)?;
    let title = f.text("title");
    let sort_order = sort_order(&mut f);
    let completed = f.boolean("completed");
    let patch = StepPatch {
        title,
        description: f.nullable_text("description"),
        sort_order,
        duration_minutes: f.nullable_number("duration_minutes"),
        completed,
    };
    f.finish(patch)
}

fn read_timer_action(body: &Value) -> ApiResult<TimerAction> {
    let mut f = Reader::new(body, &TIMER, Mode::Create)?;
    let action = f.enumeration("action", TimerAction::parse);
    match action {
        Some(action) => f.finish(action),
        None => Err(f.finish(()).err().unwrap_or(ApiError::Internal)),
    }
}

fn read_reading_patch(f: &mut Reader) -> ReadingPatch {
    let logged_at = f.datetime("logged_at");
    let gravity_unit = f.enumeration("gravity_unit", GravityUnit::parse);
    ReadingPatch {
        logged_at,
        gravity: f.nullable_number("gravity"),
        gravity_unit,
        temperature_c: f.nullable_number("temperature_c"),
        ph: f.nullable_number("ph"),
        notes: f.nullable_text("notes"),
    }
}

fn read_new_reading(body: &Value) -> ApiResult<NewReading> {
    let mut f = Reader::new(body, &READING, Mode::Create)?;
    let p = read_reading_patch(&mut f);
    let log = NewReading {
        logged_at: p.logged_at,
        gravity: p.gravity.flatten(),
        gravity_unit: p.gravity_unit.unwrap_or_default(),
        temperature_c: p.temperature_c.flatten(),
        ph: p.ph.flatten(),
        notes: p.notes.flatten(),
    };
    let log = f.finish(log)?;
    has_measurement(log.gravity, log.temperature_c, log.ph, log.notes.as_deref())?;
    Ok(log)
}

fn read_reading_update(body: &Value) -> ApiResult<ReadingPatch> {
    let mut f = Reader::new(body, &READING, Mode::Update)?;
    let patch = read_reading_patch(&mut f);
    f.finish(patch)
}

// ---- Sessions ----------------------------------------------------------------------------------

/// The account's brew sessions, newest brew date first.
#[utoipa::path(get, path = "/v1/sessions", tag = "sessions",
    params(
        ("status" = Option<SessionStatus>, Query, description = "Only sessions in this state"),
        ("recipe_id" = Option<uuid::Uuid>, Query, description = "Sessions made from this recipe"),
        ("limit" = Option<i64>, Query, description = "Page size (default 50)"),
        ("offset" = Option<i64>, Query, description = "Items to skip (default 0)"),
    ),
    responses((status = 200, body = [BrewSession], headers(("X-Total-Count" = i64), ("Link" = String)))))]
pub async fn list_sessions(
    Caller(user): Caller,
    req: HttpRequest,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let query = Query::of(&req)?;
    let page = query.page(DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE)?;
    let filter = BrewSessionFilter {
        status: query.one_of("status", &statuses(), SessionStatus::parse)?,
        recipe_id: query.uuid("recipe_id")?,
    };
    let sessions = state.brew_sessions.list(user, &filter, page).await?;
    Ok(page_response(&req, &query, page, &sessions))
}

/// Start a brew session from one of your recipes: the recipe is snapshotted (with its stats) and
/// the brew-day checklist generated.
#[utoipa::path(post, path = "/v1/sessions", tag = "sessions",
    request_body = CreateSessionRequest,
    responses((status = 201, body = BrewSession, links(
            ("GetSession" = (operation_id = "get_session", parameters(("id" = "$response.body#/id")), description = "The session just created")),
            ("UpdateSession" = (operation_id = "update_session", parameters(("id" = "$response.body#/id")), description = "Change the session just created")),
            ("ListSteps" = (operation_id = "list_steps", parameters(("id" = "$response.body#/id")), description = "Its brew-day checklist")),
            ("CreateStep" = (operation_id = "create_step", parameters(("id" = "$response.body#/id")), description = "Add a step to its checklist")),
            ("ListReadings" = (operation_id = "list_logs", parameters(("id" = "$response.body#/id")), description = "Its fermentation readings")),
            ("CreateReading" = (operation_id = "create_log", parameters(("id" = "$response.body#/id")), description = "Log a fermentation reading")))),
        (status = 404, body = crate::error::ErrorBody, description = "No such recipe")))]
pub async fn create_session(
    Caller(user): Caller,
    state: web::Data<AppState>,
    body: JsonBody,
) -> ApiResult<HttpResponse> {
    let request = read_session_request(&body.json()?)?;
    let session = state.brew_sessions.create(user, request).await?;
    Ok(created(&session))
}

/// One brew session.
#[utoipa::path(get, path = "/v1/sessions/{id}", tag = "sessions",
    params(("id" = uuid::Uuid, Path, description = "Session id")),
    responses((status = 200, body = BrewSession)))]
pub async fn get_session(
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    Ok(HttpResponse::Ok().json(state.brew_sessions.get(user, id).await?))
}

/// Change a session; a `status` change must follow the state machine.
#[utoipa::path(patch, path = "/v1/sessions/{id}", tag = "sessions",
    params(("id" = uuid::Uuid, Path, description = "Session id")), request_body = UpdateSessionRequest,
    responses((status = 200, body = BrewSession),
        (status = 422, body = crate::error::ValidationErrorBody, description = "Invalid body, or invalid_transition")))]
pub async fn update_session(
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
    body: JsonBody,
) -> ApiResult<HttpResponse> {
    let patch = read_session_patch(&body.json()?)?;
    Ok(HttpResponse::Ok().json(state.brew_sessions.update(user, id, patch).await?))
}

/// Delete a session with its steps and readings (the recipe is untouched).
#[utoipa::path(delete, path = "/v1/sessions/{id}", tag = "sessions",
    params(("id" = uuid::Uuid, Path, description = "Session id")),
    responses((status = 204, description = "Deleted")))]
pub async fn delete_session(
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    state.brew_sessions.delete(user, id).await?;
    Ok(HttpResponse::NoContent().finish())
}

// ---- Steps -------------------------------------------------------------------------------------

/// The brew-day checklist, in order.
#[utoipa::path(get, path = "/v1/sessions/{id}/steps", tag = "sessions",
    params(("id" = uuid::Uuid, Path, description = "Session id")),
    responses((status = 200, body = [BrewStep])))]
pub async fn list_steps(
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    Ok(HttpResponse::Ok().json(state.brew_sessions.list_steps(user, id).await?))
}

/// Add a custom step (appended unless `sort_order` is given).
#[utoipa::path(post, path = "/v1/sessions/{id}/steps", tag = "sessions",
    params(("id" = uuid::Uuid, Path, description = "Session id")), request_body = CreateStepRequest,
    responses((status = 201, body = BrewStep, links(
            ("GetStep" = (operation_id = "get_step", parameters(("id" = "$response.body#/id")), description = "The step just added")),
            ("UpdateStep" = (operation_id = "update_step", parameters(("id" = "$response.body#/id")), description = "Tick or change the step just added")),
            ("StepTimer" = (operation_id = "step_timer", parameters(("id" = "$response.body#/id")), description = "Start or stop the timer of the step just added")),
            ("DeleteStep" = (operation_id = "delete_step", parameters(("id" = "$response.body#/id")), description = "Remove the step just added"))))))]
pub async fn create_step(
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
    body: JsonBody,
) -> ApiResult<HttpResponse> {
    let new = read_new_step(&body.json()?)?;
    Ok(created(&state.brew_sessions.add_step(user, id, new).await?))
}

/// One checklist step.
#[utoipa::path(get, path = "/v1/steps/{id}", tag = "sessions",
    params(("id" = uuid::Uuid, Path, description = "Step id")),
    responses((status = 200, body = BrewStep)))]
pub async fn get_step(
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    Ok(HttpResponse::Ok().json(state.brew_sessions.get_step(user, id).await?))
}

/// Tick (or untick) a step, or change it.
#[utoipa::path(patch, path = "/v1/steps/{id}", tag = "sessions",
    params(("id" = uuid::Uuid, Path, description = "Step id")), request_body = UpdateStepRequest,
    responses((status = 200, body = BrewStep)))]
pub async fn update_step(
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
    body: JsonBody,
) -> ApiResult<HttpResponse> {
    let patch = read_step_patch(&body.json()?)?;
    Ok(HttpResponse::Ok().json(state.brew_sessions.update_step(user, id, patch).await?))
}

/// Delete a step.
#[utoipa::path(delete, path = "/v1/steps/{id}", tag = "sessions",
    params(("id" = uuid::Uuid, Path, description = "Step id")),
    responses((status = 204, description = "Deleted")))]
pub async fn delete_step(
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    state.brew_sessions.delete_step(user, id).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Start, pause, resume or reset the step's timer. The countdown lives here, so every device
/// shows the same one: `ends_at` is when a running timer reaches zero, and a running timer read
/// after that instant is `done`.
#[utoipa::path(post, path = "/v1/steps/{id}/timer", tag = "sessions",
    params(("id" = uuid::Uuid, Path, description = "Step id")), request_body = StepTimerRequest,
    responses((status = 200, body = BrewStep),
        (status = 422, body = crate::error::ValidationErrorBody, description = "Invalid body, or invalid_transition (an action the timer cannot take now, or a step without a duration)")))]
pub async fn step_timer(
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
    body: JsonBody,
) -> ApiResult<HttpResponse> {
    let action = read_timer_action(&body.json()?)?;
    Ok(HttpResponse::Ok().json(state.brew_sessions.step_timer(user, id, action).await?))
}

// ---- Fermentation logs -------------------------------------------------------------------------

/// Readings with `from` ≤ `logged_at` < `to`, oldest first.
#[utoipa::path(get, path = "/v1/sessions/{id}/fermentation-logs", operation_id = "list_logs", tag = "fermentation logs",
    params(
        ("id" = uuid::Uuid, Path, description = "Session id"),
        ("from" = Option<String>, Query, format = DateTime, description = "Inclusive lower bound of logged_at"),
        ("to" = Option<String>, Query, format = DateTime, description = "Exclusive upper bound of logged_at"),
        ("limit" = Option<i64>, Query, description = "Page size (default 1000)"),
        ("offset" = Option<i64>, Query, description = "Items to skip (default 0)"),
    ),
    responses((status = 200, body = [Reading], headers(("X-Total-Count" = i64), ("Link" = String)))))]
pub async fn list_readings(
    CallerAndId { user, id }: CallerAndId,
    req: HttpRequest,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let query = Query::of(&req)?;
    let page = query.page(rules::DEFAULT_LOG_PAGE, rules::MAX_LOG_PAGE)?;
    let range = ReadingRange {
        from: query.datetime("from")?,
        to: query.datetime("to")?,
    };
    let logs = state
        .brew_sessions
        .list_readings(user, id, range, page)
        .await?;
    written_page_response(&req, &query, page, &logs, fast_json::readings)
}

/// Record a reading (at least one of gravity, temperature_c, ph, notes).
#[utoipa::path(post, path = "/v1/sessions/{id}/fermentation-logs", operation_id = "create_log", tag = "fermentation logs",
    params(("id" = uuid::Uuid, Path, description = "Session id")), request_body = CreateLogRequest,
    responses((status = 201, body = Reading, links(
            ("GetReading" = (operation_id = "get_log", parameters(("id" = "$response.body#/id")), description = "The reading just logged")),
            ("UpdateReading" = (operation_id = "update_log", parameters(("id" = "$response.body#/id")), description = "Correct the reading just logged")),
            ("DeleteReading" = (operation_id = "delete_log", parameters(("id" = "$response.body#/id")), description = "Remove the reading just logged"))))))]
pub async fn create_reading(
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
    body: JsonBody,
) -> ApiResult<HttpResponse> {
    let new = read_new_reading(&body.json()?)?;
    Ok(created(
        &state.brew_sessions.add_reading(user, id, new).await?,
    ))
}

/// The fermentation schedule, planned from the recipe snapshot when the session entered
/// `fermenting` (empty before that): the recipe's fermentation steps one after the other, each
/// due at a time, when a reading meets a gravity condition, or some days after the step before
/// it became due; and the dry hops, due at the end of primary minus their contact time. Each
/// step becomes due once, announced by the `fermentation.step_due` webhook event.
#[utoipa::path(get, path = "/v1/sessions/{id}/fermentation-schedule", tag = "fermentation logs",
    params(("id" = uuid::Uuid, Path, description = "Session id")),
    responses((status = 200, body = [wort_domain::brew_session::schedule::ScheduledStep])))]
pub async fn fermentation_schedule(
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    Ok(HttpResponse::Ok().json(state.brew_sessions.fermentation_schedule(user, id).await?))
}

/// The fermentation forecast: the four-parameter logistic model of gravity over time (Speers,
/// Rogers & Smith 2003, the ASBC miniature fermentation assay's model) fitted to the session's
/// gravity readings (hourly medians), with the recipe's predicted FG as weak prior knowledge:
/// the final gravity the fermentation is heading for and when the gravity comes within 0.001 of
/// it, each with an 80 % interval. Every field is null, with a `reason`, until there are at
/// least 6 gravity readings over at least 12 hours and a drop of at least 0.003, or when the
/// readings do not fit the model.
#[utoipa::path(get, path = "/v1/sessions/{id}/forecast", operation_id = "get_forecast", tag = "fermentation logs",
    params(("id" = uuid::Uuid, Path, description = "Session id")),
    responses((status = 200, body = wort_domain::brew_session::Forecast)))]
pub async fn forecast(
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    Ok(HttpResponse::Ok().json(state.brew_sessions.forecast(user, id).await?))
}

/// What is happening now, for a home page: the sessions `brewing` or `fermenting` (fermenting
/// first), each with the day of its status (1 in the first 24 hours after it entered it), the
/// original and latest gravity with the apparent attenuation and ABV so far, its checklist's
/// progress and the next step of its fermentation schedule (the first not due yet, with when it
/// is due or the gravity it waits for); and the checklist timers running (soonest end first) or
/// paused in sessions that are not final, each step's text in the caller's units.
#[utoipa::path(get, path = "/v1/home", tag = "sessions",
    responses((status = 200, body = wort_domain::brew_session::Home)))]
pub async fn home(Caller(user): Caller, state: web::Data<AppState>) -> ApiResult<HttpResponse> {
    Ok(HttpResponse::Ok().json(state.brew_sessions.home(user).await?))
}

/// The most recent reading (404 when there is none).
#[utoipa::path(get, path = "/v1/sessions/{id}/fermentation-logs/latest", operation_id = "latest_log", tag = "fermentation logs",
    params(("id" = uuid::Uuid, Path, description = "Session id")),
    responses((status = 200, body = Reading)))]
pub async fn latest_reading(
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    Ok(HttpResponse::Ok().json(state.brew_sessions.latest_reading(user, id).await?))
}

/// One reading.
#[utoipa::path(get, path = "/v1/fermentation-logs/{id}", operation_id = "get_log", tag = "fermentation logs",
    params(("id" = uuid::Uuid, Path, description = "Reading id")),
    responses((status = 200, body = Reading)))]
pub async fn get_reading(
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    Ok(HttpResponse::Ok().json(state.brew_sessions.get_reading(user, id).await?))
}

/// Correct a reading; it must still hold a measurement.
#[utoipa::path(patch, path = "/v1/fermentation-logs/{id}", operation_id = "update_log", tag = "fermentation logs",
    params(("id" = uuid::Uuid, Path, description = "Reading id")), request_body = UpdateLogRequest,
    responses((status = 200, body = Reading)))]
pub async fn update_reading(
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
    body: JsonBody,
) -> ApiResult<HttpResponse> {
    let patch = read_reading_update(&body.json()?)?;
    Ok(HttpResponse::Ok().json(state.brew_sessions.update_reading(user, id, patch).await?))
}

/// Delete a reading.
#[utoipa::path(delete, path = "/v1/fermentation-logs/{id}", operation_id = "delete_log", tag = "fermentation logs",
    params(("id" = uuid::Uuid, Path, description = "Reading id")),
    responses((status = 204, description = "Deleted")))]
pub async fn delete_reading(
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    state.brew_sessions.delete_reading(user, id).await?;
    Ok(HttpResponse::NoContent().finish())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::body::spec::assert_whole;

    #[test]
    fn every_body_table_matches_its_reader() {
        assert_whole(&NEW_SESSION, |body| read_session_request(body).map(|_| ()));
        assert_whole(&SESSION_UPDATE, |body| read_session_patch(body).map(|_| ()));
        assert_whole(&NEW_STEP, |body| read_new_step(body).map(|_| ()));
        assert_whole(&STEP_UPDATE, |body| read_step_patch(body).map(|_| ()));
        assert_whole(&TIMER, |body| read_timer_action(body).map(|_| ()));
        assert_whole(&READING, |body| read_new_reading(body).map(|_| ()));
        assert_whole(&READING, |body| read_reading_update(body).map(|_| ()));
    }
}
