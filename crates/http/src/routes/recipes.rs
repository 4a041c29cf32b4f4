//! `/v1/recipes`: list, create, read (with children), update, delete.

use actix_web::{HttpRequest, HttpResponse, web};
use serde_json::Value;
use utoipa::ToSchema;
use wort_domain::brewing::scaling::ScaleTarget;
use wort_domain::brewing::{ReportOptions, StatsReport};
use wort_domain::recipe::{
    DEFAULT_BATCH_SIZE_LITERS, DEFAULT_BOIL_TIME_MINUTES, DEFAULT_EFFICIENCY, DEFAULT_STYLE,
    DEFAULT_TYPE, NewRecipe, Recipe, RecipeDetail, RecipeFilter, RecipePatch, RecipeSort,
    RecipeType, rules,
};

use super::{created, resource, written_ok, written_page_response};
use crate::body::JsonBody;
use crate::body::spec::{
    BodySpec, Choice, DefaultValue, Descriptions, FieldSpec, Kind, Missing, Mode, OnCreate, Reader,
    request_body_schema,
};
use crate::caller::{Caller, CallerAndId};
use crate::error::ApiResult;
use crate::fast_json;
use crate::params::{DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, Query};
use crate::state::AppState;

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
    .service(resource("/{id}/stats", "GET").route(web::get().to(recipe_stats)))
    .service(resource("/{id}/checks", "GET").route(web::get().to(recipe_checks)));
}

fn type_names() -> Vec<&'static str> {
    RecipeType::ALL.iter().map(RecipeType::as_str).collect()
}

const fn default(value: DefaultValue) -> OnCreate {
    OnCreate::Default(value)
}

/// A recipe's own fields (its ingredients have their own bodies).
static RECIPE: BodySpec = BodySpec {
    rules: rules::RECIPE_FIELDS,
    missing: Missing::WhereRead,
    fields: &[
        FieldSpec::new("name", Kind::Text, OnCreate::Required),
        FieldSpec::new(
            "style",
            Kind::Text,
            default(DefaultValue::Text(DEFAULT_STYLE)),
        ),
        FieldSpec::new(
            "type",
            Kind::Choice(Choice::inline::<RecipeType>(type_names)),
            default(DefaultValue::Text(DEFAULT_TYPE.as_str())),
        ),
        FieldSpec::new(
            "batch_size_liters",
            Kind::Number,
            default(DefaultValue::Number(DEFAULT_BATCH_SIZE_LITERS)),
        ),
        FieldSpec::new(
            "boil_time_minutes",
            Kind::Number,
            default(DefaultValue::Number(DEFAULT_BOIL_TIME_MINUTES)),
        ),
        FieldSpec::new(
            "efficiency",
            Kind::Number,
            default(DefaultValue::Number(DEFAULT_EFFICIENCY)),
        ),
        FieldSpec::clearable("notes", Kind::Text),
        FieldSpec::clearable("equipment_id", Kind::Uuid)
            .described("One of the account's equipment profiles (`/v1/equipment`)."),
        FieldSpec::clearable("style_id", Kind::Text)
            .described("A BJCP 2021 style id of `GET /v1/styles`, e.g. `21A`."),
        FieldSpec::clearable("water_profile_id", Kind::Uuid)
            .described("The source water: a profile of `GET /v1/water-profiles`."),
        FieldSpec::clearable("target_water_profile_id", Kind::Uuid)
            .described("The water aimed at: a profile of `GET /v1/water-profiles`."),
    ],
};

static COPY: BodySpec = BodySpec {
    rules: rules::COPY_FIELDS,
    missing: Missing::WhereRead,
    fields: &[FieldSpec::new("name", Kind::Text, OnCreate::Optional)
        .described("Name of the copy; default \"<name> (copy)\".")],
};

static SCALE: BodySpec = BodySpec {
    rules: rules::SCALE_FIELDS,
    missing: Missing::WhereRead,
    fields: &[
        FieldSpec::required("batch_size_liters", Kind::Number)
            .described("The new batch size into the fermenter, in litres."),
        FieldSpec::new("efficiency", Kind::Number, OnCreate::Optional)
            .described("The new mash efficiency (0–1); default: the recipe's."),
        FieldSpec::new("name", Kind::Text, OnCreate::Optional)
            .described("Name of the new recipe; default \"<name> (<size> L)\"."),
    ],
};

request_body_schema!(
    /// `POST /v1/recipes`.
    CreateRecipeRequest,
    RECIPE,
    Mode::Create,
    "Request body of `POST /v1/recipes`.",
    field_descriptions = true
);

