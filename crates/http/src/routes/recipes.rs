//! `/v1/recipes`: list, create, read (with children), update, delete.

use actix_web::{HttpRequest, HttpResponse, web};
use serde_json::Value;
use utoipa::ToSchema;
use wort_domain::brewing::StatsReport;
use wort_domain::brewing::scaling::ScaleTarget;
use wort_domain::recipe::{
    DEFAULT_BATCH_SIZE_LITERS, DEFAULT_BOIL_TIME_MINUTES, DEFAULT_EFFICIENCY, NewRecipe, Recipe,
    RecipeDetail, RecipeFilter, RecipePatch, RecipeSort, RecipeType, rules,
};

use super::{created, page_response, resource};
use crate::body::JsonBody;
use crate::credentials::Authenticated;
use crate::error::ApiResult;
use crate::params::{DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, Query, path_id};
use crate::state::AppState;
use crate::validation::Fields;

/// Inside the `/v1/recipes` scope.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(
        resource("", "GET, POST")
            .route(web::get().to(list_recipes))
            .route(web::post().to(create_recipe)),
    )
    .service(
        resource("/{id}", "GET, PATCH, DELETE")
            .route(web::get().to(get_recipe))
            .route(web::patch().to(update_recipe))
            .route(web::delete().to(delete_recipe)),
    )
    .service(resource("/{id}/copy", "POST").route(web::post().to(copy_recipe)))
    .service(resource("/{id}/scale", "POST").route(web::post().to(scale_recipe)))
    .service(resource("/{id}/stats", "GET").route(web::get().to(recipe_stats)));
}

fn type_names() -> Vec<&'static str> {
    RecipeType::ALL.iter().map(RecipeType::as_str).collect()
}

/// Request body of `POST /v1/recipes` (for the OpenAPI document; parsing is by [`Fields`]).
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct CreateRecipeRequest {
    name: String,
    #[schema(default = "", nullable = false)]
    style: Option<String>,
    #[serde(rename = "type")]
    #[schema(inline, default = "all_grain", nullable = false)]
    kind: Option<RecipeType>,
    #[schema(default = 20, nullable = false)]
    batch_size_liters: Option<f64>,
    #[schema(default = 60, nullable = false)]
    boil_time_minutes: Option<f64>,
    #[schema(default = 0.72, nullable = false)]
    efficiency: Option<f64>,
    #[schema(nullable)]
    notes: Option<String>,
    /// One of the account's equipment profiles (`/v1/equipment`).
    #[schema(nullable)]
    equipment_id: Option<uuid::Uuid>,
    /// A BJCP 2021 style id of `GET /v1/styles`, e.g. `21A`.
    #[schema(nullable)]
    style_id: Option<String>,
}

/// Request body of `PATCH /v1/recipes/{id}`: only the fields sent change; `notes: null` clears.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct UpdateRecipeRequest {
    #[schema(nullable = false)]
    name: Option<String>,
    #[schema(nullable = false)]
    style: Option<String>,
    #[serde(rename = "type")]
    #[schema(inline, nullable = false)]
    kind: Option<RecipeType>,
    #[schema(nullable = false)]
    batch_size_liters: Option<f64>,
    #[schema(nullable = false)]
    boil_time_minutes: Option<f64>,
    #[schema(nullable = false)]
    efficiency: Option<f64>,
    #[schema(nullable)]
    notes: Option<String>,
    /// One of the account's equipment profiles; null: none.
    #[schema(nullable)]
    equipment_id: Option<uuid::Uuid>,
    /// A BJCP 2021 style id of `GET /v1/styles`; null: none.
    #[schema(nullable)]
    style_id: Option<String>,
}

/// The fields a recipe create and update share, read with "optional" semantics.
struct RecipeFields {
    name: Option<String>,
    style: Option<String>,
    kind: Option<RecipeType>,
    batch_size_liters: Option<f64>,
    boil_time_minutes: Option<f64>,
    efficiency: Option<f64>,
    notes: Option<Option<String>>,
    equipment_id: Option<Option<uuid::Uuid>>,
    style_id: Option<Option<String>>,
}

