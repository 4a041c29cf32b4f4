//! `/api/auth`: sign-up, sign-in, sign-out, the current session, and API key management.
//! This surface speaks camelCase, like the auth library whose paths it keeps.

use actix_web::cookie::{Cookie, SameSite, time::Duration as CookieDuration};
use actix_web::{HttpRequest, HttpResponse, web};
use serde::Serialize;
use serde_json::{Value, json};
use time::Duration;
use utoipa::ToSchema;
use uuid::Uuid;
use wort_domain::account::{self, ApiKey, PasswordChange, SIGN_IN_LIFETIME, SignUp, User};
use wort_domain::rules::FieldRules;
use wort_domain::timestamp;

use super::resource;
use crate::body::JsonBody;
use crate::body::spec::{
    BodySpec, FieldSpec, Kind, Missing, Mode, OnCreate, Reader, request_body_schema,
};
use crate::caching::secret;
use crate::credentials::{SESSION_COOKIE, SignedIn, session_token};
use crate::error::{ApiError, ApiResult};
use crate::state::AppState;

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(resource("/api/auth/sign-up/email", "POST").route(web::post().to(sign_up)))
        .service(resource("/api/auth/sign-in/email", "POST").route(web::post().to(sign_in)))
        .service(resource("/api/auth/sign-out", "POST").route(web::post().to(sign_out)))
        .service(resource("/api/auth/get-session", "GET").route(web::get().to(get_session)))
        .service(resource("/api/auth/api-key/create", "POST").route(web::post().to(create_key)))
        .service(resource("/api/auth/api-key/list", "GET").route(web::get().to(list_keys)))
        .service(resource("/api/auth/api-key/delete", "POST").route(web::post().to(delete_key)))
        .service(
            resource("/api/auth/change-password", "POST").route(web::post().to(change_password)),
        )
        .service(resource("/api/auth/update-user", "POST").route(web::post().to(update_user)));
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UserBody {
    #[schema(format = Uuid)]
    id: String,
    email: String,
    name: String,
    #[schema(format = DateTime)]
    created_at: String,
}

impl From<&User> for UserBody {
    fn from(u: &User) -> Self {
        UserBody {
            id: u.id.0.to_string(),
            email: u.email.clone(),
            name: u.name.clone(),
            created_at: timestamp::format(u.created_at),
        }
    }
}

#[derive(Serialize, ToSchema)]
pub struct UserEnvelope {
    user: UserBody,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SessionBody {
    #[schema(format = Uuid)]
    id: String,
    #[schema(format = DateTime)]
    expires_at: String,
}

#[derive(Serialize, ToSchema)]
pub struct SessionEnvelope {
    session: SessionBody,
    user: UserBody,
}

/// An API key as listed (never the key itself).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ApiKeyBody {
    #[schema(format = Uuid)]
    id: String,
    name: String,
    start: String,
    prefix: String,
    #[schema(format = Uuid)]
    user_id: String,
    enabled: bool,
    #[schema(format = DateTime)]
    expires_at: Option<String>,
    #[schema(format = DateTime)]
    created_at: String,
    #[schema(format = DateTime)]
    updated_at: String,
    #[schema(format = DateTime)]
    last_used_at: Option<String>,
}

impl From<&ApiKey> for ApiKeyBody {
    fn from(k: &ApiKey) -> Self {
        ApiKeyBody {
            id: k.id.to_string(),
            name: k.name.clone(),
            start: k.start.clone(),
            prefix: k.prefix.clone(),
            user_id: k.user_id.0.to_string(),
            enabled: k.enabled,
            expires_at: k.expires_at.map(timestamp::format),
            created_at: timestamp::format(k.created_at),
            updated_at: timestamp::format(k.updated_at),
            last_used_at: k.last_used_at.map(timestamp::format),
        }
    }
}

/// A newly created key: the only response that ever carries `key`.
#[derive(Serialize, ToSchema)]
pub struct CreatedApiKeyBody {
    #[serde(flatten)]
    listed: ApiKeyBody,
    /// The full key. Shown once; store it now.
    key: String,
}

#[derive(Serialize, ToSchema)]
pub struct Success {
    success: bool,
}

