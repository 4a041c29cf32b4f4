//! `/v1/alert-rules` and `/v1/alerts`: the fermentation autopilot's rules and the alerts they
//! raise.

use actix_web::{HttpRequest, HttpResponse, web};
use serde_json::Value;
use wort_domain::alert::model::Thresholds;
use wort_domain::alert::rules;
use wort_domain::alert::{Alert, AlertKind, AlertRule, AlertRulePatch, AlertState, NewAlertRule};
use wort_domain::error::Violation;

use super::{created, page_response, resource};
use crate::body::JsonBody;
use crate::body::spec::{
    BodySpec, Choice, DefaultValue, Descriptions, FieldSpec, Kind, Missing, Mode, OnCreate, Reader,
    request_body_schema,
};
use crate::caller::{Caller, CallerAndId};
use crate::error::ApiResult;
use crate::params::{DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, Query};
use crate::state::AppState;

/// Inside the `/v1/alert-rules` scope.
pub fn configure_rules(cfg: &mut web::ServiceConfig) {
    cfg.service(
        resource("", "GET, POST")
            .route(web::get().to(list_alert_rules))
            .route(web::post().to(create_alert_rule)),
    )
    .service(
        resource("/{id}", "GET, PATCH, DELETE")
            .route(web::get().to(get_alert_rule))
            .route(web::patch().to(update_alert_rule))
            .route(web::delete().to(delete_alert_rule)),
    );
}

/// Inside the `/v1/alerts` scope.
pub fn configure_alerts(cfg: &mut web::ServiceConfig) {
    cfg.service(resource("", "GET").route(web::get().to(list_alerts)))
        .service(resource("/{id}/acknowledge", "POST").route(web::post().to(acknowledge_alert)));
}

fn kind_names() -> Vec<&'static str> {
    AlertKind::ALL.iter().map(AlertKind::as_str).collect()
}

// The threshold fields, each taken by one or two kinds (`rules::fields_of`). Constants, so that
// both bodies can list them.
const GRAVITY: FieldSpec = FieldSpec::clearable("gravity", Kind::Number)
    .described("`gravity_below`, `gravity_above`: the mark (SG).");
const MIN_C: FieldSpec = FieldSpec::clearable("min_c", Kind::Number)
    .described("`temperature_outside`: the band's lower edge (°C).");
const MAX_C: FieldSpec = FieldSpec::clearable("max_c", Kind::Number)
    .described("`temperature_outside`: the band's upper edge (°C), at least 1 °C above `min_c`.");
const POINTS: FieldSpec = FieldSpec::clearable("points", Kind::Number)
    .described("`stalled`: the least change in gravity points (1 point = 0.001) over `hours`.");
const HOURS: FieldSpec =
    FieldSpec::clearable("hours", Kind::Number).described("`stalled`: the window, in hours.");
const MINUTES: FieldSpec = FieldSpec::clearable("minutes", Kind::Integer)
    .described("`device_silent`: how long a device may stay quiet.");

static CREATE_RULE: BodySpec = BodySpec {
    rules: rules::ALERT_RULE_FIELDS,
    missing: Missing::Last,
    fields: &[
        FieldSpec::required(
            "kind",
            Kind::Choice(Choice::by_ref::<AlertKind>(kind_names).missing_as_string()),
        ),
        FieldSpec::clearable("session_id", Kind::Uuid).described(
            "The session watched; `null` or absent: every session of the account while it is \
             fermenting.",
        ),
        FieldSpec::new(
            "enabled",
            Kind::Boolean,
            OnCreate::Default(DefaultValue::Bool(true)),
        ),
        GRAVITY,
        MIN_C,
        MAX_C,
        POINTS,
        HOURS,
        MINUTES,
    ],
};

static UPDATE_RULE: BodySpec = BodySpec {
    rules: rules::ALERT_RULE_FIELDS,
    missing: Missing::Last,
    fields: &[
        FieldSpec::clearable("session_id", Kind::Uuid),
        FieldSpec::new(
            "enabled",
            Kind::Boolean,
            OnCreate::Default(DefaultValue::Bool(true)),
        ),
        GRAVITY,
        MIN_C,
        MAX_C,
        POINTS,
        HOURS,
        MINUTES,
    ],
};

