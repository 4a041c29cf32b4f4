//! Who is asking, and about which resource: the extractors a handler takes first.
//!
//! Each checks the credential before anything else, so `401` always wins over a malformed path
//! (`400`): actix polls a handler's extractors together, and a path extractor of its own would
//! answer `400` while the credential is still being looked up. Each is one boxed future, as
//! `credentials::Authenticated` is (the credential check is awaited inside it, not boxed again).

use std::future::Future;
use std::pin::Pin;

use actix_web::dev::Payload;
use actix_web::{FromRequest, HttpRequest};
use uuid::Uuid;
use wort_domain::UserId;

use crate::credentials::authenticate;
use crate::error::ApiError;
use crate::params::path_id;

/// The account behind any valid credential (an API key or a usable session cookie). Every
/// service call is made for this account; another account's id is simply "not found".
pub struct Caller(pub UserId);

impl FromRequest for Caller {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, Self::Error>>>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move { Ok(Caller(authenticate(&req).await?.user.id)) })
    }
}

/// The caller's account and the id in the path's `{id}` segment (a canonical UUID, else `400`).
pub struct CallerAndId {
    pub user: UserId,
    pub id: Uuid,
}

impl FromRequest for CallerAndId {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, Self::Error>>>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move {
            let (user, id) = caller_and_path_id(&req, "id").await?;
            Ok(CallerAndId { user, id })
        })
    }
}

/// The caller's account and the recipe id in the path's `{recipe_id}` segment (the lists a
/// recipe holds: `/v1/recipes/{recipe_id}/hops`…).
pub struct CallerAndRecipeId {
    pub user: UserId,
    pub recipe_id: Uuid,
}

impl FromRequest for CallerAndRecipeId {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, Self::Error>>>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move {
            let (user, recipe_id) = caller_and_path_id(&req, "recipe_id").await?;
            Ok(CallerAndRecipeId { user, recipe_id })
        })
    }
}

/// The credential first, then the UUID in path segment `segment`.
async fn caller_and_path_id(req: &HttpRequest, segment: &str) -> Result<(UserId, Uuid), ApiError> {
    let user = authenticate(req).await?.user.id;
    Ok((user, path_id(req, segment)?))
}
