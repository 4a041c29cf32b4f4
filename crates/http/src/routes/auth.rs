//! `/api/auth`: sign-up, sign-in, sign-out, the current session, and API key management.
//! This surface speaks camelCase, like the auth library whose paths it keeps.

use actix_web::cookie::{Cookie, SameSite, time::Duration as CookieDuration};
use actix_web::{HttpRequest, HttpResponse, web};
use serde::Serialize;
use serde_json::json;
use time::{Duration, OffsetDateTime};
use utoipa::ToSchema;
use uuid::Uuid;
use wort_domain::account::{self, ApiKey, NewUser, SESSION_LIFETIME, SignInSubject, User};
use wort_domain::timestamp;

use super::resource;
use crate::body::JsonBody;
use crate::credentials::{SESSION_COOKIE, SignedIn, session_token};
use crate::error::{ApiError, ApiResult};
use crate::state::AppState;
use crate::validation::{Fields, invalid_string, invalid_type, type_name};

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(resource("/api/auth/sign-up/email", "POST").route(web::post().to(sign_up)))
        .service(resource("/api/auth/sign-in/email", "POST").route(web::post().to(sign_in)))
        .service(resource("/api/auth/sign-out", "POST").route(web::post().to(sign_out)))
        .service(resource("/api/auth/get-session", "GET").route(web::get().to(get_session)))
        .service(resource("/api/auth/api-key/create", "POST").route(web::post().to(create_key)))
        .service(resource("/api/auth/api-key/list", "GET").route(web::get().to(list_keys)))
        .service(resource("/api/auth/api-key/delete", "POST").route(web::post().to(delete_key)));
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

/// Request bodies, for the OpenAPI document.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct SignUpRequest {
    #[schema(min_length = 1, max_length = 200)]
    name: String,
    #[schema(format = Email, max_length = 254)]
    email: String,
    #[schema(min_length = 8, max_length = 128)]
    password: String,
}

#[derive(ToSchema)]
#[allow(dead_code)]
pub struct SignInRequest {
    #[schema(format = Email)]
    email: String,
    password: String,
}

#[derive(ToSchema)]
#[allow(dead_code)]
pub struct CreateApiKeyRequest {
    #[schema(min_length = 1, max_length = 64)]
    name: String,
    /// Lifetime in seconds (60–31,536,000); null or absent: the key never expires.
    #[schema(minimum = 60, maximum = 31_536_000, value_type = Option<i64>)]
    #[serde(rename = "expiresIn")]
    expires_in: Option<i64>,
}

#[derive(ToSchema)]
#[allow(dead_code)]
pub struct DeleteApiKeyRequest {
    #[schema(format = Uuid)]
    #[serde(rename = "keyId")]
    key_id: String,
}

/// Sign-up and sign-in from a browser page of a foreign origin are refused outright.
fn check_sign_in_origin(req: &HttpRequest, state: &AppState) -> ApiResult<()> {
    let origin = req.headers().get("origin").and_then(|v| v.to_str().ok());
    match origin {
        Some(o) if !state.origins.allows(o.trim_end_matches('/')) => {
            Err(ApiError::bad_request("Origin not allowed"))
        }
        _ => Ok(()),
    }
}

fn is_plausible_email(email: &str) -> bool {
    let Some((local, domain)) = email.split_once('@') else {
        return false;
    };
    !local.is_empty()
        && domain.contains('.')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && !domain.contains('@')
        && !email.chars().any(|c| c.is_whitespace() || c.is_control())
}

/// Reads `email` (lower-cased) and reports a malformed one.
fn read_email(f: &mut Fields) -> Option<String> {
    let sent = f.string("email", 0, 254);
    let email = f.required("email", "string", sent)?;
    if is_plausible_email(&email) {
        Some(email.to_lowercase())
    } else {
        f.report(invalid_string(&["email"], "email"));
        None
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

/// Starts a browser session for `user` and answers with the user and the cookie.
async fn start_session(state: &AppState, user: &User) -> ApiResult<HttpResponse> {
    let token = account::generate_session_token()?;
    let now = state.clock.now();
    state
        .accounts
        .create_session(
            user.id,
            account::digest(&token),
            now,
            now + SESSION_LIFETIME,
        )
        .await?;
    Ok(HttpResponse::Ok()
        .cookie(session_cookie(state, token, SESSION_LIFETIME))
        .json(UserEnvelope { user: user.into() }))
}

/// Create an account and sign in.
#[utoipa::path(post, path = "/api/auth/sign-up/email", tag = "auth", request_body = SignUpRequest,
    responses((status = 200, body = UserEnvelope, description = "Signed up; sets the wort_session cookie"),
        (status = 400, body = crate::openapi::ErrorBody), (status = 413, body = crate::openapi::ErrorBody),
        (status = 422, body = crate::openapi::ValidationErrorBody)))]