request_body_schema!(
    /// `PATCH /v1/recipes/{id}`.
    UpdateRecipeRequest,
    RECIPE,
    Mode::Update,
    "Request body of `PATCH /v1/recipes/{id}`: only the fields sent change; `notes: null` clears.",
    field_descriptions = Descriptions::These(&[
        (
            "equipment_id",
            "One of the account's equipment profiles; null: none."
        ),
        (
            "style_id",
            "A BJCP 2021 style id of `GET /v1/styles`; null: none."
        ),
        (
            "water_profile_id",
            "The source water (`GET /v1/water-profiles`); null: none."
        ),
        (
            "target_water_profile_id",
            "The water aimed at (`GET /v1/water-profiles`); null: none."
        ),
    ])
);

request_body_schema!(
    /// `POST /v1/recipes/{id}/copy`.
    CopyRecipeRequest,
    COPY,
    Mode::Create,
    "Request body of `POST /v1/recipes/{id}/copy` (optional; no body at all is fine too).",
    field_descriptions = true
);

request_body_schema!(
    /// `POST /v1/recipes/{id}/scale`.
    ScaleRecipeRequest,
    SCALE,
    Mode::Create,
    "Request body of `POST /v1/recipes/{id}/scale`.",
    field_descriptions = true
);

/// The fields sent: every one on create (defaults filled in), only those sent on update.
fn read_patch(f: &mut Reader) -> RecipePatch {
    RecipePatch {
        name: f.text("name"),
        style: f.text("style"),
        kind: f.enumeration("type", RecipeType::parse),
        batch_size_liters: f.number("batch_size_liters"),
        boil_time_minutes: f.number("boil_time_minutes"),
        efficiency: f.number("efficiency"),
        notes: f.nullable_text("notes"),
        equipment_id: f.nullable_uuid("equipment_id"),
        style_id: f.nullable_text("style_id"),
        water_profile_id: f.nullable_uuid("water_profile_id"),
        target_water_profile_id: f.nullable_uuid("target_water_profile_id"),
    }
}

pub fn read_new_recipe(body: &Value) -> ApiResult<NewRecipe> {
    let mut f = Reader::new(body, &RECIPE, Mode::Create)?;
    let p = read_patch(&mut f);
    // Each `None` left is a required field not sent, which `finish` reports.
    let new = NewRecipe {
        name: p.name.unwrap_or_default(),
        style: p.style.unwrap_or_default(),
        kind: p.kind.unwrap_or(DEFAULT_TYPE),
        batch_size_liters: p.batch_size_liters.unwrap_or_default(),
        boil_time_minutes: p.boil_time_minutes.unwrap_or_default(),
        efficiency: p.efficiency.unwrap_or_default(),
        notes: p.notes.flatten(),
        equipment_id: p.equipment_id.flatten(),
        style_id: p.style_id.flatten(),
        water_profile_id: p.water_profile_id.flatten(),
        target_water_profile_id: p.target_water_profile_id.flatten(),
        lineage: Default::default(),
    };
    f.finish(new)
}

pub fn read_recipe_patch(body: &Value) -> ApiResult<RecipePatch> {
    let mut f = Reader::new(body, &RECIPE, Mode::Update)?;
    let patch = read_patch(&mut f);
    f.finish(patch)
}

/// The copy's name, if one is sent.
fn read_copy(body: &Value) -> ApiResult<Option<String>> {
    let mut f = Reader::new(body, &COPY, Mode::Create)?;
    let name = f.text("name");
    f.finish(name)
}

fn read_scale(body: &Value) -> ApiResult<(ScaleTarget, Option<String>)> {
    let mut f = Reader::new(body, &SCALE, Mode::Create)?;
    let batch = f.number("batch_size_liters");
    let efficiency = f.number("efficiency");
    let name = f.text("name");
    let target = ScaleTarget {
        batch_size_liters: batch.unwrap_or_default(),
        efficiency,
    };
    f.finish((target, name))
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
    Caller(user): Caller,
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
    let recipes = state.recipes.list(user, &filter, page).await?;
    written_page_response(&req, &query, page, &recipes, fast_json::recipes)
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
    Caller(user): Caller,
    state: web::Data<AppState>,
    body: JsonBody,
) -> ApiResult<HttpResponse> {
    let new = read_new_recipe(&body.json()?)?;
    let recipe = state.recipes.create(user, new).await?;
    Ok(created(&recipe))
}

/// A recipe with its fermentables, hops, yeasts, miscs and mash steps.
#[utoipa::path(get, path = "/v1/recipes/{id}", tag = "recipes",
    params(("id" = uuid::Uuid, Path, description = "Recipe id")),
    responses((status = 200, body = RecipeDetail)))]
