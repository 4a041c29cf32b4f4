//! Turning a request's credential into an [`Identity`].
//!
//! * `X-API-Key` wins when present; a bad key is `401` even if a good cookie is also sent.
//! * The `wort_session` cookie counts for state-changing methods only when the request's `Origin`
//!   (or, lacking it, `Referer`) is allowed: that is the CSRF defence.
//! * Every failure is the same `401 {"error":"Unauthorized"}`.

use std::future::Future;
use std::pin::Pin;

use actix_web::dev::Payload;
use actix_web::http::Method;
use actix_web::{FromRequest, HttpRequest, web};
use wort_domain::account::{Credential, Identity, SignInSession};

use crate::error::{ApiError, ApiResult};
use crate::state::{AppState, Origins};

pub const SESSION_COOKIE: &str = "wort_session";
pub const API_KEY_HEADER: &str = "X-API-Key";

/// The origin (`scheme://host[:port]`) a browser says the request comes from.
pub fn request_origin(req: &HttpRequest) -> Option<String> {
    let headers = req.headers();
    if let Some(origin) = headers.get("origin").and_then(|v| v.to_str().ok()) {
        // Exactly as sent: a browser never adds a trailing slash, so one does not match.
        return Some(origin.to_owned());
    }
    let referer = headers.get("referer").and_then(|v| v.to_str().ok())?;
    let (scheme, rest) = referer.split_once("://")?;
    let authority = rest.split(['/', '?', '#']).next()?;
    Some(format!("{scheme}://{authority}"))
}

fn is_state_changing(method: &Method) -> bool {
    !matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS)
}

/// Whether a session cookie may act for this request (CSRF check for writes).
fn cookie_usable(req: &HttpRequest, origins: &Origins) -> bool {
    !is_state_changing(req.method()) || request_origin(req).is_some_and(|o| origins.allows(&o))
}

fn state(req: &HttpRequest) -> ApiResult<web::Data<AppState>> {
    req.app_data::<web::Data<AppState>>()
        .cloned()
        .ok_or(ApiError::Internal)
}

/// The session token from the cookie, when the cookie may be used for this request.
pub fn session_token(req: &HttpRequest, origins: &Origins) -> Option<String> {
    let cookie = req.cookie(SESSION_COOKIE)?;
    (cookie_usable(req, origins) && !cookie.value().is_empty()).then(|| cookie.value().to_owned())
}

async fn session_identity(
    state: &AppState,
    token: &str,
) -> ApiResult<Option<(SignInSession, Identity)>> {
    let found = state.accounts.signed_in(token).await?;
    Ok(found.map(|(session, user)| {
        (
            session,
            Identity {
                user,
                credential: Credential::SessionCookie,
            },
        )
    }))
}

async fn api_key_identity(state: &AppState, key: &str) -> ApiResult<Identity> {
    let user = state
        .accounts
        .authenticate_api_key(key)
        .await?
        .ok_or(ApiError::Unauthorized)?;
    Ok(Identity {
        user,
        credential: Credential::ApiKey,
    })
}

/// Any valid credential: an API key or a usable session cookie.
pub struct Authenticated(pub Identity);

impl FromRequest for Authenticated {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, Self::Error>>>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move { authenticate(&req).await.map(Authenticated) })
    }
}

/// The identity behind any valid credential (an API key, else a usable session cookie), or
/// `401`. The extractors built on it (`crate::caller`) await it inside their own one future.
pub(crate) async fn authenticate(req: &HttpRequest) -> ApiResult<Identity> {
    let state = state(req)?;
    let api_key = req
        .headers()
        .get(API_KEY_HEADER)
        .map(|v| v.to_str().unwrap_or(""));
    if let Some(key) = api_key {
        return api_key_identity(&state, key).await;
    }
    let token = session_token(req, &state.origins).ok_or(ApiError::Unauthorized)?;
    match session_identity(&state, &token).await? {
        Some((_, identity)) => Ok(identity),
        None => Err(ApiError::Unauthorized),
    }
}

/// A signed-in browser session, and nothing else: key management refuses API keys, so a leaked
/// key cannot mint or revoke keys.
pub struct SignedIn {
    pub session: SignInSession,
    pub identity: Identity,
}

impl FromRequest for SignedIn {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, Self::Error>>>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move {
            let state = state(&req)?;
            let token = session_token(&req, &state.origins).ok_or(ApiError::Unauthorized)?;
            let (session, identity) = session_identity(&state, &token)
                .await?
                .ok_or(ApiError::Unauthorized)?;
            Ok(SignedIn { session, identity })
        })
    }
}

/// The identity behind any valid credential on the request, by [`Authenticated`]'s rules;
/// `None` without one. For middleware that acts for an account before the handler runs.
pub async fn identify(req: &HttpRequest) -> ApiResult<Option<Identity>> {
    match Authenticated::from_request(req, &mut Payload::None).await {
        Ok(Authenticated(identity)) => Ok(Some(identity)),
        Err(ApiError::Unauthorized) => Ok(None),
        Err(e) => Err(e),
    }
}
