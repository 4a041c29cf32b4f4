//! The OpenAPI 3.1 document, generated from the handlers' annotations.

use serde_json::Value;
use utoipa::openapi::extensions::Extensions;
use utoipa::openapi::schema::{
    AllOfBuilder, AnyOfBuilder, ObjectBuilder, OneOfBuilder, Schema, SchemaType, Type,
};
use utoipa::openapi::security::{ApiKey, ApiKeyValue, SecurityScheme};
use utoipa::openapi::{RefOr, Required};
use utoipa::{Modify, OpenApi};

use crate::body::spec::json_bound;
use wort_domain::{brew_session, recipe};

use crate::routes;
use crate::routes::stock::ShoppingListBounds;
use crate::routes::tools::ToolBounds;
use crate::routes::{catalog, recipe_children};

/// Every operation of the document (the methods wort uses), to change in place.
fn operations_mut(
    openapi: &mut utoipa::openapi::OpenApi,
) -> impl Iterator<Item = &mut utoipa::openapi::path::Operation> {
    openapi.paths.paths.values_mut().flat_map(|item| {
        [
            item.get.as_mut(),
            item.post.as_mut(),
            item.put.as_mut(),
            item.patch.as_mut(),
            item.delete.as_mut(),
        ]
        .into_iter()
        .flatten()
    })
}

/// The answers (and the credential) that follow from an operation's shape, added here rather
/// than written again in every annotation. Under `/v1/` an operation takes an API key or the
/// session cookie, so it can answer `401`; a path id can be malformed (`400`) or unknown, or
/// another account's (`404`); a body can be malformed JSON (`400`), too large (`413`) or invalid
/// (`422`); a query parameter can be malformed (`400`). An annotation that documents one of
/// these statuses itself (with its own description) keeps it. `/api/auth/` follows the session
/// API the web client signs in with and documents each answer on its route.
struct StandardAnswers;

impl Modify for StandardAnswers {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::path::ParameterIn;
        use utoipa::openapi::security::SecurityRequirement;
        use utoipa::openapi::{ResponseBuilder, content::ContentBuilder};
        let answer = |schema: &str, description: String| {
            RefOr::T(
                ResponseBuilder::new()
                    .description(description)
                    .content(
                        "application/json",
                        ContentBuilder::new()
                            .schema(Some(RefOr::Ref(utoipa::openapi::Ref::from_schema_name(
                                schema,
                            ))))
                            .build(),
                    )
                    .build(),
            )
        };
        for (path, item) in &mut openapi.paths.paths {
            if path.starts_with("/api/auth/") {
                continue;
            }
            let has_id = path.contains('{');
            // `/ingest/{token}` holds a credential, not an id: an unknown one is `401`.
            let has_resource_id = has_id && !path.starts_with("/ingest/");
            let operations = [
                &mut item.get,
                &mut item.post,
                &mut item.put,
                &mut item.patch,
                &mut item.delete,
            ];
            for operation in operations.into_iter().flatten() {
                if path.starts_with("/v1/") && operation.security.is_none() {
                    operation.security = Some(vec![
                        SecurityRequirement::new("api_key", Vec::<String>::new()),
                        SecurityRequirement::new("session_cookie", Vec::<String>::new()),
                    ]);
                }
                let secured = operation.security.as_ref().is_some_and(|s| !s.is_empty());
                let has_body = operation.request_body.is_some();
                let has_query = operation
                    .parameters
                    .iter()
                    .flatten()
                    .any(|p| matches!(p.parameter_in, ParameterIn::Query));
                let answers = [
                    ("400", has_id || has_body || has_query, "ErrorBody"),
                    ("401", secured, "ErrorBody"),
                    ("404", has_resource_id, "ErrorBody"),
                    ("413", has_body, "ErrorBody"),
                    ("422", has_body, "ValidationErrorBody"),
                ];
                for (status, applies, schema) in answers {
                    if applies {
                        let description = match status {
                            "413" => too_large(path),
                            _ => String::new(),
                        };
                        operation
                            .responses
                            .responses
                            .entry(status.to_owned())
                            .or_insert_with(|| answer(schema, description));
                    }
                }
            }
        }
    }
}