request_body_schema!(
    /// `POST /v1/alert-rules`.
    CreateAlertRuleRequest,
    CREATE_RULE,
    Mode::Create,
    "Request body of `POST /v1/alert-rules`: the kind and exactly the fields it takes.",
    field_descriptions = true
);

request_body_schema!(
    /// `PATCH /v1/alert-rules/{id}`.
    UpdateAlertRuleRequest,
    UPDATE_RULE,
    Mode::Update,
    "Request body of `PATCH /v1/alert-rules/{id}`: only the fields sent change; the kind does \
     not (a different watch is a new rule). The rule as patched must still hold exactly the \
     fields its kind takes.",
    field_descriptions = Descriptions::These(&[(
        "session_id",
        "`null` watches every session of the account while it is fermenting."
    )])
);

/// The threshold fields sent: `None` not sent, `Some(None)` sent as `null`.
struct SentThresholds {
    gravity: Option<Option<f64>>,
    min_c: Option<Option<f64>>,
    max_c: Option<Option<f64>>,
    points: Option<Option<f64>>,
    hours: Option<Option<f64>>,
    minutes: Option<Option<i64>>,
}

fn read_thresholds(f: &mut Reader) -> SentThresholds {
    SentThresholds {
        gravity: f.nullable_number("gravity"),
        min_c: f.nullable_number("min_c"),
        max_c: f.nullable_number("max_c"),
        points: f.nullable_number("points"),
        hours: f.nullable_number("hours"),
        minutes: f.nullable_integer("minutes"),
    }
}

fn read_new_rule(body: &Value) -> ApiResult<NewAlertRule> {
    let mut f = Reader::new(body, &CREATE_RULE, Mode::Create)?;
    let kind = f.enumeration("kind", AlertKind::parse);
    let session_id = f.nullable_uuid("session_id").flatten();
    let enabled = f.boolean("enabled").unwrap_or(true);
    let t = read_thresholds(&mut f);
    // A missing kind is reported by `finish`; the placeholder is never used.
    f.finish(NewAlertRule {
        kind: kind.unwrap_or(AlertKind::GravityBelow),
        session_id,
        enabled,
        thresholds: Thresholds {
            gravity: t.gravity.flatten(),
            min_c: t.min_c.flatten(),
            max_c: t.max_c.flatten(),
            points: t.points.flatten(),
            hours: t.hours.flatten(),
            minutes: t.minutes.flatten(),
        },
    })
}

fn read_update(body: &Value) -> ApiResult<AlertRulePatch> {
    let mut f = Reader::new(body, &UPDATE_RULE, Mode::Update)?;
    if body.get("kind").is_some() {
        f.report(Violation::new(
            "custom",
            &["kind"],
            "A rule's kind does not change; create a new rule for a different watch",
        ));
    }
    let session_id = f.nullable_uuid("session_id");
    let enabled = f.boolean("enabled");
    let t = read_thresholds(&mut f);
    f.finish(AlertRulePatch {
        session_id,
        enabled,
        gravity: t.gravity,
        min_c: t.min_c,
        max_c: t.max_c,
        points: t.points,
        hours: t.hours,
        minutes: t.minutes,
    })
}

/// The account's alert rules, oldest first.
#[utoipa::path(get, path = "/v1/alert-rules", tag = "alerts",
    params(
        ("limit" = Option<i64>, Query, description = "Page size (default 50)"),
        ("offset" = Option<i64>, Query, description = "Items to skip (default 0)"),
    ),
    responses((status = 200, body = [AlertRule], headers(("X-Total-Count" = i64), ("Link" = String)))))]
pub async fn list_alert_rules(
    Caller(user): Caller,
    req: HttpRequest,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let query = Query::of(&req)?;
    let page = query.page(DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE)?;
    let rules = state.alerts.list_rules(user, page).await?;
    Ok(page_response(&req, &query, page, &rules))
}

