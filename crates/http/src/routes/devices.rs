//! `/v1/devices` and `POST /ingest/{token}`: hydrometers that post readings.

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, web};
use serde_json::{Map, Value, json};
use utoipa::ToSchema;
use wort_domain::device::rules;
use wort_domain::device::{Device, DeviceKind, DevicePatch, GeneratedDevice, NewDevice};
use wort_hydrometers::{IngestBody, read_payload};

use super::{created, page_response, resource};
use crate::body::JsonBody;
use crate::body::spec::{
    BodySpec, Choice, Descriptions, FieldSpec, Kind, Missing, Mode, Reader, request_body_schema,
};
use crate::caching::secret;
use crate::caller::{Caller, CallerAndId};
use crate::error::{ApiError, ApiResult};
use crate::params::{DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, Query};
use crate::state::AppState;

/// Inside the `/v1/devices` scope.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(
        resource("", "GET, POST")
            .route(web::get().to(list_devices))
            .route(web::post().to(create_device)),
    )
    .service(
        resource("/{id}", "GET, PATCH, DELETE")
            .route(web::get().to(get_device))
            .route(web::patch().to(update_device))
            .route(web::delete().to(delete_device)),
    )
    .service(resource("/{id}/token", "POST").route(web::post().to(replace_device_token)));
}

/// `POST /ingest/{token}`, outside `/v1` as devices are configured with one URL.
pub fn configure_ingest(cfg: &mut web::ServiceConfig) {
    cfg.service(resource("/ingest/{token}", "POST").route(web::post().to(ingest)));
}

fn kind_names() -> Vec<&'static str> {
    DeviceKind::ALL.iter().map(DeviceKind::as_str).collect()
}

static DEVICE: BodySpec = BodySpec {
    rules: rules::DEVICE_FIELDS,
    missing: Missing::Last,
    fields: &[
        FieldSpec::required("name", Kind::Text),
        FieldSpec::required(
            "kind",
            Kind::Choice(Choice::by_ref::<DeviceKind>(kind_names).missing_as_string()),
        ),
        FieldSpec::clearable("session_id", Kind::Uuid)
            .described("The brew session its readings go to."),
    ],
};

request_body_schema!(
    /// `POST /v1/devices`.
    CreateDeviceRequest,
    DEVICE,
    Mode::Create,
    "Request body of `POST /v1/devices`.",
    field_descriptions = true
);

request_body_schema!(
    /// `PATCH /v1/devices/{id}`.
    UpdateDeviceRequest,
    DEVICE,
    Mode::Update,
    "Request body of `PATCH /v1/devices/{id}`: only the fields sent change.",
    field_descriptions = Descriptions::These(&[(
        "session_id",
        "`null` unassigns the device: its posts are refused until a session is assigned."
    )])
);

/// The fields sent: every one on create, only those sent on update.
fn read_patch(f: &mut Reader) -> DevicePatch {
    DevicePatch {
        name: f.text("name"),
        kind: f.enumeration("kind", DeviceKind::parse),
        session_id: f.nullable_uuid("session_id"),
    }
}

fn read_new_device(body: &Value) -> ApiResult<NewDevice> {
    let mut f = Reader::new(body, &DEVICE, Mode::Create)?;
    let patch = read_patch(&mut f);
    // Each `None` left is a required field not sent, which `finish` reports.
    f.finish(NewDevice {
        name: patch.name.unwrap_or_default(),
        kind: patch.kind.unwrap_or(DeviceKind::Generic),
        session_id: patch.session_id.flatten(),
    })
}

fn read_update(body: &Value) -> ApiResult<DevicePatch> {
    let mut f = Reader::new(body, &DEVICE, Mode::Update)?;
    let patch = read_patch(&mut f);
    f.finish(patch)
}

/// The account's devices by name.
#[utoipa::path(get, path = "/v1/devices", tag = "devices",
    params(
        ("limit" = Option<i64>, Query, description = "Page size (default 50)"),
        ("offset" = Option<i64>, Query, description = "Items to skip (default 0)"),
    ),
    responses((status = 200, body = [Device], headers(("X-Total-Count" = i64), ("Link" = String)))))]
pub async fn list_devices(
    Caller(user): Caller,
    req: HttpRequest,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let query = Query::of(&req)?;
    let page = query.page(DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE)?;
    let devices = state.devices.list(user, page).await?;
    Ok(page_response(&req, &query, page, &devices))
}

/// Add a device. The answer holds its ingest `token`, shown this once: the device posts to
/// `/ingest/{token}`.
#[utoipa::path(post, path = "/v1/devices", tag = "devices",
    request_body = CreateDeviceRequest,
    responses((status = 201, body = GeneratedDevice)))]
pub async fn create_device(
    Caller(user): Caller,
    state: web::Data<AppState>,
    body: JsonBody,
) -> ApiResult<HttpResponse> {
    let new = read_new_device(&body.json()?)?;
    let device = state.devices.create(user, new).await?;
    Ok(secret(created(&device)))
}

/// One device, with when it last posted and what.
#[utoipa::path(get, path = "/v1/devices/{id}", tag = "devices",
    params(("id" = uuid::Uuid, Path, description = "Device id")),
    responses((status = 200, body = Device)))]
pub async fn get_device(
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    Ok(HttpResponse::Ok().json(state.devices.get(user, id).await?))
}

/// Rename a device, change its kind, or assign it to another brew session (`null`: none).
#[utoipa::path(patch, path = "/v1/devices/{id}", tag = "devices",
    params(("id" = uuid::Uuid, Path, description = "Device id")), request_body = UpdateDeviceRequest,
    responses((status = 200, body = Device)))]
