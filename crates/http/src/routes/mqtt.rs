//! `/v1/integrations/mqtt`: the account's MQTT broker (Home Assistant), one per account.

use actix_web::{HttpResponse, web};
use serde_json::Value;
use wort_domain::mqtt::rules;
use wort_domain::mqtt::{MqttIntegration, MqttPatch};

use super::resource;
use crate::body::JsonBody;
use crate::body::spec::{
    BodySpec, FieldSpec, Kind, Missing, Mode, OnCreate, Reader, request_body_schema,
};
use crate::caller::Caller;
use crate::error::ApiResult;
use crate::state::AppState;

/// Inside the `/v1/integrations/mqtt` scope.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(
        resource("", "GET, PATCH, DELETE")
            .route(web::get().to(get_mqtt))
            .route(web::patch().to(update_mqtt))
            .route(web::delete().to(delete_mqtt)),
    );
}

static MQTT: BodySpec = BodySpec {
    rules: rules::MQTT_FIELDS,
    missing: Missing::Last,
    fields: &[
        FieldSpec::new("url", Kind::Text, OnCreate::Optional).described(
            "`mqtt://host[:port]` or `mqtts://host[:port]`; required when the integration is \
             created. A public or private LAN address; loopback and link-local addresses are \
             refused.",
        ),
        FieldSpec::clearable("username", Kind::Text),
        FieldSpec::clearable("password", Kind::Text)
            .described("Write-only: never shown, `has_password` says whether one is set."),
        FieldSpec::new("topic_prefix", Kind::Text, OnCreate::Optional)
            .described("Default `wort`; no `+`, `#`, or leading or trailing `/`."),
        FieldSpec::new("discovery_prefix", Kind::Text, OnCreate::Optional)
            .described("Home Assistant's discovery prefix; default `homeassistant`."),
        FieldSpec::new("enabled", Kind::Boolean, OnCreate::Optional)
            .described("Default `true` when created."),
    ],
};

request_body_schema!(
    /// `PATCH /v1/integrations/mqtt`.
    UpdateMqttRequest,
    MQTT,
    Mode::Update,
    "Request body of `PATCH /v1/integrations/mqtt`: creates the integration (`url` required) or \
     changes only the fields sent.",
    field_descriptions = true
);

fn read_patch(body: &Value) -> ApiResult<MqttPatch> {
    let mut f = Reader::new(body, &MQTT, Mode::Update)?;
    let patch = MqttPatch {
        url: f.text("url"),
        username: f.nullable_text("username"),
        password: f.nullable_text("password"),
        topic_prefix: f.text("topic_prefix"),
        discovery_prefix: f.text("discovery_prefix"),
        enabled: f.boolean("enabled"),
    };
    f.finish(patch)
}

/// The account's MQTT integration, with how publishing goes (`last_error`,
/// `last_published_at`, `pending_messages`); `404` when it has none.
#[utoipa::path(get, path = "/v1/integrations/mqtt", tag = "integrations",
    responses((status = 200, body = MqttIntegration),
        (status = 404, body = crate::error::ErrorBody, description = "The account has no MQTT broker set up")))]
pub async fn get_mqtt(Caller(user): Caller, state: web::Data<AppState>) -> ApiResult<HttpResponse> {
    Ok(HttpResponse::Ok().json(state.mqtt.get(user).await?))
}

/// Create or change the MQTT integration. Enabling it publishes the Home Assistant discovery
/// configs of every fermenting session; disabling it drops the messages still waiting.
#[utoipa::path(patch, path = "/v1/integrations/mqtt", tag = "integrations",
    request_body = UpdateMqttRequest,
    responses((status = 200, body = MqttIntegration)))]
pub async fn update_mqtt(
    Caller(user): Caller,
    state: web::Data<AppState>,
    body: JsonBody,
) -> ApiResult<HttpResponse> {
    let patch = read_patch(&body.json()?)?;
    Ok(HttpResponse::Ok().json(state.mqtt.update(user, patch).await?))
}

/// Delete the MQTT integration with the messages still waiting for its broker.
#[utoipa::path(delete, path = "/v1/integrations/mqtt", tag = "integrations",
    responses((status = 204, description = "Deleted"),
        (status = 404, body = crate::error::ErrorBody, description = "The account has no MQTT broker set up")))]
pub async fn delete_mqtt(
    Caller(user): Caller,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    state.mqtt.delete(user).await?;
    Ok(HttpResponse::NoContent().finish())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::body::spec::assert_whole;

    #[test]
    fn every_field_of_the_table_is_read() {
        assert_whole(&MQTT, |body| read_patch(body).map(|_| ()));
    }
}
