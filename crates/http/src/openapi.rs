//! The OpenAPI 3.1 document, generated from the handlers' annotations.

use serde_json::{Value, json};
use utoipa::openapi::extensions::Extensions;
use utoipa::openapi::schema::{
    AllOfBuilder, AnyOfBuilder, ObjectBuilder, OneOfBuilder, Schema, SchemaType, Type,
};
use utoipa::openapi::security::{ApiKey, ApiKeyValue, SecurityScheme};
use utoipa::openapi::{RefOr, Required};
use utoipa::{Modify, OpenApi, PartialSchema, ToSchema};

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

/// One server-sent event of `POST /v1/chat`, as OpenAPI 3.1 describes an event stream's events:
/// `event` names it and `data` is one JSON object (its `contentSchema` per event).
pub struct ChatStreamEvent;

impl ChatStreamEvent {
    fn event(name: &str, description: &str, data: Value) -> Schema {
        let mut data_schema = ObjectBuilder::new()
            .schema_type(Type::String)
            .content_media_type("application/json")
            .build();
        // utoipa's `Object` has no `contentSchema` field; a JSON Schema keyword is still a key.
        let mut keywords = Extensions::default();
        keywords.insert("contentSchema".to_owned(), data);
        data_schema.extensions = Some(keywords);
        ObjectBuilder::new()
            .schema_type(Type::Object)
            .description(Some(description))
            .property(
                "event",
                ObjectBuilder::new()
                    .schema_type(Type::String)
                    .enum_values(Some([name])),
            )
            .property("data", data_schema)
            .required("event")
            .required("data")
            .into()
    }
}

impl PartialSchema for ChatStreamEvent {
    fn schema() -> RefOr<Schema> {
        let uuid = json!({"type": "string", "format": "uuid"});
        let tokens = json!({"type": "integer", "format": "int64"});
        OneOfBuilder::new()
            .description(Some(
                "One event of the stream: `chat` first, then `delta`s, then `done` or `error`.",
            ))
            .item(Self::event(
                "chat",
                "The thread and the id of the assistant message being written",
                json!({"type": "object", "required": ["chat_id", "message_id"],
                       "properties": {"chat_id": uuid, "message_id": uuid}}),
            ))
            .item(Self::event(
                "delta",
                "The next piece of the answer",
                json!({"type": "object", "required": ["text"],
                       "properties": {"text": {"type": "string"}}}),
            ))
            .item(Self::event(
                "done",
                "The answer is complete and stored; the tokens it used",
                json!({"type": "object", "required": ["usage"], "properties": {"usage": {
                    "type": "object",
                    "required": ["prompt_tokens", "completion_tokens", "total_tokens"],
                    "properties": {"prompt_tokens": tokens, "completion_tokens": tokens,
                                   "total_tokens": tokens}}}}),
            ))
            .item(Self::event(
                "error",
                "The provider failed mid-answer; what was answered so far is stored",
                json!({"type": "object", "required": ["error"],
                       "properties": {"error": {"type": "string"}}}),
            ))
            .into()
    }
}

impl ToSchema for ChatStreamEvent {}

/// A body that may be left out (copy, analysis, chat-thread create) is a JSON object when it is
/// sent, never `null`: utoipa documents an `Option<T>` body as "`T` or null", so the null goes.
struct OptionalBodies;

impl Modify for OptionalBodies {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        for item in openapi.paths.paths.values_mut() {
            let operations = [&mut item.post, &mut item.patch, &mut item.put];
            for operation in operations.into_iter().flatten() {
                let Some(body) = operation.request_body.as_mut() else {
                    continue;
                };
                if matches!(body.required, Some(Required::True)) {
                    continue;
                }
                body.required = Some(Required::False);
                for content in body.content.values_mut() {
                    if let Some(schema) = content.schema.take() {
                        content.schema = Some(without_null(schema));
                    }
                }
            }
        }
    }
}

fn is_null(schema: &RefOr<Schema>) -> bool {
    matches!(schema, RefOr::T(Schema::Object(o)) if o.schema_type == SchemaType::Type(Type::Null))
}

/// `oneOf: [null, T]` becomes `T`; `type: [object, null]` becomes `type: object`.
fn without_null(schema: RefOr<Schema>) -> RefOr<Schema> {
    match schema {
        RefOr::T(Schema::OneOf(one_of)) if one_of.items.iter().any(is_null) => {
            let mut rest: Vec<_> = one_of.items.into_iter().filter(|s| !is_null(s)).collect();
            match rest.pop() {
                Some(only) if rest.is_empty() => only,
                Some(last) => {
                    rest.push(last);
                    let mut builder = OneOfBuilder::new();
                    for item in rest {
                        builder = builder.item(item);
                    }
                    builder.into()
                }
                None => RefOr::T(Schema::OneOf(Default::default())),
            }
        }
        RefOr::T(Schema::Object(mut object)) => {
            if let SchemaType::Array(types) = &object.schema_type {
                let kept: Vec<Type> = types
                    .iter()
                    .filter(|t| **t != Type::Null)
                    .cloned()
                    .collect();
                object.schema_type = match kept.as_slice() {
                    [only] => SchemaType::Type(only.clone()),
                    _ => SchemaType::Array(kept),
                };
            }
            RefOr::T(Schema::Object(object))
        }
        other => other,
    }
}