pub async fn get_recipe(
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let recipe = state.recipes.get(user, id).await?;
    written_ok(&recipe, fast_json::recipe_detail)
}

/// Change some fields of a recipe; `{}` changes nothing.
#[utoipa::path(patch, path = "/v1/recipes/{id}", tag = "recipes",
    params(("id" = uuid::Uuid, Path, description = "Recipe id")), request_body = UpdateRecipeRequest,
    responses((status = 200, body = Recipe)))]
pub async fn update_recipe(
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
    body: JsonBody,
) -> ApiResult<HttpResponse> {
    let patch = read_recipe_patch(&body.json()?)?;
    let recipe = state.recipes.update(user, id, patch).await?;
    Ok(HttpResponse::Ok().json(recipe))
}

/// Delete a recipe and its ingredients and mash steps (brew sessions keep their snapshot).
#[utoipa::path(delete, path = "/v1/recipes/{id}", tag = "recipes",
    params(("id" = uuid::Uuid, Path, description = "Recipe id")),
    responses((status = 204, description = "Deleted")))]
pub async fn delete_recipe(
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    state.recipes.delete(user, id).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Copy a recipe with all its ingredients and mash steps.
#[utoipa::path(post, path = "/v1/recipes/{id}/copy", tag = "recipes",
    params(("id" = uuid::Uuid, Path, description = "Recipe id")), request_body(content = Option<CopyRecipeRequest>),
    responses((status = 201, body = RecipeDetail)))]
pub async fn copy_recipe(
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
    body: JsonBody,
) -> ApiResult<HttpResponse> {
    let name = match body.optional_json()? {
        None => None,
        Some(body) => read_copy(&body)?,
    };
    let copy = state.recipes.copy(user, id, name).await?;
    Ok(created(&copy))
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
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
    body: JsonBody,
) -> ApiResult<HttpResponse> {
    let (target, name) = read_scale(&body.json()?)?;
    let scaled = state.recipes.scale(user, id, target, name).await?;
    Ok(created(&scaled))
}

/// OG, FG, ABV, IBU, colour, attenuation, calories and BU:GU, computed from the current
/// ingredients (never stored or cached); with an equipment profile the brew day's `volumes`, with
/// a style the `style_fit` (each `null` without); each mash step's infusion water or decoction
/// (`mash_steps`). With `explain=true`, `explain` gives each figure's formula, inputs, steps and
/// result, per fermentable and per hop.
#[utoipa::path(get, path = "/v1/recipes/{id}/stats", tag = "recipes",
    params(("id" = uuid::Uuid, Path, description = "Recipe id"),
        ("explain" = Option<bool>, Query, description = "Add `explain`: how each figure is computed (default false)")),
    responses((status = 200, body = StatsReport),
        (status = 400, body = crate::error::ErrorBody, description = "`explain` not `true` or `false`")))]
pub async fn recipe_stats(
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
    req: HttpRequest,
) -> ApiResult<HttpResponse> {
    let options = ReportOptions {
        explain: Query::of(&req)?.boolean("explain")?.unwrap_or(false),
    };
    let stats = state.recipes.stats(user, id, options).await?;
    Ok(HttpResponse::Ok().json(stats))
}

/// What a careful brewer would point out about the recipe as it is now: a hop boiled longer than
/// the boil, too many hops for the batch, no fermentables, no yeast, an all-grain recipe without
/// mash steps, an unusual efficiency, a mash larger than the equipment's mash tun, mash water
/// too high in an ion. Advice, never a refusal. Each check's `path` names a recipe field, a list,
/// or a child by its id (`["hops","<id>","time_minutes"]`); its `message` is in the caller's
/// display units.
#[utoipa::path(get, path = "/v1/recipes/{id}/checks", tag = "recipes",
    params(("id" = uuid::Uuid, Path, description = "Recipe id")),
    responses((status = 200, body = wort_domain::recipe::checks::RecipeChecks)))]
pub async fn recipe_checks(
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let checks = state.recipes.checks(user, id).await?;
    Ok(HttpResponse::Ok().json(checks))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::body::spec::assert_whole;

    #[test]
    fn every_field_of_the_tables_is_read() {
        assert_whole(&RECIPE, |body| read_new_recipe(body).map(|_| ()));
        assert_whole(&RECIPE, |body| read_recipe_patch(body).map(|_| ()));
        assert_whole(&COPY, |body| read_copy(body).map(|_| ()));
        assert_whole(&SCALE, |body| read_scale(body).map(|_| ()));
    }
}