fn read_recipe_fields(f: &mut Fields, name_required: bool) -> RecipeFields {
    let name = f.text("name", rules::NAME);
    let name = if name_required {
        f.required("name", "string", name)
    } else {
        f.optional("name", "string", name)
    };
    let style = f.text("style", rules::STYLE);
    let style = f.optional("style", "string", style);
    let options = type_names();
    let kind = f.enumeration("type", &options, RecipeType::parse);
    let kind = f.optional("type", "string", kind);
    let batch = f.number("batch_size_liters", rules::BATCH_SIZE_LITERS);
    let batch_size_liters = f.optional("batch_size_liters", "number", batch);
    let boil = f.number("boil_time_minutes", rules::BOIL_TIME_MINUTES);
    let boil_time_minutes = f.optional("boil_time_minutes", "number", boil);
    let eff = f.number("efficiency", rules::EFFICIENCY);
    let efficiency = f.optional("efficiency", "number", eff);
    let notes = Fields::nullable(f.text("notes", rules::NOTES));
    let equipment_id = Fields::nullable(f.uuid("equipment_id"));
    let style_id = Fields::nullable(f.text("style_id", rules::STYLE_ID));
    RecipeFields {
        equipment_id,
        style_id,
        name,
        style,
        kind,
        batch_size_liters,
        boil_time_minutes,
        efficiency,
        notes,
    }
}

pub fn read_new_recipe(body: &Value) -> ApiResult<NewRecipe> {
    let mut f = Fields::of(body)?;
    let r = read_recipe_fields(&mut f, true);
    let new = NewRecipe {
        name: r.name.unwrap_or_default(),
        style: r.style.unwrap_or_default(),
        kind: r.kind.unwrap_or(RecipeType::AllGrain),
        batch_size_liters: r.batch_size_liters.unwrap_or(DEFAULT_BATCH_SIZE_LITERS),
        boil_time_minutes: r.boil_time_minutes.unwrap_or(DEFAULT_BOIL_TIME_MINUTES),
        efficiency: r.efficiency.unwrap_or(DEFAULT_EFFICIENCY),
        notes: r.notes.flatten(),
        equipment_id: r.equipment_id.flatten(),
        style_id: r.style_id.flatten(),
    };
    f.finish(new)
}

pub fn read_recipe_patch(body: &Value) -> ApiResult<RecipePatch> {
    let mut f = Fields::of(body)?;
    let r = read_recipe_fields(&mut f, false);
    let patch = RecipePatch {
        name: r.name,
        style: r.style,
        kind: r.kind,
        batch_size_liters: r.batch_size_liters,
        boil_time_minutes: r.boil_time_minutes,
        efficiency: r.efficiency,
        notes: r.notes,
        equipment_id: r.equipment_id,
        style_id: r.style_id,
    };
    f.finish(patch)
}

// The `sort` query parameter, for the OpenAPI document only (parsing is by `RecipeSort::parse`).
/// Order of `GET /v1/recipes`: by name, creation or last update; a leading `-` means descending.
#[derive(ToSchema)]
#[allow(dead_code)]
pub enum RecipeSortParam {
    #[serde(rename = "name")]
    Name,
    #[serde(rename = "-name")]
    NameDesc,
    #[serde(rename = "created_at")]
    CreatedAt,
    #[serde(rename = "-created_at")]
    CreatedAtDesc,
    #[serde(rename = "updated_at")]
    UpdatedAt,
    #[serde(rename = "-updated_at")]
    UpdatedAtDesc,
}