pub async fn update_device(
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
    body: JsonBody,
) -> ApiResult<HttpResponse> {
    let patch = read_update(&body.json()?)?;
    Ok(HttpResponse::Ok().json(state.devices.update(user, id, patch).await?))
}

/// Delete a device; the readings it posted stay, with `device_id` null.
#[utoipa::path(delete, path = "/v1/devices/{id}", tag = "devices",
    params(("id" = uuid::Uuid, Path, description = "Device id")),
    responses((status = 204, description = "Deleted")))]
pub async fn delete_device(
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    state.devices.delete(user, id).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Replace the device's token (lost or leaked): the old one is refused from now on. The new
/// one is in the answer, shown this once.
#[utoipa::path(post, path = "/v1/devices/{id}/token", tag = "devices",
    params(("id" = uuid::Uuid, Path, description = "Device id")),
    responses((status = 200, body = GeneratedDevice)))]
pub async fn replace_device_token(
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    Ok(secret(
        HttpResponse::Ok().json(state.devices.replace_token(user, id).await?),
    ))
}

/// `{"message":"success"}`, what the devices' firmware expects.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct IngestAnswer {
    message: String,
}

/// A device's reading, as iSpindel, GravityMon, Tilt, RAPT, Brewfather's and Brewer's Friend's
/// streams post it (JSON, or a form post for the Tilt). No other credential: the token in the
/// path is the device's. One reading is stored in the device's brew session; at most one a
/// minute per device (`429` with `Retry-After`). See docs/devices.md for each device's setup.
#[utoipa::path(post, path = "/ingest/{token}", tag = "devices",
    params(("token" = String, Path, description = "The device's ingest token (`wortd_…`)")),
    request_body(content((Object = "application/json"), (Object = "application/x-www-form-urlencoded")), description = "The device's payload: iSpindel/GravityMon JSON (`gravity`, `temperature`, `temp_units`, `gravity-unit`…), Brewfather or Brewer's Friend stream JSON (`gravity`, `gravity_unit`, `temp`, `temp_unit`, `ph`, `comment`), or the Tilt's form post (`SG`, `Temp` in °F)"),
    responses((status = 200, body = IngestAnswer),
        (status = 401, body = crate::error::ErrorBody, description = "Unknown token"),
        (status = 409, body = crate::error::ErrorBody, description = "No open brew session is assigned to the device; nothing stored"),
        (status = 422, body = crate::error::ValidationErrorBody, description = "No usable value in the payload"),
        (status = 429, body = crate::error::ErrorBody, description = "The device stored a reading less than a minute ago")))]
pub async fn ingest(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: JsonBody,
) -> ApiResult<HttpResponse> {
    let token = req.match_info().get("token").unwrap_or_default();
    if !rules::looks_like_device_token(token) {
        return Err(ApiError::Unauthorized);
    }
    match read_ingest_body(&req, &body) {
        Ok(IngestPayload::Form(pairs)) => {
            let payload: Map<String, Value> = pairs
                .iter()
                .map(|(k, v)| (k.clone(), Value::String(v.clone())))
                .collect();
            state
                .devices
                .ingest(
                    token,
                    Value::Object(payload),
                    read_payload(IngestBody::Form(&pairs)),
                )
                .await?;
        }
        Ok(IngestPayload::Json(map)) => {
            let reading = read_payload(IngestBody::Json(&map));
            state
                .devices
                .ingest(token, Value::Object(map), reading)
                .await?;
        }
        Err(e) => {
            // The credential is checked before the body: an unknown token is 401 whatever was
            // sent, so a malformed post does not tell whether a token exists.
            state.devices.check_token(token).await?;
            return Err(e);
        }
    }
    Ok(HttpResponse::Ok().json(json!({ "message": "success" })))
}

/// A device's body, read.
enum IngestPayload {
    Form(Vec<(String, String)>),
    Json(Map<String, Value>),
}

/// Devices are sloppy with `Content-Type`: a form post is read as a form, anything else as JSON.
fn read_ingest_body(req: &HttpRequest, body: &JsonBody) -> ApiResult<IngestPayload> {
    let bytes = match body {
        JsonBody::TooLarge => return Err(ApiError::PayloadTooLarge),
        JsonBody::TimedOut => return Err(ApiError::BodyTimeout),
        JsonBody::Failed(e) => {
            return Err(ApiError::bad_request(format!("Could not read body: {e}")));
        }
        JsonBody::Read { bytes, .. } if bytes.len() > rules::MAX_PAYLOAD_BYTES => {
            return Err(ApiError::PayloadTooLarge);
        }
        JsonBody::Read { bytes, .. } => bytes,
    };
    if is_form(req) {
        return Ok(IngestPayload::Form(
            url::form_urlencoded::parse(bytes).into_owned().collect(),
        ));
    }
    // A member named twice is 400, as in every JSON body.
    match crate::body::parse_json(bytes)? {
        Value::Object(map) => Ok(IngestPayload::Json(map)),
        _ => Err(ApiError::bad_request("The body must be a JSON object")),
    }
}

fn is_form(req: &HttpRequest) -> bool {
    req.headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|t| {
            t.trim()
                .eq_ignore_ascii_case("application/x-www-form-urlencoded")
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::body::spec::assert_whole;

    #[test]
    fn every_field_of_the_tables_is_read() {
        assert_whole(&DEVICE, |body| read_new_device(body).map(|_| ()));
        assert_whole(&DEVICE, |body| read_update(body).map(|_| ()));
    }
}
