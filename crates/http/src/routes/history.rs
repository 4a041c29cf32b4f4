//! A recipe's history and share link: `/v1/recipes/{id}/versions…`, `/lineage`, `/diff`,
//! `/share`.

use actix_web::{HttpRequest, HttpResponse, web};
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;
use wort_domain::brewing::StatsReport;
use wort_domain::recipe::history::{Lineage, RecipeDiff, RecipeVersion};
use wort_domain::recipe::share::Share;
use wort_domain::recipe::{RecipeDetail, VersionDetail, rules};

use super::{created, page_response, resource};
use crate::body::JsonBody;
use crate::body::spec::{
    BodySpec, FieldSpec, Kind, Missing, Mode, OnCreate, Reader, request_body_schema,
};
use crate::caching;
use crate::caller::CallerAndId;
use crate::error::{ApiError, ApiResult};
use crate::params::Query;
use crate::state::AppState;

/// Inside the `/v1/recipes` scope.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(
        resource("/{id}/versions", "GET, POST")
            .route(web::get().to(list_versions))
            .route(web::post().to(name_version)),
    )
    .service(resource("/{id}/versions/{n}", "GET").route(web::get().to(get_version)))
    .service(resource("/{id}/versions/{n}/diff", "GET").route(web::get().to(version_diff)))
    .service(resource("/{id}/versions/{n}/restore", "POST").route(web::post().to(restore_version)))
    .service(resource("/{id}/lineage", "GET").route(web::get().to(recipe_lineage)))
    .service(resource("/{id}/diff", "GET").route(web::get().to(compare_recipes)))
    .service(
        resource("/{id}/share", "GET, POST, DELETE")
            .route(web::get().to(get_share))
            .route(web::post().to(share_recipe))
            .route(web::delete().to(unshare_recipe)),
    );
}

/// Versions page like the account's lists, 20 by default.
const DEFAULT_VERSIONS_PAGE: i64 = 20;
const MAX_VERSIONS_PAGE: i64 = 200;

static VERSION: BodySpec = BodySpec {
    rules: rules::VERSION_FIELDS,
    missing: Missing::WhereRead,
    fields: &[FieldSpec::required("message", Kind::Text)
        .described("The version's name, e.g. \"Less crystal, hop stand at 80 °C\".")],
};

static SHARE: BodySpec = BodySpec {
    rules: rules::SHARE_FIELDS,
    missing: Missing::WhereRead,
    fields: &[FieldSpec::new("include_notes", Kind::Boolean, OnCreate::Optional)
        .described("Show the recipe's and its ingredients' notes on the shared page and files (default false).")],
};

request_body_schema!(
    /// `POST /v1/recipes/{id}/versions`.
    NameVersionRequest,
    VERSION,
    Mode::Create,
    "Request body of `POST /v1/recipes/{id}/versions`.",
    field_descriptions = true
);

request_body_schema!(
    /// `POST /v1/recipes/{id}/share`.
    ShareRequest,
    SHARE,
    Mode::Create,
    "Request body of `POST /v1/recipes/{id}/share` (optional; no body means `include_notes: false`).",
    field_descriptions = true
);

fn read_message(body: &Value) -> ApiResult<String> {
    let mut f = Reader::new(body, &VERSION, Mode::Create)?;
    let message = f.text("message").unwrap_or_default();
    f.finish(message)
}

fn read_share(body: &Value) -> ApiResult<bool> {
    let mut f = Reader::new(body, &SHARE, Mode::Create)?;
    let include = f.boolean("include_notes").unwrap_or(false);
    f.finish(include)
}

/// The version number in the path: a positive integer, else `400`.
fn version_number(req: &HttpRequest) -> ApiResult<i32> {
    req.match_info()
        .get("n")
        .and_then(|n| n.parse::<i32>().ok())
        .filter(|n| *n >= 1)
        .ok_or_else(|| ApiError::BadRequest("Invalid version number".to_owned()))
}

/// A version with its content and figures as they were.
#[derive(Serialize, ToSchema)]
pub struct VersionResponse {
    #[serde(flatten)]
    pub version: RecipeVersion,
    /// The recipe with its children as this version left it (the open version: as it is now).
    pub recipe: RecipeDetail,
    /// Its `/stats` as they were, computed from the version and the equipment profile it named
    /// as that profile was then.
    pub stats: StatsReport,
}

impl From<VersionDetail> for VersionResponse {
    fn from(v: VersionDetail) -> Self {
        VersionResponse {
            version: v.version,
            recipe: v.recipe,
            stats: v.stats,
        }
    }
}