/// Every body of this surface is read whole (there are no partial updates): a missing field is
/// reported where it is read, in the body's order.
const fn body(rules: FieldRules, fields: &'static [FieldSpec]) -> BodySpec {
    BodySpec {
        rules,
        missing: Missing::WhereRead,
        fields,
    }
}

static SIGN_UP: BodySpec = body(
    account::SIGN_UP_FIELDS,
    &[
        FieldSpec::required("name", Kind::Text),
        FieldSpec::required("email", Kind::Email),
        FieldSpec::required("password", Kind::Text),
    ],
);

/// Sign-in's caps guard the server rather than state the account's rules, but they refuse a
/// request all the same, so the document shows them like every other bound.
static SIGN_IN: BodySpec = body(
    account::SIGN_IN_FIELDS,
    &[
        FieldSpec::required("email", Kind::Email),
        FieldSpec::required("password", Kind::Text),
    ],
);

static API_KEY: BodySpec = body(
    account::API_KEY_FIELDS,
    &[
        FieldSpec::required("name", Kind::Text),
        FieldSpec::clearable("expiresIn", Kind::Integer64).described(
            "Lifetime in seconds (60–31,536,000); null or absent: the key never expires.",
        ),
    ],
);

static DELETE_KEY: BodySpec = body(&[], &[FieldSpec::required("keyId", Kind::Uuid)]);

static CHANGE_PASSWORD: BodySpec = body(
    account::CHANGE_PASSWORD_FIELDS,
    &[
        FieldSpec::required("currentPassword", Kind::Text),
        FieldSpec::required("newPassword", Kind::Text),
        FieldSpec::new("revokeOtherSessions", Kind::Boolean, OnCreate::Optional).described(
            "End every other sign-in session of the account (this one stays). Default false.",
        ),
    ],
);

static UPDATE_USER: BodySpec = body(
    account::UPDATE_USER_FIELDS,
    &[FieldSpec::required("name", Kind::Text)],
);

request_body_schema!(
    /// `POST /api/auth/sign-up/email`.
    SignUpRequest,
    SIGN_UP,
    Mode::Create,
    "Request body of `POST /api/auth/sign-up/email`.",
    field_descriptions = true
);
request_body_schema!(
    /// `POST /api/auth/sign-in/email`.
    SignInRequest,
    SIGN_IN,
    Mode::Create,
    field_descriptions = true
);
request_body_schema!(
    /// `POST /api/auth/api-key/create`.
    CreateApiKeyRequest,
    API_KEY,
    Mode::Create,
    field_descriptions = true
);
request_body_schema!(
    /// `POST /api/auth/api-key/delete`.
    DeleteApiKeyRequest,
    DELETE_KEY,
    Mode::Create,
    field_descriptions = true
);
request_body_schema!(
    /// `POST /api/auth/change-password`.
    ChangePasswordRequest,
    CHANGE_PASSWORD,
    Mode::Create,
    field_descriptions = true
);
request_body_schema!(
    /// `POST /api/auth/update-user`.
    UpdateUserRequest,
    UPDATE_USER,
    Mode::Create,
    field_descriptions = true
);

fn read_sign_up(body: &Value) -> ApiResult<Option<SignUp>> {
    let mut f = Reader::new(body, &SIGN_UP, Mode::Create)?;
    let name = f.text("name");
    let email = read_email(&mut f);
    let password = f.text("password");
    let fields = match (name, email, password) {
        (Some(name), Some(email), Some(password)) => Some(SignUp {
            name,
            email,
            password,
        }),
        _ => None,
    };
    f.finish(fields)
}

fn read_sign_in(body: &Value) -> ApiResult<Option<(String, String)>> {
    let mut f = Reader::new(body, &SIGN_IN, Mode::Create)?;
    let email = f.text("email");
    let password = f.text("password");
    f.finish(email.zip(password))
}

fn read_new_key(body: &Value) -> ApiResult<Option<(String, Option<i64>)>> {
    let mut f = Reader::new(body, &API_KEY, Mode::Create)?;
    let name = f.text("name");
    let expires_in = f.nullable_integer("expiresIn").flatten();
    f.finish(name.map(|name| (name, expires_in)))
}