/// A new fermentation reading needs at least one of gravity, temperature_c, ph or notes (not
/// null): said in JSON Schema as `anyOf` next to the fields.
struct ReadingNeedsAMeasurement;

impl Modify for ReadingNeedsAMeasurement {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let Some(components) = openapi.components.as_mut() else {
            return;
        };
        let Some(fields) = components.schemas.remove("CreateLogRequest") else {
            return;
        };
        let mut any_of = AnyOfBuilder::new();
        for (field, kind) in [
            ("gravity", Type::Number),
            ("temperature_c", Type::Number),
            ("ph", Type::Number),
            ("notes", Type::String),
        ] {
            any_of = any_of.item(
                ObjectBuilder::new()
                    .property(field, ObjectBuilder::new().schema_type(kind))
                    .required(field),
            );
        }
        let description = match &fields {
            RefOr::T(Schema::Object(o)) => o.description.clone(),
            _ => None,
        };
        let schema = AllOfBuilder::new()
            .description(description)
            .item(fields)
            .item(any_of);
        components
            .schemas
            .insert("CreateLogRequest".to_owned(), schema.into());
    }
}

/// utoipa 5 serializes a response link's `operation_id`, `operation_ref` and `request_body` under
/// those names instead of OpenAPI's `operationId`, `operationRef` and `requestBody`, so no tool
/// would follow them: the values move to keys spelled as the specification says.
struct LinkFieldNames;

impl Modify for LinkFieldNames {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        for item in openapi.paths.paths.values_mut() {
            let operations = [
                &mut item.get,
                &mut item.post,
                &mut item.put,
                &mut item.patch,
                &mut item.delete,
            ];
            for operation in operations.into_iter().flatten() {
                for response in operation.responses.responses.values_mut() {
                    let RefOr::T(response) = response else {
                        continue;
                    };
                    for link in response.links.values_mut() {
                        let RefOr::T(link) = link else {
                            continue;
                        };
                        let fields = link.extensions.get_or_insert_with(Extensions::default);
                        if !link.operation_id.is_empty() {
                            let id = std::mem::take(&mut link.operation_id);
                            fields.insert("operationId".to_owned(), Value::String(id));
                        }
                        if !link.operation_ref.is_empty() {
                            let reference = std::mem::take(&mut link.operation_ref);
                            fields.insert("operationRef".to_owned(), Value::String(reference));
                        }
                        if let Some(body) = link.request_body.take() {
                            fields.insert("requestBody".to_owned(), body);
                        }
                    }
                }
            }
        }
    }
}

struct SecuritySchemes;

/// Statuses every operation can answer, added to each one here rather than in every annotation:
/// an unexpected failure (500) and an unreachable database or exhausted pool (503).
struct CommonResponses;

impl Modify for CommonResponses {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::{RefOr, ResponseBuilder, content::ContentBuilder};
        let error_body = || {
            ContentBuilder::new()
                .schema(Some(RefOr::Ref(utoipa::openapi::Ref::from_schema_name(
                    "ErrorBody",
                ))))
                .build()
        };
        let common = [
            ("500", "Internal server error; safe to retry with backoff"),
            (
                "503",
                "Database unavailable or overloaded; retry after `Retry-After` seconds",
            ),
        ];
        for item in openapi.paths.paths.values_mut() {
            let operations = [
                &mut item.get,
                &mut item.post,
                &mut item.put,
                &mut item.patch,
                &mut item.delete,
            ];
            for operation in operations.into_iter().flatten() {
                for (status, description) in common {
                    operation
                        .responses
                        .responses
                        .entry(status.to_owned())
                        .or_insert_with(|| {
                            RefOr::T(
                                ResponseBuilder::new()
                                    .description(description)
                                    .content("application/json", error_body())
                                    .build(),
                            )
                        });
                }
            }
        }
    }
}

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
    modifiers(&SecuritySchemes, &CommonResponses, &OptionalBodies, &ReadingNeedsAMeasurement,
        &LinkFieldNames),
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
        routes::ai::usage, routes::ai::analyse_recipe, routes::ai::chat_turn,
        routes::chats::list_chats, routes::chats::create_chat, routes::chats::get_chat,
        routes::chats::update_chat, routes::chats::delete_chat,
        routes::sessions::list_sessions, routes::sessions::create_session, routes::sessions::get_session,
        routes::sessions::update_session, routes::sessions::delete_session,
        routes::sessions::list_steps, routes::sessions::create_step, routes::sessions::get_step,
        routes::sessions::update_step, routes::sessions::delete_step,
        routes::sessions::list_logs, routes::sessions::create_log, routes::sessions::latest_log,
        routes::sessions::get_log, routes::sessions::update_log, routes::sessions::delete_log,
    ),
    components(schemas(ErrorBody, ValidationErrorBody, ValidationIssue, Status, ChatStreamEvent,
        routes::recipes::RecipeSortParam)),
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
        (name = "ai", description = "The AI assistant: usage and limits, recipe analysis, streamed chat turns"),
        (name = "chats", description = "Chat threads with the AI assistant"),
        (name = "sessions", description = "Brew sessions and their brew-day checklist"),
        (name = "fermentation logs", description = "Timestamped fermentation readings of a session"),
    )
)]
pub struct ApiDoc;

/// The document as served at `/v1/openapi.json`.
pub fn document() -> utoipa::openapi::OpenApi {
    ApiDoc::openapi()
}