/// A recipe's share link. The token is a secret the owner hands out: the answer is never
/// stored by caches.
#[derive(Serialize, ToSchema)]
pub struct ShareResponse {
    /// At least 128 random bits (32 base62 characters).
    pub token: String,
    /// The public page: `<origin>/shared/<token>`.
    pub url: String,
    pub include_notes: bool,
    #[schema(value_type = String, format = DateTime)]
    #[serde(serialize_with = "wort_domain::timestamp::serialize")]
    pub created_at: time::OffsetDateTime,
}

fn share_response(state: &AppState, share: Share) -> ShareResponse {
    ShareResponse {
        url: format!("{}/shared/{}", state.origins.public, share.token),
        token: share.token,
        include_notes: share.include_notes,
        created_at: share.created_at,
    }
}

/// The recipe's versions, newest first. Every committed change belongs to one: edits within 10
/// minutes of a version's first edit join it; naming a version, or brewing, copying or scaling
/// the recipe, closes it. A recipe never edited has one version, number 1.
#[utoipa::path(get, path = "/v1/recipes/{id}/versions", tag = "recipes",
    params(("id" = uuid::Uuid, Path, description = "Recipe id"),
        ("limit" = Option<i64>, Query, description = "Page size (1–200, default 20)"),
        ("offset" = Option<i64>, Query, description = "Items to skip (default 0)")),
    responses((status = 200, body = [RecipeVersion], headers(("X-Total-Count" = i64), ("Link" = String)))))]
pub async fn list_versions(
    CallerAndId { user, id }: CallerAndId,
    req: HttpRequest,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let query = Query::of(&req)?;
    let page = query.page(DEFAULT_VERSIONS_PAGE, MAX_VERSIONS_PAGE)?;
    let versions = state.recipes.versions(user, id, page).await?;
    Ok(page_response(&req, &query, page, &versions))
}

/// Close the current version under a name; the next edit starts a new one. When nothing was
/// edited since the last version was closed, that version is named.
#[utoipa::path(post, path = "/v1/recipes/{id}/versions", tag = "recipes",
    params(("id" = uuid::Uuid, Path, description = "Recipe id")), request_body = NameVersionRequest,
    responses((status = 201, body = RecipeVersion)))]
pub async fn name_version(
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
    body: JsonBody,
) -> ApiResult<HttpResponse> {
    let message = read_message(&body.json()?)?;
    let version = state.recipes.name_version(user, id, message).await?;
    Ok(created(&version))
}

/// One version: the recipe with its children and its statistics as they were.
#[utoipa::path(get, path = "/v1/recipes/{id}/versions/{n}", tag = "recipes",
    params(("id" = uuid::Uuid, Path, description = "Recipe id"),
        ("n" = i32, Path, minimum = 1, description = "Version number (from 1)")),
    responses((status = 200, body = VersionResponse),
        (status = 400, body = crate::error::ErrorBody, description = "`n` not a positive integer")))]
pub async fn get_version(
    CallerAndId { user, id }: CallerAndId,
    req: HttpRequest,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let number = version_number(&req)?;
    let version = state.recipes.version(user, id, number).await?;
    Ok(HttpResponse::Ok().json(VersionResponse::from(version)))
}

/// What changed from version `against` (default: the one before) to version `n`: the recipe's
/// fields, and each child added, removed or changed (children keep their ids across versions).
#[utoipa::path(get, path = "/v1/recipes/{id}/versions/{n}/diff", tag = "recipes",
    params(("id" = uuid::Uuid, Path, description = "Recipe id"),
        ("n" = i32, Path, minimum = 1, description = "Version number (from 1)"),
        ("against" = Option<i32>, Query, minimum = 1, description = "The version compared with (default n − 1; version 1 alone: everything added)")),
    responses((status = 200, body = RecipeDiff),
        (status = 400, body = crate::error::ErrorBody, description = "`n` or `against` not a positive integer")))]
pub async fn version_diff(
    CallerAndId { user, id }: CallerAndId,
    req: HttpRequest,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let number = version_number(&req)?;
    let against = Query::of(&req)?
        .integer("against", 1, i64::from(i32::MAX))?
        .and_then(|n| i32::try_from(n).ok());
    let diff = state
        .recipes
        .version_diff(user, id, number, against)
        .await?;
    Ok(HttpResponse::Ok().json(diff))
}