/// The account's recipes, paged.
#[utoipa::path(get, path = "/v1/recipes", tag = "recipes",
    params(
        ("q" = Option<String>, Query, description = "Case-insensitive literal substring of name or style"),
        ("type" = Option<RecipeType>, Query, description = "Only recipes of this type"),
        ("sort" = Option<RecipeSortParam>, Query, description = "Order (default -updated_at; ties by id)"),
        ("limit" = Option<i64>, Query, description = "Page size (default 50)"),
        ("offset" = Option<i64>, Query, description = "Items to skip (default 0)"),
    ),
    responses((status = 200, body = [Recipe], headers(("X-Total-Count" = i64), ("Link" = String)))))]
pub async fn list_recipes(
    auth: Authenticated,
    req: HttpRequest,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let query = Query::of(&req)?;
    let page = query.page(DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE)?;
    let kind = query.one_of("type", &type_names(), RecipeType::parse)?;
    let sort = query
        .one_of("sort", RecipeSort::NAMES, RecipeSort::parse)?
        .unwrap_or_default();
    let filter = RecipeFilter {
        q: query.get("q").map(str::to_owned),
        kind,
        sort,
    };
    let recipes = state.recipes.list(auth.0.user.id, &filter, page).await?;
    Ok(page_response(&req, &query, page, &recipes))
}

/// Create a recipe (`name` required; defaults for the rest).
#[utoipa::path(post, path = "/v1/recipes", tag = "recipes",
    request_body = CreateRecipeRequest,
    responses((status = 201, body = Recipe, links(
            ("GetRecipe" = (operation_id = "get_recipe", parameters(("id" = "$response.body#/id")),
                description = "The recipe just created")),
            ("BrewIt" = (operation_id = "create_session",
                request_body = json!({"recipe_id": "$response.body#/id", "brew_date": "2026-11-28"}),
                description = "Start a brew session from the recipe just created"))))))]
pub async fn create_recipe(
    auth: Authenticated,
    state: web::Data<AppState>,
    body: JsonBody,
) -> ApiResult<HttpResponse> {
    let new = read_new_recipe(&body.json()?)?;
    let recipe = state.recipes.create(auth.0.user.id, new).await?;
    Ok(created(&recipe))
}

/// A recipe with its fermentables, hops, yeasts, miscs and mash steps.
#[utoipa::path(get, path = "/v1/recipes/{id}", tag = "recipes",
    params(("id" = uuid::Uuid, Path, description = "Recipe id")),
    responses((status = 200, body = RecipeDetail)))]
pub async fn get_recipe(
    auth: Authenticated,
    req: HttpRequest,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let id = path_id(&req, "id")?;
    let recipe = state.recipes.get(auth.0.user.id, id).await?;
    Ok(HttpResponse::Ok().json(recipe))
}

/// Change some fields of a recipe; `{}` changes nothing.
#[utoipa::path(patch, path = "/v1/recipes/{id}", tag = "recipes",
    params(("id" = uuid::Uuid, Path, description = "Recipe id")), request_body = UpdateRecipeRequest,
    responses((status = 200, body = Recipe)))]
pub async fn update_recipe(
    auth: Authenticated,
    req: HttpRequest,
    state: web::Data<AppState>,
    body: JsonBody,
) -> ApiResult<HttpResponse> {
    let id = path_id(&req, "id")?;
    let patch = read_recipe_patch(&body.json()?)?;
    let recipe = state.recipes.update(auth.0.user.id, id, patch).await?;
    Ok(HttpResponse::Ok().json(recipe))
}

/// Delete a recipe and its ingredients and mash steps (brew sessions keep their snapshot).
#[utoipa::path(delete, path = "/v1/recipes/{id}", tag = "recipes",
    params(("id" = uuid::Uuid, Path, description = "Recipe id")),
    responses((status = 204, description = "Deleted")))]