/// Add a rule: what to watch (`kind` and its fields) and on which session (`null`: every
/// fermenting session). At most 100 rules per account.
#[utoipa::path(post, path = "/v1/alert-rules", tag = "alerts",
    request_body = CreateAlertRuleRequest,
    responses((status = 201, body = AlertRule)))]
pub async fn create_alert_rule(
    Caller(user): Caller,
    state: web::Data<AppState>,
    body: JsonBody,
) -> ApiResult<HttpResponse> {
    let new = read_new_rule(&body.json()?)?;
    Ok(created(&state.alerts.create_rule(user, new).await?))
}

/// One alert rule.
#[utoipa::path(get, path = "/v1/alert-rules/{id}", tag = "alerts",
    params(("id" = uuid::Uuid, Path, description = "Alert rule id")),
    responses((status = 200, body = AlertRule)))]
pub async fn get_alert_rule(
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    Ok(HttpResponse::Ok().json(state.alerts.get_rule(user, id).await?))
}

/// Change a rule's thresholds, session, or `enabled`. A disabled rule raises nothing, and its
/// active alerts clear within a minute.
#[utoipa::path(patch, path = "/v1/alert-rules/{id}", tag = "alerts",
    params(("id" = uuid::Uuid, Path, description = "Alert rule id")),
    request_body = UpdateAlertRuleRequest,
    responses((status = 200, body = AlertRule)))]
pub async fn update_alert_rule(
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
    body: JsonBody,
) -> ApiResult<HttpResponse> {
    let patch = read_update(&body.json()?)?;
    Ok(HttpResponse::Ok().json(state.alerts.update_rule(user, id, patch).await?))
}

/// Delete a rule. Its active alerts clear (each with `alert.cleared`); its alerts stay in the
/// history with `rule_id` null.
#[utoipa::path(delete, path = "/v1/alert-rules/{id}", tag = "alerts",
    params(("id" = uuid::Uuid, Path, description = "Alert rule id")),
    responses((status = 204, description = "Deleted")))]
pub async fn delete_alert_rule(
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    state.alerts.delete_rule(user, id).await?;
    Ok(HttpResponse::NoContent().finish())
}

fn state_names() -> [&'static str; 2] {
    ["active", "all"]
}

/// The account's alerts, newest `raised_at` first: the active ones (default), or all.
/// `X-Total-Count` of `?state=active` is the number to show beside a bell.
#[utoipa::path(get, path = "/v1/alerts", tag = "alerts",
    params(
        ("state" = Option<String>, Query, description = "`active` (default): not cleared; `all`: every alert"),
        ("session_id" = Option<uuid::Uuid>, Query, description = "Only this session's alerts"),
        ("limit" = Option<i64>, Query, description = "Page size (default 50)"),
        ("offset" = Option<i64>, Query, description = "Items to skip (default 0)"),
    ),
    responses((status = 200, body = [Alert], headers(("X-Total-Count" = i64), ("Link" = String)))))]
pub async fn list_alerts(
    Caller(user): Caller,
    req: HttpRequest,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let query = Query::of(&req)?;
    let page = query.page(DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE)?;
    let which = query
        .one_of("state", &state_names(), AlertState::parse)?
        .unwrap_or(AlertState::Active);
    let session = query.uuid("session_id")?;
    let alerts = state.alerts.list_alerts(user, which, session, page).await?;
    Ok(page_response(&req, &query, page, &alerts))
}

/// Acknowledge an alert (seen; it stays active until its condition is false again). Acknowledging
/// again keeps the first time.
#[utoipa::path(post, path = "/v1/alerts/{id}/acknowledge", tag = "alerts",
    params(("id" = uuid::Uuid, Path, description = "Alert id")),
    responses((status = 200, body = Alert)))]
pub async fn acknowledge_alert(
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    Ok(HttpResponse::Ok().json(state.alerts.acknowledge(user, id).await?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::body::spec::assert_whole;

    #[test]
    fn every_field_of_the_bodies_is_read() {
        assert_whole(&CREATE_RULE, |body| read_new_rule(body).map(|_| ()));
        assert_whole(&UPDATE_RULE, |body| read_update(body).map(|_| ()));
    }
}
