//! The OpenAPI 3.1 document, generated from the handlers' annotations.

use utoipa::openapi::security::{ApiKey, ApiKeyValue, SecurityScheme};
use utoipa::{Modify, OpenApi, ToSchema};

use crate::routes;
use crate::routes::ingredients;

/// `{"error": "..."}`: every error response.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct ErrorBody {
    error: String,
}

/// One failed rule of a `422` (Zod-style issue). Rules add fields such as `minimum`, `maximum`,
/// `inclusive`, `type`, `expected`, `received`, `options`, `validation`, `from`, `to`.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct ValidationIssue {
    /// too_small, too_big, invalid_type, invalid_enum_value, invalid_string, not_integer,
    /// invalid_transition, already_exists
    code: String,
    /// Path to the field; array indices as decimal strings.
    path: Vec<String>,
    message: String,
}

/// `422`: `{"error":"Validation failed","details":[...]}`.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct ValidationErrorBody {
    /// Always `Validation failed`.
    error: String,
    details: Vec<ValidationIssue>,
}

/// `{"status":"ok"}`.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct Status {
    status: String,
}

struct SecuritySchemes;

impl Modify for SecuritySchemes {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "api_key",
            SecurityScheme::ApiKey(ApiKey::Header(ApiKeyValue::with_description(
                "X-API-Key",
                "An API key from POST /api/auth/api-key/create (scripts and devices).",
            ))),
        );
        components.add_security_scheme(
            "session_cookie",
            SecurityScheme::ApiKey(ApiKey::Cookie(ApiKeyValue::with_description(
                "wort_session",
                "Set by sign-in. Writes also need an allowed Origin (CSRF defence).",
            ))),
        );
    }
}

#[derive(OpenApi)]
#[openapi(
    info(title = "wort", version = "1.0.0",
        description = "Homebrewing data: recipes and their statistics, brew sessions, fermentation logs, inventory and an AI assistant."),
    modifiers(&SecuritySchemes),
    paths(
        routes::health::healthz, routes::health::readyz,
        routes::auth::sign_up, routes::auth::sign_in, routes::auth::sign_out, routes::auth::get_session,
        routes::auth::create_key, routes::auth::list_keys, routes::auth::delete_key,
        routes::me::me,
        routes::recipes::list_recipes, routes::recipes::create_recipe, routes::recipes::get_recipe,
        routes::recipes::update_recipe, routes::recipes::delete_recipe,
        routes::recipes::copy_recipe, routes::recipes::recipe_stats,
        ingredients::fermentables::create, ingredients::fermentables::list, ingredients::fermentables::get,
        ingredients::fermentables::update, ingredients::fermentables::delete,
        ingredients::hops::create, ingredients::hops::list, ingredients::hops::get,
        ingredients::hops::update, ingredients::hops::delete,
        ingredients::yeasts::create, ingredients::yeasts::list, ingredients::yeasts::get,
        ingredients::yeasts::update, ingredients::yeasts::delete,
        ingredients::miscs::create, ingredients::miscs::list, ingredients::miscs::get,
        ingredients::miscs::update, ingredients::miscs::delete,
        ingredients::mash_steps::create, ingredients::mash_steps::list, ingredients::mash_steps::get,
        ingredients::mash_steps::update, ingredients::mash_steps::delete,
        routes::inventory::list_items, routes::inventory::create_item, routes::inventory::get_item,
        routes::inventory::update_item, routes::inventory::delete_item, routes::inventory::adjust_item,
        routes::sessions::list_sessions, routes::sessions::create_session, routes::sessions::get_session,
        routes::sessions::update_session, routes::sessions::delete_session,
        routes::sessions::list_steps, routes::sessions::create_step, routes::sessions::get_step,
        routes::sessions::update_step, routes::sessions::delete_step,
        routes::sessions::list_logs, routes::sessions::create_log, routes::sessions::latest_log,
        routes::sessions::get_log, routes::sessions::update_log, routes::sessions::delete_log,
    ),
    components(schemas(ErrorBody, ValidationErrorBody, ValidationIssue, Status)),
    tags(
        (name = "health", description = "Probes"),
        (name = "auth", description = "Accounts, sessions and API keys (camelCase)"),
        (name = "account", description = "The caller"),
        (name = "recipes", description = "Recipes"),
        (name = "fermentables", description = "Malts, sugars, extracts… of a recipe"),
        (name = "hops", description = "Hop additions of a recipe"),
        (name = "yeasts", description = "Yeasts of a recipe"),
        (name = "miscs", description = "Other ingredients: finings, salts, spices, flavourings"),
        (name = "mash steps", description = "Mash schedule of a recipe"),
        (name = "inventory", description = "Ingredients on hand"),
        (name = "sessions", description = "Brew sessions and their brew-day checklist"),
        (name = "fermentation logs", description = "Timestamped fermentation readings of a session"),
    )
)]
pub struct ApiDoc;

/// The document as served at `/v1/openapi.json`.
pub fn document() -> utoipa::openapi::OpenApi {
    ApiDoc::openapi()
}