/// The key to delete; `Ok(None)` for a string that is no UUID, which cannot name a key of this
/// account (`404`, like an unknown one, rather than `422`).
fn read_key_id(body: &Value) -> ApiResult<Option<Uuid>> {
    if let Some(Value::String(s)) = body.get("keyId")
        && Uuid::try_parse(s).is_err()
    {
        return Ok(None);
    }
    let mut f = Reader::new(body, &DELETE_KEY, Mode::Create)?;
    let key_id = f.uuid("keyId");
    f.finish(key_id)
}

fn read_password_change(body: &Value) -> ApiResult<Option<PasswordChange>> {
    let mut f = Reader::new(body, &CHANGE_PASSWORD, Mode::Create)?;
    let current = f.text("currentPassword");
    let new = f.text("newPassword");
    let revoke = f.boolean("revokeOtherSessions");
    let change = current.zip(new).map(|(current, new)| PasswordChange {
        current,
        new,
        revoke_other_sessions: revoke.unwrap_or(false),
    });
    f.finish(change)
}

fn read_user_name(body: &Value) -> ApiResult<Option<String>> {
    let mut f = Reader::new(body, &UPDATE_USER, Mode::Create)?;
    let name = f.text("name");
    f.finish(name)
}

/// `{"status": true}`, better-auth's answer to account changes.
#[derive(Serialize, ToSchema)]
pub struct StatusBody {
    status: bool,
}

/// Sign-up and sign-in from a browser page of a foreign origin are refused outright.
fn check_sign_in_origin(req: &HttpRequest, state: &AppState) -> ApiResult<()> {
    let origin = req.headers().get("origin").and_then(|v| v.to_str().ok());
    match origin {
        Some(o) if !state.origins.allows(o) => Err(ApiError::bad_request("Origin not allowed")),
        _ => Ok(()),
    }
}

/// Reads `email` with sign-up's rule (bounded, plausible, normalised).
fn read_email(f: &mut Reader) -> Option<String> {
    let email = f.text("email")?;
    match account::check_email(&["email"], &email) {
        Ok(email) => Some(email),
        Err(v) => {
            f.report(v);
            None
        }
    }
}

fn session_cookie(state: &AppState, token: String, lifetime: Duration) -> Cookie<'static> {
    Cookie::build(SESSION_COOKIE, token)
        .http_only(true)
        .same_site(SameSite::Lax)
        .path("/")
        .secure(state.origins.secure_cookies())
        .max_age(CookieDuration::seconds(lifetime.whole_seconds()))
        .finish()
}

/// The answer to a sign-up or sign-in: the user, and the cookie of the new sign-in session (a
/// secret: never stored by a cache, never compressed).
fn signed_in_response(state: &AppState, signed_in: account::SignedIn) -> HttpResponse {
    secret(
        HttpResponse::Ok()
            .cookie(session_cookie(state, signed_in.token, SIGN_IN_LIFETIME))
            .json(UserEnvelope {
                user: (&signed_in.user).into(),
            }),
    )
}

/// Create an account and sign in. Limited per client address (`WORT_SIGNUP_PER_HOUR`); `404`
/// when the operator has closed sign-up (`WORT_SIGNUP=closed`).
#[utoipa::path(post, path = "/api/auth/sign-up/email", tag = "auth", request_body = SignUpRequest,
    responses((status = 200, body = UserEnvelope, description = "Signed up; sets the wort_session cookie"),
        (status = 400, body = crate::error::ErrorBody),
        (status = 404, body = crate::error::ErrorBody, description = "Sign-up is closed on this instance"),
        (status = 413, body = crate::error::ErrorBody),
        (status = 422, body = crate::error::ValidationErrorBody),
        (status = 429, body = crate::error::ErrorBody, headers(("Retry-After" = i64)),
            description = "Too many sign-ups from this address")))]
pub async fn sign_up(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: JsonBody,
) -> ApiResult<HttpResponse> {
    check_sign_in_origin(&req, &state)?;
    let fields = read_sign_up(&body.json()?)?.ok_or(ApiError::Internal)?;
    let address = state.client_address.of_request(&req);
    let signed_in = state.accounts.sign_up(fields, &address).await?;
    Ok(signed_in_response(&state, signed_in))
}