/// The `413` of a body past its route's cap, with the cap: a device's post has its own, every
/// other JSON body [`crate::body::MAX_BODY_BYTES`] (routes with a cap of their own, the chat
/// turn and the import, say theirs in their annotation).
fn too_large(path: &str) -> String {
    let cap = if path.starts_with("/ingest/") {
        wort_domain::device::rules::MAX_PAYLOAD_BYTES
    } else {
        crate::body::MAX_BODY_BYTES
    };
    format!("The body is larger than {}", bytes_text(cap))
}

/// `16 KiB`, `1 MiB`: the caps as people write them.
fn bytes_text(bytes: usize) -> String {
    const KIB: usize = 1024;
    if bytes.is_multiple_of(KIB * KIB) {
        format!("{} MiB", bytes / (KIB * KIB))
    } else if bytes.is_multiple_of(KIB) {
        format!("{} KiB", bytes / KIB)
    } else {
        format!("{bytes} bytes")
    }
}

/// `limit` and `offset` of every paged list, with the bounds the query reader applies: the
/// fermentation readings page with their own (larger) limit.
struct PageBounds;

impl Modify for PageBounds {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        for (path, item) in &mut openapi.paths.paths {
            let max = if path.ends_with("/fermentation-logs") {
                brew_session::MAX_LOG_PAGE
            } else if path.starts_with("/v1/catalog/") {
                wort_domain::catalog::MAX_PAGE_SIZE
            } else {
                wort_domain::page::MAX_PAGE_SIZE
            };
            let Some(get) = item.get.as_mut() else {
                continue;
            };
            for parameter in get.parameters.iter_mut().flatten() {
                let Some(RefOr::T(Schema::Object(schema))) = parameter.schema.as_mut() else {
                    continue;
                };
                match parameter.name.as_str() {
                    "limit" => {
                        schema.minimum = Some(utoipa::Number::Int(1));
                        schema.maximum = Some(json_bound(max as f64));
                    }
                    "offset" => schema.minimum = Some(utoipa::Number::Int(0)),
                    _ => {}
                }
            }
        }
    }
}

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
/// null): said in JSON Schema as `anyOf` next to the fields. Written here by hand because a body
/// table describes each field alone and cannot say "one of these"; the reader enforces it with
/// the domain's `has_measurement`.
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

/// The style id of `GET /v1/styles/{style_id}` as the handler accepts it (1–`STYLE_ID.max` ASCII
/// letters and digits), so that a client, or a fuzzer, knows which ids are well-formed.
struct StyleIdPattern;

impl Modify for StyleIdPattern {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let Some(get) = openapi
            .paths
            .paths
            .get_mut("/v1/styles/{style_id}")
            .and_then(|item| item.get.as_mut())
        else {
            return;
        };
        for parameter in get.parameters.iter_mut().flatten() {
            if let Some(RefOr::T(Schema::Object(schema))) = parameter.schema.as_mut() {
                schema.pattern = Some(format!("^[A-Za-z0-9]{{1,{}}}$", recipe::STYLE_ID.max));
            }
        }
    }
}

/// utoipa 5 serializes a response link's `operation_id`, `operation_ref` and `request_body` under
/// those names instead of OpenAPI's `operationId`, `operationRef` and `requestBody`, so no tool
/// would follow them: the values move to keys spelled as the specification says.
struct LinkFieldNames;