pub async fn sign_up(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: JsonBody,
) -> ApiResult<HttpResponse> {
    check_sign_in_origin(&req, &state)?;
    let body = body.json()?;
    let mut f = Fields::of(&body)?;
    let name = f.string("name", 1, 200);
    let name = f.required("name", "string", name);
    let email = read_email(&mut f);
    let password = f.string("password", 8, 128);
    let password = f.required("password", "string", password);
    let (Some(name), Some(email), Some(password)) = (name, email, password) else {
        return Err(f.finish(()).err().unwrap_or(ApiError::Internal));
    };
    let password_hash = web::block(move || account::hash_password(&password)).await??;
    let user = state
        .accounts
        .create_user(
            NewUser {
                email,
                name,
                password_hash,
            },
            state.clock.now(),
        )
        .await?;
    start_session(&state, &user).await
}

/// Sign in with email and password.
#[utoipa::path(post, path = "/api/auth/sign-in/email", tag = "auth", request_body = SignInRequest,
    responses((status = 200, body = UserEnvelope, description = "Signed in; sets the wort_session cookie"),
        (status = 400, body = crate::openapi::ErrorBody), (status = 401, body = crate::openapi::ErrorBody),
        (status = 422, body = crate::openapi::ValidationErrorBody),
        (status = 429, body = crate::openapi::ErrorBody, description = "Too many failed attempts for this email or from this address")))]
pub async fn sign_in(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: JsonBody,
) -> ApiResult<HttpResponse> {
    check_sign_in_origin(&req, &state)?;
    let body = body.json()?;
    let mut f = Fields::of(&body)?;
    let email = f.string("email", 0, 1000);
    let email = f
        .required("email", "string", email)
        .map(|e| e.to_lowercase());
    let password = f.string("password", 0, 1000);
    let password = f.required("password", "string", password);
    let (Some(email), Some(password)) = (email, password) else {
        return Err(f.finish(()).err().unwrap_or(ApiError::Internal));
    };
    let now = state.clock.now();
    let by_email = SignInSubject::Email(email.clone());
    let by_address = SignInSubject::Ip(client_address(&req, &state));
    let mut waits = Vec::new();
    for subject in [&by_email, &by_address] {
        waits.extend(state.accounts.sign_in_retry_after(subject, now).await?);
    }
    if let Some(retry_after_secs) = waits.into_iter().max() {
        return Err(wort_domain::DomainError::SignInThrottled { retry_after_secs }.into());
    }
    let found = state.accounts.find_credentials(&email).await?;
    // Unknown emails cost a hash too, so timing does not reveal which emails have accounts.
    let verified = web::block(move || match found {
        Some(c) if account::verify_password(&c.password_hash, &password) => Some(c.user),
        Some(_) => None,
        None => {
            account::verify_dummy_password(&password);
            None
        }
    })
    .await?;
    match verified {
        Some(user) => {
            // Only the email's count is cleared: a client that knows one password must not be
            // able to reset its address's count between guesses at other accounts.
            state.accounts.clear_failed_sign_ins(&by_email).await?;
            start_session(&state, &user).await
        }
        None => {
            state.accounts.record_failed_sign_in(&by_email, now).await?;
            state
                .accounts
                .record_failed_sign_in(&by_address, now)
                .await?;
            Err(ApiError::InvalidCredentials)
        }
    }
}

/// The client's address: the configured header's first entry behind a trusted reverse proxy
/// (`WORT_CLIENT_IP_HEADER`), else the connection's peer.
fn client_address(req: &HttpRequest, state: &AppState) -> String {
    let from_header = state.client_ip_header.as_deref().and_then(|name| {
        let value = req.headers().get(name)?.to_str().ok()?;
        value
            .split(',')
            .next()
            .map(|v| v.trim().to_owned())
            .filter(|v| !v.is_empty())
    });
    from_header
        .or_else(|| req.peer_addr().map(|a| a.ip().to_string()))
        .unwrap_or_else(|| "unknown".to_owned())
}

/// End the browser session (also fine when not signed in).
#[utoipa::path(post, path = "/api/auth/sign-out", tag = "auth",
    responses((status = 200, body = Success, description = "Signed out; the cookie is cleared")))]