/// Sign in with email and password.
#[utoipa::path(post, path = "/api/auth/sign-in/email", tag = "auth", request_body = SignInRequest,
    responses((status = 200, body = UserEnvelope, description = "Signed in; sets the wort_session cookie"),
        (status = 400, body = crate::error::ErrorBody), (status = 401, body = crate::error::ErrorBody),
        (status = 422, body = crate::error::ValidationErrorBody),
        (status = 429, body = crate::error::ErrorBody, description = "Too many failed attempts for this email or from this address")))]
pub async fn sign_in(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: JsonBody,
) -> ApiResult<HttpResponse> {
    check_sign_in_origin(&req, &state)?;
    let (email, password) = read_sign_in(&body.json()?)?.ok_or(ApiError::Internal)?;
    let address = state.client_address.of_request(&req);
    let signed_in = state.accounts.sign_in(&email, password, &address).await?;
    Ok(signed_in_response(&state, signed_in))
}

/// End the browser session (also fine when not signed in).
///
/// A session cookie sent from a page of another origin (or without `Origin` and `Referer`)
/// cannot act, so the sign-out is refused and nothing changes: clearing the cookie while the
/// session lives on would leave a session the browser can no longer end.
#[utoipa::path(post, path = "/api/auth/sign-out", tag = "auth",
    responses((status = 200, body = Success, description = "Signed out; the cookie is cleared"),
        (status = 400, body = crate::error::ErrorBody,
            description = "`Origin not allowed`: a session cookie from another origin; the session and the cookie are kept")))]
pub async fn sign_out(req: HttpRequest, state: web::Data<AppState>) -> ApiResult<HttpResponse> {
    let cookie_sent = req
        .cookie(SESSION_COOKIE)
        .is_some_and(|c| !c.value().is_empty());
    match session_token(&req, &state.origins) {
        Some(token) => state.accounts.sign_out(&token).await?,
        None if cookie_sent => return Err(ApiError::bad_request("Origin not allowed")),
        None => {}
    }
    // Like every answer that sets the session cookie: not for a cache to keep.
    Ok(secret(
        HttpResponse::Ok()
            .cookie(session_cookie(&state, String::new(), Duration::ZERO))
            .json(json!({"success": true})),
    ))
}

/// The current browser session and its user.
#[utoipa::path(get, path = "/api/auth/get-session", operation_id = "get_auth_session", tag = "auth", security(("session_cookie" = [])),
    responses((status = 200, body = SessionEnvelope), (status = 401, body = crate::error::ErrorBody)))]
pub async fn get_session(signed_in: SignedIn) -> HttpResponse {
    // The session's id is as good as the session to whoever reads it.
    secret(HttpResponse::Ok().json(SessionEnvelope {
        session: SessionBody {
            id: signed_in.session.id.to_string(),
            expires_at: timestamp::format(signed_in.session.expires_at),
        },
        user: (&signed_in.identity.user).into(),
    }))
}

/// Create an API key (session cookie only). The response is the only time the key is shown.
#[utoipa::path(post, path = "/api/auth/api-key/create", tag = "auth", request_body = CreateApiKeyRequest,
    security(("session_cookie" = [])),
    responses((status = 200, body = CreatedApiKeyBody), (status = 400, body = crate::error::ErrorBody),
        (status = 401, body = crate::error::ErrorBody), (status = 413, body = crate::error::ErrorBody),
        (status = 422, body = crate::error::ValidationErrorBody, description = "Invalid body, or the account already holds 100 keys")))]
pub async fn create_key(
    signed_in: SignedIn,
    state: web::Data<AppState>,
    body: JsonBody,
) -> ApiResult<HttpResponse> {
    let (name, expires_in) = read_new_key(&body.json()?)?.ok_or(ApiError::Internal)?;
    let user = signed_in.identity.user.id;
    let created = state
        .accounts
        .create_api_key(user, name, expires_in)
        .await?;
    Ok(secret(HttpResponse::Ok().json(CreatedApiKeyBody {
        listed: (&created.key).into(),
        key: created.secret,
    })))
}