impl Modify for LinkFieldNames {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        for operation in operations_mut(openapi) {
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

struct SecuritySchemes;

/// Operations that need no credential say so with `security: []` (an absent field would read as
/// "unspecified"), as OpenAPI linters ask.
struct PublicOperations;

impl Modify for PublicOperations {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        for operation in operations_mut(openapi) {
            operation.security.get_or_insert_with(Vec::new);
        }
    }
}

/// Statuses every operation can answer, added to each one here rather than in every annotation:
/// an unexpected failure (500), an unreachable database or exhausted pool (503) and a request
/// head past the limits on header fields (431); and for every operation that takes a body, a
/// body not received within the body read deadline (408).
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
        let body_timeout = (
            "408",
            "The request body did not arrive within the body read deadline (30 s by default)",
        );
        // Once, in `components`, and referred to from every operation.
        let head_too_large = "HeadersTooLarge";
        openapi
            .components
            .get_or_insert_with(Default::default)
            .responses
            .insert(
                head_too_large.to_owned(),
                RefOr::T(
                    ResponseBuilder::new()
                        .description(format!(
                            "The request's header fields are more than {} or larger than {} in all",
                            crate::middleware::MAX_HEADER_FIELDS,
                            bytes_text(crate::middleware::MAX_HEADER_BYTES)
                        ))
                        .content("application/json", error_body())
                        .build(),
                ),
            );
        for operation in operations_mut(openapi) {
            let with_body = operation.request_body.is_some().then_some(body_timeout);
            for (status, description) in common.into_iter().chain(with_body) {
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
            operation
                .responses
                .responses
                .entry("431".to_owned())
                .or_insert_with(|| {
                    RefOr::Ref(utoipa::openapi::Ref::from_response_name(head_too_large))
                });
        }
    }
}

/// Conditional reads (`crate::encoding::json_answers`): every `GET` whose `200` is JSON carries a
/// weak `ETag` (a hash of the body as sent uncompressed), and a request whose `If-None-Match`
/// names that tag (or `*`) is answered `304 Not Modified` with the tag and no body. Written here
/// once for every such operation, as the middleware applies it to every one.
struct ConditionalGets;

impl Modify for ConditionalGets {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::ResponseBuilder;
        use utoipa::openapi::header::HeaderBuilder;
        use utoipa::openapi::path::{ParameterBuilder, ParameterIn};
        let etag = || {
            HeaderBuilder::new()
                .schema(ObjectBuilder::new().schema_type(Type::String))
                .description(Some(
                    "A weak tag of this representation (`W/\"…\"`); send it back in \
                     `If-None-Match` to be answered `304` while it has not changed",
                ))
                .build()
        };
        let parameter = ParameterBuilder::new()
            .name("If-None-Match")
            .parameter_in(ParameterIn::Header)
            .required(Required::False)
            .description(Some(
                "ETags from earlier answers to this request (comma-separated), or `*`: when one \
                 matches the current answer's (weak comparison), the answer is `304` with no body",
            ))
            .schema(Some(ObjectBuilder::new().schema_type(Type::String)))
            .build();
        for item in openapi.paths.paths.values_mut() {
            let Some(operation) = item.get.as_mut() else {
                continue;
            };
            let Some(RefOr::T(ok)) = operation.responses.responses.get_mut("200") else {
                continue;
            };
            if !ok.content.contains_key("application/json") {
                continue;
            }
            ok.headers.insert("ETag".to_owned(), etag());
            operation
                .parameters
                .get_or_insert_with(Vec::new)
                .push(parameter.clone());
            operation.responses.responses.insert(
                "304".to_owned(),
                RefOr::T(
                    ResponseBuilder::new()
                        .description(
                            "Not modified: the answer still has an ETag sent in \
                             `If-None-Match`; no body",
                        )
                        .header("ETag", etag())
                        .build(),
                ),
            );
        }
    }
}

/// `Idempotency-Key` on every `POST` and `PATCH` under `/v1` (`crate::idempotency`), with the
/// answers it adds: `409` while the first request with the key runs, `422` for the key sent with
/// a different request.
struct IdempotencyKeys;