pub async fn sign_out(req: HttpRequest, state: web::Data<AppState>) -> ApiResult<HttpResponse> {
    if let Some(token) = session_token(&req, &state.origins) {
        state
            .accounts
            .delete_session(&account::digest(&token))
            .await?;
    }
    Ok(HttpResponse::Ok()
        .cookie(session_cookie(&state, String::new(), Duration::ZERO))
        .json(json!({"success": true})))
}

/// The current browser session and its user.
#[utoipa::path(get, path = "/api/auth/get-session", operation_id = "get_auth_session", tag = "auth", security(("session_cookie" = [])),
    responses((status = 200, body = SessionEnvelope), (status = 401, body = crate::openapi::ErrorBody)))]
pub async fn get_session(signed_in: SignedIn) -> HttpResponse {
    HttpResponse::Ok().json(SessionEnvelope {
        session: SessionBody {
            id: signed_in.session.id.to_string(),
            expires_at: timestamp::format(signed_in.session.expires_at),
        },
        user: (&signed_in.identity.user).into(),
    })
}

const MIN_KEY_LIFETIME_SECS: i64 = 60;
const MAX_KEY_LIFETIME_SECS: i64 = 31_536_000;

/// Create an API key (session cookie only). The response is the only time the key is shown.
#[utoipa::path(post, path = "/api/auth/api-key/create", tag = "auth", request_body = CreateApiKeyRequest,
    security(("session_cookie" = [])),
    responses((status = 200, body = CreatedApiKeyBody), (status = 400, body = crate::openapi::ErrorBody),
        (status = 401, body = crate::openapi::ErrorBody), (status = 413, body = crate::openapi::ErrorBody),
        (status = 422, body = crate::openapi::ValidationErrorBody, description = "Invalid body, or the account already holds 100 keys")))]
pub async fn create_key(
    signed_in: SignedIn,
    state: web::Data<AppState>,
    body: JsonBody,
) -> ApiResult<HttpResponse> {
    let body = body.json()?;
    let mut f = Fields::of(&body)?;
    let name = f.string("name", 1, 64);
    let name = f.required("name", "string", name);
    let expires_in = f.integer("expiresIn", MIN_KEY_LIFETIME_SECS, MAX_KEY_LIFETIME_SECS);
    let expires_in = Fields::nullable(expires_in).flatten();
    let name = f.finish(name)?.ok_or(ApiError::Internal)?;
    let now: OffsetDateTime = state.clock.now();
    let expires_at = expires_in.map(|secs| now + Duration::seconds(secs));
    let generated = account::generate_api_key(name, expires_at)?;
    let user = signed_in.identity.user.id;
    let key = state
        .accounts
        .create_api_key(user, generated.record, now)
        .await?;
    Ok(HttpResponse::Ok().json(CreatedApiKeyBody {
        listed: (&key).into(),
        key: generated.secret,
    }))
}

/// The account's API keys, without their secrets.
#[utoipa::path(get, path = "/api/auth/api-key/list", tag = "auth", security(("session_cookie" = [])),
    responses((status = 200, body = [ApiKeyBody]), (status = 401, body = crate::openapi::ErrorBody)))]
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
    responses((status = 200, body = Success), (status = 400, body = crate::openapi::ErrorBody),
        (status = 401, body = crate::openapi::ErrorBody), (status = 404, body = crate::openapi::ErrorBody),
        (status = 422, body = crate::openapi::ValidationErrorBody)))]
pub async fn delete_key(
    signed_in: SignedIn,
    state: web::Data<AppState>,
    body: JsonBody,
) -> ApiResult<HttpResponse> {
    let body = body.json()?;
    let mut f = Fields::of(&body)?;
    // A malformed id cannot name a key of this account: 404, like an unknown one.
    let key_id = match body.get("keyId") {
        Some(serde_json::Value::String(s)) => Some(Uuid::try_parse(s).ok()),
        None => {
            f.report(invalid_type(&["keyId"], "string", "undefined"));
            None
        }
        Some(other) => {
            f.report(invalid_type(&["keyId"], "string", type_name(other)));
            None
        }
    };
    let key_id = f.finish(key_id)?.flatten().ok_or(ApiError::NotFound)?;
    state
        .accounts
        .delete_api_key(signed_in.identity.user.id, key_id)
        .await?;
    Ok(HttpResponse::Ok().json(json!({"success": true})))
}
