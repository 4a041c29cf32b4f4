//! `/v1/equipment`: a brewer's equipment profiles.

use actix_web::{HttpRequest, HttpResponse, web};
use serde_json::Value;
use wort_domain::equipment::rules::{
    self, DEFAULT_GRAIN_ABSORPTION_LITERS_PER_KG, DEFAULT_HOP_UTILIZATION_PERCENT,
};
use wort_domain::equipment::{Equipment, EquipmentPatch, EquipmentProfile, MashMethod};

use super::{created, page_response, resource};
use crate::body::JsonBody;
use crate::body::spec::{
    BodySpec, Choice, DefaultValue, FieldSpec, Kind, Missing, Mode, OnCreate, Reader,
    request_body_schema,
};
use crate::caller::{Caller, CallerAndId};
use crate::error::ApiResult;
use crate::params::{DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, Query};
use crate::state::AppState;

/// Inside the `/v1/equipment` scope.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(
        resource("", "GET, POST")
            .route(web::get().to(list_equipment))
            .route(web::post().to(create_equipment)),
    )
    .service(
        resource("/{id}", "GET, PATCH, DELETE")
            .route(web::get().to(get_equipment))
            .route(web::patch().to(update_equipment))
            .route(web::delete().to(delete_equipment)),
    );
}

/// A volume, loss or rate that a create sets to 0 unless given.
const fn zero_unless_given(name: &'static str, description: Option<&'static str>) -> FieldSpec {
    FieldSpec {
        name,
        kind: Kind::Number,
        on_create: OnCreate::Default(DefaultValue::Number(0.0)),
        nullable: false,
        description,
    }
}

/// A profile's fields; volumes in litres.
static EQUIPMENT: BodySpec = BodySpec {
    rules: rules::EQUIPMENT_FIELDS,
    missing: Missing::Last,
    fields: &[
        FieldSpec {
            name: "name",
            kind: Kind::Text,
            on_create: OnCreate::Required,
            nullable: false,
            description: None,
        },
        FieldSpec {
            name: "batch_size_liters",
            kind: Kind::Number,
            on_create: OnCreate::Required,
            nullable: false,
            description: Some("The kit's usual volume into the fermenter."),
        },
        zero_unless_given("boil_off_liters_per_hour", None),
        zero_unless_given(
            "trub_chiller_loss_liters",
            Some(
                "Wort left with the hops and trub in the kettle and in the chiller; at most the batch.",
            ),
        ),
        zero_unless_given("mash_tun_deadspace_liters", None),
        FieldSpec {
            name: "grain_absorption_liters_per_kg",
            kind: Kind::Number,
            on_create: OnCreate::Default(DefaultValue::Decimal(
                DEFAULT_GRAIN_ABSORPTION_LITERS_PER_KG,
            )),
            nullable: false,
            description: None,
        },
        zero_unless_given(
            "top_up_water_liters",
            Some("Water added in the fermenter after the boil; at most the batch."),
        ),
        zero_unless_given(
            "fermenter_loss_liters",
            Some("Beer left on the yeast cake; at most the batch."),
        ),
        FieldSpec {
            name: "hop_utilization_percent",
            kind: Kind::Number,
            on_create: OnCreate::Default(DefaultValue::Number(DEFAULT_HOP_UTILIZATION_PERCENT)),
            nullable: false,
            description: Some("Multiplies Tinseth's utilisation (100 = the curve as published)."),
        },
        FieldSpec {
            name: "mash_method",
            kind: Kind::Choice(Choice::inline::<MashMethod>(|| {
                MashMethod::ALL.iter().map(MashMethod::as_str).collect()
            })),
            on_create: OnCreate::Default(DefaultValue::Variant(|| MashMethod::default().as_str())),
            nullable: false,
            description: Some(
                "`sparge`: strike water, then sparge water. `full_volume` (all-in-one systems, brew \
                 in a bag): all the water goes into the mash, no sparge; the strike temperature \
                 follows the thinner mash.",
            ),
        },
        FieldSpec {
            name: "mash_tun_volume_liters",
            kind: Kind::Number,
            on_create: OnCreate::Optional,
            nullable: true,
            description: Some(
                "What the mash tun holds, water and grain together; null: not said. A recipe's \
                 check `mash_exceeds_capacity` compares it with the strike water plus 0.67 L per \
                 kg of grain.",
            ),
        },
        FieldSpec {
            name: "notes",
            kind: Kind::Text,
            on_create: OnCreate::Optional,
            nullable: true,
            description: None,
        },
    ],
};

request_body_schema!(
    /// `POST /v1/equipment`.
    CreateEquipmentRequest,
    EQUIPMENT,
    Mode::Create,
    "Request body of `POST /v1/equipment`.\n\
     Volumes in litres; the recipe's own batch size is what goes into the fermenter, the profile\n\
     adds its losses around it.",
    field_descriptions = true
);

request_body_schema!(
    /// `PATCH /v1/equipment/{id}`.
    UpdateEquipmentRequest,
    EQUIPMENT,
    Mode::Update,
    "Request body of `PATCH /v1/equipment/{id}`: only the fields sent change; the result is\n\
     checked whole (a batch lowered below a loss is refused).",
    field_descriptions = false
);