impl Modify for IdempotencyKeys {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::path::{ParameterBuilder, ParameterIn};
        use utoipa::openapi::{ResponseBuilder, content::ContentBuilder};
        use wort_domain::idempotency::rules::{KEY_HEADER, MAX_KEY_LENGTH};
        let parameter = ParameterBuilder::new()
            .name(KEY_HEADER)
            .parameter_in(ParameterIn::Header)
            .required(Required::False)
            .description(Some(
                "A key of the client's choosing (a UUID, say) that makes a retry of this write \
                 safe: the first answer to the key is kept 24 h for the account and sent again, \
                 with `Idempotent-Replayed: true`, to a retry of the same request. A malformed key \
                 is `400`. A streamed answer (`text/event-stream`) is not kept: the key guards the \
                 request until its stream starts.",
            ))
            .schema(Some(
                ObjectBuilder::new()
                    .schema_type(Type::String)
                    .min_length(Some(1))
                    .max_length(Some(MAX_KEY_LENGTH))
                    .pattern(Some("^[!-~]+$")),
            ))
            .build();
        let body = |schema: &str| {
            ContentBuilder::new()
                .schema(Some(RefOr::Ref(utoipa::openapi::Ref::from_schema_name(
                    schema,
                ))))
                .build()
        };
        let added = [
            (
                "409",
                "A request with this `Idempotency-Key` is still running (retry after \
                 `Retry-After` seconds), or was applied with an answer too large to keep",
                "ErrorBody",
            ),
            (
                "422",
                "Validation failed, or (`idempotency_key_reused`) the `Idempotency-Key` was used \
                 for a different request",
                "ValidationErrorBody",
            ),
        ];
        for (path, item) in &mut openapi.paths.paths {
            if !path.starts_with("/v1/") {
                continue;
            }
            for operation in [&mut item.post, &mut item.patch].into_iter().flatten() {
                operation
                    .parameters
                    .get_or_insert_with(Vec::new)
                    .push(parameter.clone());
                for (status, description, schema) in added {
                    operation
                        .responses
                        .responses
                        .entry(status.to_owned())
                        .or_insert_with(|| {
                            RefOr::T(
                                ResponseBuilder::new()
                                    .description(description)
                                    .content("application/json", body(schema))
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
        description = "Homebrewing data: recipes and their statistics, equipment profiles and styles, brew sessions, fermentation logs, inventory and an AI assistant."),
    modifiers(&StandardAnswers, &PageBounds, &SecuritySchemes, &CommonResponses, &OptionalBodies, &ReadingNeedsAMeasurement,
        &LinkFieldNames, &StyleIdPattern, &PublicOperations, &IdempotencyKeys,
        &ToolBounds, &ShoppingListBounds, &ConditionalGets),
    servers((url = "/", description = "This wort: every path is relative to the service's origin")),
    paths(
        routes::health::healthz, routes::health::readyz,
        routes::auth::sign_up, routes::auth::sign_in, routes::auth::sign_out, routes::auth::get_session,
        routes::auth::create_key, routes::auth::list_keys, routes::auth::delete_key,
        routes::auth::change_password, routes::auth::update_user,
        routes::me::me, routes::me::get_preferences, routes::me::update_preferences,
        routes::recipes::list_recipes, routes::recipes::create_recipe, routes::recipes::get_recipe,
        routes::recipes::update_recipe, routes::recipes::delete_recipe,
        routes::recipes::copy_recipe, routes::recipes::scale_recipe, routes::recipes::recipe_stats,
        routes::recipes::recipe_checks,
        routes::history::list_versions, routes::history::name_version, routes::history::get_version,
        routes::history::version_diff, routes::history::restore_version,
        routes::history::recipe_lineage, routes::history::compare_recipes,
        routes::history::get_share, routes::history::share_recipe, routes::history::unshare_recipe,
        routes::shared::shared_page, routes::shared::shared_beerjson, routes::shared::shared_beerxml,
        routes::shared::copy_shared,
        routes::equipment::list_equipment, routes::equipment::create_equipment, routes::equipment::get_equipment,
        routes::equipment::update_equipment, routes::equipment::delete_equipment,
        routes::styles::list_styles, routes::styles::get_style,
        routes::interchange::import_recipes, routes::interchange::export_recipe,
        routes::interchange::export_recipes,
        recipe_children::fermentables::create, recipe_children::fermentables::list, recipe_children::fermentables::get,
        recipe_children::fermentables::update, recipe_children::fermentables::delete,
        recipe_children::hops::create, recipe_children::hops::list, recipe_children::hops::get,
        recipe_children::hops::update, recipe_children::hops::delete,
        recipe_children::yeasts::create, recipe_children::yeasts::list, recipe_children::yeasts::get,
        recipe_children::yeasts::update, recipe_children::yeasts::delete,
        recipe_children::miscs::create, recipe_children::miscs::list, recipe_children::miscs::get,
        recipe_children::miscs::update, recipe_children::miscs::delete,
        recipe_children::mash_steps::create, recipe_children::mash_steps::list, recipe_children::mash_steps::get,
        recipe_children::mash_steps::update, recipe_children::mash_steps::delete,
        recipe_children::water_additions::create, recipe_children::water_additions::list,
        recipe_children::water_additions::get, recipe_children::water_additions::update,
        recipe_children::water_additions::delete,
        routes::water::list_profiles, routes::water::create_profile, routes::water::get_profile,
        routes::water::update_profile, routes::water::delete_profile,
        routes::water::recipe_water, routes::water::calibration,
        recipe_children::fermentation_steps::create, recipe_children::fermentation_steps::list,
        recipe_children::fermentation_steps::get, recipe_children::fermentation_steps::update,
        recipe_children::fermentation_steps::delete,
        routes::inventory::list_items, routes::inventory::create_item, routes::inventory::get_item,
        routes::inventory::update_item, routes::inventory::delete_item, routes::inventory::adjust_item,
        routes::stock::deduct, routes::stock::undo_deduction, routes::stock::shopping_list,
        routes::stock::recipe_cost,
        catalog::fermentables::list, catalog::fermentables::create, catalog::fermentables::get,
        catalog::fermentables::update, catalog::fermentables::delete,
        catalog::hops::list, catalog::hops::create, catalog::hops::get,
        catalog::hops::update, catalog::hops::delete,
        catalog::yeasts::list, catalog::yeasts::create, catalog::yeasts::get,
        catalog::yeasts::update, catalog::yeasts::delete,
        catalog::miscs::list, catalog::miscs::create, catalog::miscs::get,
        catalog::miscs::update, catalog::miscs::delete,
        routes::ai::usage, routes::ai::analyse_recipe, routes::ai::chat_turn,
        routes::chats::list_chats, routes::chats::create_chat, routes::chats::get_chat,
        routes::chats::update_chat, routes::chats::delete_chat,
        routes::brew_sessions::list_sessions, routes::brew_sessions::create_session, routes::brew_sessions::get_session,
        routes::brew_sessions::update_session, routes::brew_sessions::delete_session,
        routes::brew_sessions::list_steps, routes::brew_sessions::create_step, routes::brew_sessions::get_step,
        routes::brew_sessions::update_step, routes::brew_sessions::delete_step,
        routes::brew_sessions::step_timer,
        routes::brew_sessions::list_readings, routes::brew_sessions::create_reading, routes::brew_sessions::latest_reading,
        routes::brew_sessions::get_reading, routes::brew_sessions::update_reading, routes::brew_sessions::delete_reading,
        routes::brew_sessions::fermentation_schedule, routes::brew_sessions::forecast,
        routes::brew_sessions::home,
        routes::notes::list_notes, routes::notes::create_note, routes::notes::get_note,
        routes::notes::update_note, routes::notes::delete_note,
        routes::devices::list_devices, routes::devices::create_device, routes::devices::get_device,
        routes::devices::update_device, routes::devices::delete_device, routes::devices::replace_device_token,
        routes::devices::ingest,
        routes::webhooks::list_webhooks, routes::webhooks::create_webhook, routes::webhooks::get_webhook,
        routes::webhooks::update_webhook, routes::webhooks::delete_webhook,
        routes::webhooks::list_webhook_deliveries, routes::webhooks::test_webhook,
        routes::alerts::list_alert_rules, routes::alerts::create_alert_rule,
        routes::alerts::get_alert_rule, routes::alerts::update_alert_rule,
        routes::alerts::delete_alert_rule, routes::alerts::list_alerts,
        routes::alerts::acknowledge_alert,
        routes::mqtt::get_mqtt, routes::mqtt::update_mqtt, routes::mqtt::delete_mqtt,
        routes::tools::priming, routes::tools::keg_pressure, routes::tools::refractometer,
        routes::tools::hydrometer_correction, routes::tools::dilution, routes::tools::pitch_rate,
    ),
    components(schemas(crate::error::ErrorBody, crate::error::ValidationErrorBody,
        crate::error::ValidationIssue, routes::health::Status, crate::sse::ChatStreamEvent,
        routes::recipes::RecipeSortParam, routes::interchange::ExportFormat,
        routes::interchange::FermentableColorParam)),
    tags(
        (name = "health", description = "Probes"),
        (name = "auth", description = "Accounts, sessions and API keys (camelCase)"),
        (name = "account", description = "The caller"),
        (name = "recipes", description = "Recipes"),
        (name = "shared", description = "Recipes shared by link: public pages and files, no credential"),
        (name = "fermentables", description = "Malts, sugars, extracts… of a recipe"),
        (name = "hops", description = "Hop additions of a recipe"),
        (name = "yeasts", description = "Yeasts of a recipe"),
        (name = "miscs", description = "Other ingredients: finings, salts, spices, flavourings"),
        (name = "mash steps", description = "Mash schedule of a recipe"),
        (name = "fermentation steps", description = "Fermentation plan of a recipe: rests by days or until a gravity"),
        (name = "inventory", description = "Ingredients on hand"),
        (name = "catalog", description = "The ingredient catalogue: built-in fermentables, hops, yeasts and miscs, and the account's own"),
        (name = "equipment", description = "Equipment profiles: a brewer's kettle, losses and hop utilisation"),
        (name = "styles", description = "BJCP 2021 styles: names and numeric ranges"),
        (name = "ai", description = "The AI assistant: usage and limits, recipe analysis, streamed chat turns"),
        (name = "chats", description = "Chat threads with the AI assistant"),
        (name = "sessions", description = "Brew sessions and their brew-day checklist"),
        (name = "fermentation logs", description = "Timestamped fermentation readings of a session"),
        (name = "notes", description = "Notes on a session's fermentation chart, each at an instant"),
        (name = "devices", description = "Hydrometers and controllers that post readings with their own token"),
        (name = "webhooks", description = "Endpoints told what happened, signed as Standard Webhooks says"),
        (name = "alerts", description = "The fermentation autopilot: alert rules on fermenting sessions, and the alerts they raise and clear"),
        (name = "integrations", description = "An MQTT broker told of readings and alerts, with Home Assistant's discovery"),
        (name = "tools", description = "Brewer's tools: priming sugar, keg pressure, refractometer, hydrometer correction, dilution, pitch rate"),
        (name = "water additions", description = "Brewing salts, acids and acidulated malt of a recipe, into the mash or sparge water"),
        (name = "water", description = "Water profiles, a recipe's ions and predicted mash pH, and its calibration against measured pH"),
    )
)]
pub struct ApiDoc;

/// The document as served at `/v1/openapi.json`.
pub fn document() -> utoipa::openapi::OpenApi {
    ApiDoc::openapi()
}