/// Make the recipe equal to version `n` again (its fields, and its children with their original
/// ids), as a new version named "Restored version n".
#[utoipa::path(post, path = "/v1/recipes/{id}/versions/{n}/restore", tag = "recipes",
    params(("id" = uuid::Uuid, Path, description = "Recipe id"),
        ("n" = i32, Path, minimum = 1, description = "Version number (from 1)")),
    responses((status = 201, body = RecipeVersion, description = "The new current version"),
        (status = 400, body = crate::error::ErrorBody, description = "`n` not a positive integer")))]
pub async fn restore_version(
    CallerAndId { user, id }: CallerAndId,
    req: HttpRequest,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let number = version_number(&req)?;
    let version = state.recipes.restore_version(user, id, number).await?;
    Ok(created(&version))
}

/// Where the recipe comes from (its parent, the parent's parent…) and the copies and scaled
/// copies made from it, within the account.
#[utoipa::path(get, path = "/v1/recipes/{id}/lineage", tag = "recipes",
    params(("id" = uuid::Uuid, Path, description = "Recipe id")),
    responses((status = 200, body = Lineage)))]
pub async fn recipe_lineage(
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let lineage = state.recipes.lineage(user, id).await?;
    Ok(HttpResponse::Ok().json(lineage))
}

/// What this recipe has that `against_recipe` has not, in the shape of a version diff: children
/// pair by kind and case-insensitive name, then by order; each entry carries `id` (this
/// recipe's child) and `against_id` (the other's, or null).
#[utoipa::path(get, path = "/v1/recipes/{id}/diff", tag = "recipes",
    params(("id" = uuid::Uuid, Path, description = "Recipe id"),
        ("against_recipe" = uuid::Uuid, Query, description = "The account's other recipe")),
    responses((status = 200, body = RecipeDiff),
        (status = 400, body = crate::error::ErrorBody, description = "`against_recipe` missing or not a UUID")))]
pub async fn compare_recipes(
    CallerAndId { user, id }: CallerAndId,
    req: HttpRequest,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let other = Query::of(&req)?
        .uuid("against_recipe")?
        .ok_or_else(|| ApiError::BadRequest("Missing query parameter against_recipe".into()))?;
    let diff = state.recipes.compare(user, id, other).await?;
    Ok(HttpResponse::Ok().json(diff))
}

/// The recipe's live share link; `404` when it is not shared.
#[utoipa::path(get, path = "/v1/recipes/{id}/share", tag = "recipes",
    params(("id" = uuid::Uuid, Path, description = "Recipe id")),
    responses((status = 200, body = ShareResponse)))]
pub async fn get_share(
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let share = state.recipes.share_of(user, id).await?;
    Ok(caching::secret(
        HttpResponse::Ok().json(share_response(&state, share)),
    ))
}

/// Share the recipe by link: anyone with the link sees a read-only page of this recipe and can
/// download it, and nothing else of the account. `201` with a new link; `200` with the live one
/// (its `include_notes` updated) when the recipe is already shared.
#[utoipa::path(post, path = "/v1/recipes/{id}/share", tag = "recipes",
    params(("id" = uuid::Uuid, Path, description = "Recipe id")),
    request_body(content = Option<ShareRequest>),
    responses((status = 201, body = ShareResponse, description = "A new link"),
        (status = 200, body = ShareResponse, description = "The live link")))]
pub async fn share_recipe(
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
    body: JsonBody,
) -> ApiResult<HttpResponse> {
    let include_notes = match body.optional_json()? {
        None => false,
        Some(body) => read_share(&body)?,
    };
    let (share, new) = state.recipes.share(user, id, include_notes).await?;
    let mut response = if new {
        HttpResponse::Created()
    } else {
        HttpResponse::Ok()
    };
    Ok(caching::secret(
        response.json(share_response(&state, share)),
    ))
}

/// Revoke the link at once; a later share makes a new token.
#[utoipa::path(delete, path = "/v1/recipes/{id}/share", tag = "recipes",
    params(("id" = uuid::Uuid, Path, description = "Recipe id")),
    responses((status = 204, description = "Revoked")))]
pub async fn unshare_recipe(
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    state.recipes.unshare(user, id).await?;
    Ok(HttpResponse::NoContent().finish())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::body::spec::assert_whole;

    #[test]
    fn every_field_of_the_tables_is_read() {
        assert_whole(&VERSION, |body| read_message(body).map(|_| ()));
        assert_whole(&SHARE, |body| read_share(body).map(|_| ()));
    }
}