/// The fields sent: every one on create (defaults filled in), only those sent on update.
fn read_patch(f: &mut Reader) -> EquipmentPatch {
    EquipmentPatch {
        name: f.text("name"),
        batch_size_liters: f.number("batch_size_liters"),
        boil_off_liters_per_hour: f.number("boil_off_liters_per_hour"),
        trub_chiller_loss_liters: f.number("trub_chiller_loss_liters"),
        mash_tun_deadspace_liters: f.number("mash_tun_deadspace_liters"),
        grain_absorption_liters_per_kg: f.number("grain_absorption_liters_per_kg"),
        top_up_water_liters: f.number("top_up_water_liters"),
        fermenter_loss_liters: f.number("fermenter_loss_liters"),
        hop_utilization_percent: f.number("hop_utilization_percent"),
        mash_method: f.enumeration("mash_method", MashMethod::parse),
        mash_tun_volume_liters: f.nullable_number("mash_tun_volume_liters"),
        notes: f.nullable_text("notes"),
    }
}

fn read_new_profile(body: &Value) -> ApiResult<EquipmentProfile> {
    let mut f = Reader::new(body, &EQUIPMENT, Mode::Create)?;
    let p = read_patch(&mut f);
    // Each `None` left is a required field not sent, which `finish` reports.
    let profile = EquipmentProfile {
        name: p.name.unwrap_or_default(),
        batch_size_liters: p.batch_size_liters.unwrap_or_default(),
        boil_off_liters_per_hour: p.boil_off_liters_per_hour.unwrap_or_default(),
        trub_chiller_loss_liters: p.trub_chiller_loss_liters.unwrap_or_default(),
        mash_tun_deadspace_liters: p.mash_tun_deadspace_liters.unwrap_or_default(),
        grain_absorption_liters_per_kg: p.grain_absorption_liters_per_kg.unwrap_or_default(),
        top_up_water_liters: p.top_up_water_liters.unwrap_or_default(),
        fermenter_loss_liters: p.fermenter_loss_liters.unwrap_or_default(),
        hop_utilization_percent: p.hop_utilization_percent.unwrap_or_default(),
        mash_method: p.mash_method.unwrap_or_default(),
        mash_tun_volume_liters: p.mash_tun_volume_liters.flatten(),
        notes: p.notes.flatten(),
    };
    f.finish(profile)
}

/// The account's equipment profiles by name.
#[utoipa::path(get, path = "/v1/equipment", tag = "equipment",
    params(
        ("limit" = Option<i64>, Query, description = "Page size (default 50)"),
        ("offset" = Option<i64>, Query, description = "Items to skip (default 0)"),
    ),
    responses((status = 200, body = [Equipment], headers(("X-Total-Count" = i64), ("Link" = String)))))]
pub async fn list_equipment(
    Caller(user): Caller,
    req: HttpRequest,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let query = Query::of(&req)?;
    let page = query.page(DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE)?;
    let profiles = state.equipment.list(user, page).await?;
    Ok(page_response(&req, &query, page, &profiles))
}

/// Create a profile (`name` and `batch_size_liters` required). A physically impossible one
/// (negative losses, utilisation outside 0–200 %, a loss larger than the batch) is a `422`
/// naming every such field.
#[utoipa::path(post, path = "/v1/equipment", tag = "equipment",
    request_body = CreateEquipmentRequest,
    responses((status = 201, body = Equipment)))]
pub async fn create_equipment(
    Caller(user): Caller,
    state: web::Data<AppState>,
    body: JsonBody,
) -> ApiResult<HttpResponse> {
    let profile = read_new_profile(&body.json()?)?;
    let saved = state.equipment.create(user, profile).await?;
    Ok(created(&saved))
}

/// One equipment profile.
#[utoipa::path(get, path = "/v1/equipment/{id}", tag = "equipment",
    params(("id" = uuid::Uuid, Path, description = "Equipment profile id")),
    responses((status = 200, body = Equipment)))]
pub async fn get_equipment(
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    Ok(HttpResponse::Ok().json(state.equipment.get(user, id).await?))
}

/// Change some fields of a profile; `{}` changes nothing. Recipes that use it see the change in
/// their next `/stats`.
#[utoipa::path(patch, path = "/v1/equipment/{id}", tag = "equipment",
    params(("id" = uuid::Uuid, Path, description = "Equipment profile id")), request_body = UpdateEquipmentRequest,
    responses((status = 200, body = Equipment)))]
pub async fn update_equipment(
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
    body: JsonBody,
) -> ApiResult<HttpResponse> {
    let body = body.json()?;
    let mut f = Reader::new(&body, &EQUIPMENT, Mode::Update)?;
    let patch = read_patch(&mut f);
    let patch = f.finish(patch)?;
    Ok(HttpResponse::Ok().json(state.equipment.update(user, id, patch).await?))
}

/// Delete a profile; refused (`422`) while a recipe uses it.
#[utoipa::path(delete, path = "/v1/equipment/{id}", tag = "equipment",
    params(("id" = uuid::Uuid, Path, description = "Equipment profile id")),
    responses((status = 204, description = "Deleted"),
        (status = 422, body = crate::error::ValidationErrorBody, description = "A recipe still uses the profile")))]
pub async fn delete_equipment(
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    state.equipment.delete(user, id).await?;
    Ok(HttpResponse::NoContent().finish())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_field_of_the_table_is_read() {
        crate::body::spec::assert_whole(&EQUIPMENT, |body| read_new_profile(body).map(|_| ()));
        crate::body::spec::assert_whole(&EQUIPMENT, |body| {
            let mut f = Reader::new(body, &EQUIPMENT, Mode::Update)?;
            let patch = read_patch(&mut f);
            f.finish(patch).map(|_| ())
        });
    }
}