/// The account's API keys, without their secrets.
#[utoipa::path(get, path = "/api/auth/api-key/list", tag = "auth", security(("session_cookie" = [])),
    responses((status = 200, body = [ApiKeyBody]), (status = 401, body = crate::error::ErrorBody)))]
pub async fn list_keys(signed_in: SignedIn, state: web::Data<AppState>) -> ApiResult<HttpResponse> {
    let keys = state
        .accounts
        .list_api_keys(signed_in.identity.user.id)
        .await?;
    Ok(HttpResponse::Ok().json(keys.iter().map(ApiKeyBody::from).collect::<Vec<_>>()))
}

/// Revoke an API key; it stops working on the next request.
#[utoipa::path(post, path = "/api/auth/api-key/delete", tag = "auth", request_body = DeleteApiKeyRequest,
    security(("session_cookie" = [])),
    responses((status = 200, body = Success), (status = 400, body = crate::error::ErrorBody),
        (status = 401, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody),
        (status = 422, body = crate::error::ValidationErrorBody)))]
pub async fn delete_key(
    signed_in: SignedIn,
    state: web::Data<AppState>,
    body: JsonBody,
) -> ApiResult<HttpResponse> {
    let key_id = read_key_id(&body.json()?)?.ok_or(ApiError::NotFound)?;
    state
        .accounts
        .delete_api_key(signed_in.identity.user.id, key_id)
        .await?;
    Ok(HttpResponse::Ok().json(json!({"success": true})))
}

/// Change the password (session cookie only). A wrong current password counts as a failed
/// sign-in; with `revokeOtherSessions`, every other sign-in session of the account ends.
#[utoipa::path(post, path = "/api/auth/change-password", tag = "auth", request_body = ChangePasswordRequest,
    security(("session_cookie" = [])),
    responses((status = 200, body = StatusBody), (status = 400, body = crate::error::ErrorBody),
        (status = 401, body = crate::error::ErrorBody, description = "Not signed in, or `Invalid password`"),
        (status = 413, body = crate::error::ErrorBody), (status = 422, body = crate::error::ValidationErrorBody),
        (status = 429, body = crate::error::ErrorBody, description = "Too many failed attempts for this account")))]
pub async fn change_password(
    signed_in: SignedIn,
    state: web::Data<AppState>,
    body: JsonBody,
) -> ApiResult<HttpResponse> {
    let change = read_password_change(&body.json()?)?.ok_or(ApiError::Internal)?;
    state
        .accounts
        .change_password(&signed_in.identity.user, &signed_in.session, change)
        .await?;
    Ok(HttpResponse::Ok().json(StatusBody { status: true }))
}

/// Change the account's name (session cookie only).
#[utoipa::path(post, path = "/api/auth/update-user", tag = "auth", request_body = UpdateUserRequest,
    security(("session_cookie" = [])),
    responses((status = 200, body = StatusBody), (status = 400, body = crate::error::ErrorBody),
        (status = 401, body = crate::error::ErrorBody), (status = 413, body = crate::error::ErrorBody),
        (status = 422, body = crate::error::ValidationErrorBody)))]
pub async fn update_user(
    signed_in: SignedIn,
    state: web::Data<AppState>,
    body: JsonBody,
) -> ApiResult<HttpResponse> {
    let name = read_user_name(&body.json()?)?.ok_or(ApiError::Internal)?;
    state
        .accounts
        .rename(signed_in.identity.user.id, name)
        .await?;
    Ok(HttpResponse::Ok().json(StatusBody { status: true }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::body::spec::assert_whole;

    #[test]
    fn every_field_of_the_tables_is_read() {
        assert_whole(&SIGN_UP, |body| read_sign_up(body).map(|_| ()));
        assert_whole(&SIGN_IN, |body| read_sign_in(body).map(|_| ()));
        assert_whole(&API_KEY, |body| read_new_key(body).map(|_| ()));
        assert_whole(&CHANGE_PASSWORD, |body| {
            read_password_change(body).map(|_| ())
        });
        assert_whole(&UPDATE_USER, |body| read_user_name(body).map(|_| ()));
    }
}