pub async fn delete_recipe(
    auth: Authenticated,
    req: HttpRequest,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let id = path_id(&req, "id")?;
    state.recipes.delete(auth.0.user.id, id).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Request body of `POST /v1/recipes/{id}/copy` (optional; no body at all is fine too).
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct CopyRecipeRequest {
    /// Name of the copy; default "<name> (copy)".
    #[schema(nullable = false)]
    name: Option<String>,
}

/// Copy a recipe with all its ingredients and mash steps.
#[utoipa::path(post, path = "/v1/recipes/{id}/copy", tag = "recipes",
    params(("id" = uuid::Uuid, Path, description = "Recipe id")), request_body(content = Option<CopyRecipeRequest>),
    responses((status = 201, body = RecipeDetail)))]
pub async fn copy_recipe(
    auth: Authenticated,
    req: HttpRequest,
    state: web::Data<AppState>,
    body: JsonBody,
) -> ApiResult<HttpResponse> {
    let id = path_id(&req, "id")?;
    let name = match body.optional_json()? {
        None => None,
        Some(body) => {
            let mut f = Fields::of(&body)?;
            let name = f.text("name", rules::NAME);
            let name = f.optional("name", "string", name);
            f.finish(name)?
        }
    };
    let copy = state.recipes.copy(auth.0.user.id, id, name).await?;
    Ok(created(&copy))
}

/// Request body of `POST /v1/recipes/{id}/scale`.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct ScaleRecipeRequest {
    /// The new batch size into the fermenter, in litres.
    batch_size_liters: f64,
    /// The new mash efficiency (0–1); default: the recipe's.
    #[schema(nullable = false)]
    efficiency: Option<f64>,
    /// Name of the new recipe; default "<name> (<size> L)".
    #[schema(nullable = false)]
    name: Option<String>,
}

/// A new recipe for another batch size (and efficiency) with the original's OG and IBU: the
/// fermentable and hop amounts are solved (Tinseth depends on the new gravity and volume), yeasts,
/// miscs and mash infusions follow the volume.
#[utoipa::path(post, path = "/v1/recipes/{id}/scale", tag = "recipes",
    params(("id" = uuid::Uuid, Path, description = "Recipe id")), request_body = ScaleRecipeRequest,
    responses((status = 201, body = RecipeDetail),
        (status = 422, body = crate::error::ValidationErrorBody,
            description = "A batch size outside (0, 1000] L, an efficiency outside 0–1, or scaled amounts past the ingredient caps")))]
pub async fn scale_recipe(
    auth: Authenticated,
    req: HttpRequest,
    state: web::Data<AppState>,
    body: JsonBody,
) -> ApiResult<HttpResponse> {
    let id = path_id(&req, "id")?;
    let body = body.json()?;
    let mut f = Fields::of(&body)?;
    let batch = f.number("batch_size_liters", rules::SCALED_BATCH_SIZE_LITERS);
    let batch = f.required("batch_size_liters", "number", batch);
    let efficiency = f.number("efficiency", rules::EFFICIENCY);
    let efficiency = f.optional("efficiency", "number", efficiency);
    let name = f.text("name", rules::NAME);
    let name = f.optional("name", "string", name);
    let (target, name) = f.finish((
        ScaleTarget {
            batch_size_liters: batch.unwrap_or_default(),
            efficiency,
        },
        name,
    ))?;
    let scaled = state
        .recipes
        .scale(auth.0.user.id, id, target, name)
        .await?;
    Ok(created(&scaled))
}

/// OG, FG, ABV, IBU, colour, attenuation, calories and BU:GU, computed from the current
/// ingredients (never stored or cached); with an equipment profile the brew day's `volumes`, with
/// a style the `style_fit` (each `null` without).
#[utoipa::path(get, path = "/v1/recipes/{id}/stats", tag = "recipes",
    params(("id" = uuid::Uuid, Path, description = "Recipe id")),
    responses((status = 200, body = StatsReport)))]
pub async fn recipe_stats(
    auth: Authenticated,
    req: HttpRequest,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let id = path_id(&req, "id")?;
    let stats = state.recipes.stats(auth.0.user.id, id).await?;
    Ok(HttpResponse::Ok().json(stats))
}
