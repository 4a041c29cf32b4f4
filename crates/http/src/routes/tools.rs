//! `/v1/tools/{name}`: the brewer's tools, pure calculators the same for every account (any
//! credential). Each tool is its own operation so a typed client gets its parameters and answer.
//!
//! Parameters come in the query string, metric and SG. A parameter missing, unknown to the tool
//! (a typo such as `volume_litres` would otherwise be silently ignored), not a finite number, or
//! not one of an enum's values is `400`; a well-formed number outside its bound (the domain's
//! `tools::rules`) is `422` naming every such parameter, like a body field.

use actix_web::{HttpRequest, HttpResponse, web};
use utoipa::Modify;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::Schema;
use wort_domain::tools::{
    self, BeerKind, Dilution, DilutionInputs, HydrometerCorrection, HydrometerInputs, KegPressure,
    KegPressureInputs, PitchRate, PitchRateInputs, Priming, PrimingInputs, Refractometer,
    RefractometerInputs, RefractometerMethod, Sugar, rules::TOOL_PARAMETERS,
};

use super::resource;
use crate::credentials::Authenticated;
use crate::error::{ApiError, ApiResult};
use crate::params::Query;

/// Inside the `/v1/tools` scope.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(resource("/priming", "GET").route(web::get().to(priming)))
        .service(resource("/keg-pressure", "GET").route(web::get().to(keg_pressure)))
        .service(resource("/refractometer", "GET").route(web::get().to(refractometer)))
        .service(
            resource("/hydrometer-correction", "GET").route(web::get().to(hydrometer_correction)),
        )
        .service(resource("/dilution", "GET").route(web::get().to(dilution)))
        .service(resource("/pitch-rate", "GET").route(web::get().to(pitch_rate)));
}

/// A tool's query string, holding only the parameters the tool takes.
struct ToolQuery(Query);

impl ToolQuery {
    fn of(req: &HttpRequest, takes: &[&str]) -> ApiResult<Self> {
        let query = Query::of(req)?;
        if let Some(unknown) = query.keys().find(|k| !takes.contains(k)) {
            return Err(ApiError::bad_request(format!(
                "Unknown query parameter {unknown}: this tool takes {}",
                takes.join(", ")
            )));
        }
        Ok(ToolQuery(query))
    }

    fn required<'a>(&'a self, key: &str) -> ApiResult<&'a str> {
        self.0
            .get(key)
            .ok_or_else(|| ApiError::bad_request(format!("Missing query parameter {key}")))
    }

    /// A finite decimal number (`NaN` and `inf` are not numbers here).
    fn number(&self, key: &str) -> ApiResult<f64> {
        self.required(key)?
            .parse::<f64>()
            .ok()
            .filter(|x| x.is_finite())
            .ok_or_else(|| {
                ApiError::bad_request(format!("Invalid query parameter {key}: expected a number"))
            })
    }

    /// A calendar date, `YYYY-MM-DD`.
    fn date(&self, key: &str) -> ApiResult<time::Date> {
        crate::params::parse_date(self.required(key)?).ok_or_else(|| {
            ApiError::bad_request(format!(
                "Invalid query parameter {key}: expected a date (YYYY-MM-DD)"
            ))
        })
    }

    fn choice<T>(
        &self,
        key: &str,
        options: &[&str],
        parse: impl Fn(&str) -> Option<T>,
    ) -> ApiResult<T> {
        self.required(key)?;
        self.0
            .one_of(key, options, parse)?
            .ok_or_else(|| ApiError::bad_request(format!("Missing query parameter {key}")))
    }
}

fn sugars() -> Vec<&'static str> {
    Sugar::ALL.iter().map(|s| s.as_str()).collect()
}

fn kinds() -> Vec<&'static str> {
    BeerKind::ALL.iter().map(|k| k.as_str()).collect()
}

/// Priming sugar for bottle conditioning: the CO₂ the beer still holds at its warmest
/// temperature since fermentation (ASBC / Zahm & Nagel fit), and the grams of sugar that add
/// the rest (4 g of fully fermentable sugar per litre and volume, less for corn sugar, DME and
/// honey by their fermentable share).
#[utoipa::path(get, path = "/v1/tools/priming", tag = "tools", operation_id = "tool_priming",
    params(
        ("volume_liters" = f64, Query, description = "Litres of beer to bottle"),
        ("temperature_c" = f64, Query, description = "The beer's warmest temperature since fermentation ended, °C"),
        ("co2_volumes" = f64, Query, description = "Carbonation wanted, volumes of CO₂"),
        ("sugar" = inline(Sugar), Query, description = "The priming sugar"),
    ),
    responses((status = 200, body = Priming),
        (status = 422, body = crate::error::ValidationErrorBody, description = "A parameter outside its bounds")))]
pub async fn priming(_auth: Authenticated, req: HttpRequest) -> ApiResult<HttpResponse> {
    let q = ToolQuery::of(
        &req,
        &["volume_liters", "temperature_c", "co2_volumes", "sugar"],
    )?;
    let inputs = PrimingInputs {
        volume_liters: q.number("volume_liters")?,
        temperature_c: q.number("temperature_c")?,
        co2_volumes: q.number("co2_volumes")?,
        sugar: q.choice("sugar", &sugars(), Sugar::parse)?,
    };
    Ok(HttpResponse::Ok().json(tools::priming(inputs)?))
}

/// Regulator pressure that carbonates a keg to a level at a temperature (Zahm & Nagel chart
/// fit), in kPa and psi, gauge.
#[utoipa::path(get, path = "/v1/tools/keg-pressure", tag = "tools", operation_id = "tool_keg_pressure",
    params(
        ("temperature_c" = f64, Query, description = "The beer's temperature in the keg, °C"),
        ("co2_volumes" = f64, Query, description = "Carbonation wanted, volumes of CO₂"),
    ),
    responses((status = 200, body = KegPressure),
        (status = 422, body = crate::error::ValidationErrorBody, description = "A parameter outside its bounds")))]
pub async fn keg_pressure(_auth: Authenticated, req: HttpRequest) -> ApiResult<HttpResponse> {
    let q = ToolQuery::of(&req, &["temperature_c", "co2_volumes"])?;
    let inputs = KegPressureInputs {
        temperature_c: q.number("temperature_c")?,
        co2_volumes: q.number("co2_volumes")?,
    };
    Ok(HttpResponse::Ok().json(tools::keg_pressure(inputs)?))
}

/// OG, gravity now and ABV from refractometer readings. Once fermentation has begun the alcohol
/// bends light too: Sean Terrill's cubic (`method=terrill`, the default) or Petr Novotný's
/// quadratic (`method=novotny`) corrects for it.
#[utoipa::path(get, path = "/v1/tools/refractometer", tag = "tools", operation_id = "tool_refractometer",
    params(
        ("original_brix" = f64, Query, description = "The wort's reading before fermentation, °Brix"),
        ("current_brix" = f64, Query, description = "The reading now, °Brix; not above the original (422)"),
        ("wort_correction_factor" = f64, Query, description = "The refractometer's wort correction factor (1.04 is common)"),
        ("method" = Option<RefractometerMethod>, Query, description = "The correction for alcohol: terrill (default) or novotny"),
    ),
    responses((status = 200, body = Refractometer),
        (status = 422, body = crate::error::ValidationErrorBody, description = "A parameter outside its bounds, or a current reading above the original")))]
pub async fn refractometer(_auth: Authenticated, req: HttpRequest) -> ApiResult<HttpResponse> {
    let q = ToolQuery::of(
        &req,
        &[
            "original_brix",
            "current_brix",
            "wort_correction_factor",
            "method",
        ],
    )?;
    let methods: Vec<&str> = RefractometerMethod::ALL
        .iter()
        .map(|m| m.as_str())
        .collect();
    let inputs = RefractometerInputs {
        original_brix: q.number("original_brix")?,
        current_brix: q.number("current_brix")?,
        wort_correction_factor: q.number("wort_correction_factor")?,
        method: q
            .0
            .one_of("method", &methods, RefractometerMethod::parse)?
            .unwrap_or_default(),
    };
    Ok(HttpResponse::Ok().json(tools::refractometer(inputs)?))
}

/// A hydrometer reading taken warmer or colder than the hydrometer's calibration temperature,
/// corrected to it.
#[utoipa::path(get, path = "/v1/tools/hydrometer-correction", tag = "tools", operation_id = "tool_hydrometer_correction",
    params(
        ("gravity" = f64, Query, description = "The reading, SG"),
        ("sample_temperature_c" = f64, Query, description = "The sample's temperature, °C"),
        ("calibration_temperature_c" = f64, Query, description = "The hydrometer's calibration temperature, °C (often 15.56 or 20)"),
    ),
    responses((status = 200, body = HydrometerCorrection),
        (status = 422, body = crate::error::ValidationErrorBody, description = "A parameter outside its bounds")))]
pub async fn hydrometer_correction(
    _auth: Authenticated,
    req: HttpRequest,
) -> ApiResult<HttpResponse> {
    let q = ToolQuery::of(
        &req,
        &[
            "gravity",
            "sample_temperature_c",
            "calibration_temperature_c",
        ],
    )?;
    let inputs = HydrometerInputs {
        gravity: q.number("gravity")?,
        sample_temperature_c: q.number("sample_temperature_c")?,
        calibration_temperature_c: q.number("calibration_temperature_c")?,
    };
    Ok(HttpResponse::Ok().json(tools::hydrometer_correction(inputs)?))
}

/// Water to add to bring a wort down to a gravity (its sugar stays, its volume grows).
#[utoipa::path(get, path = "/v1/tools/dilution", tag = "tools", operation_id = "tool_dilution",
    params(
        ("volume_liters" = f64, Query, description = "Litres of wort now"),
        ("gravity" = f64, Query, description = "Its gravity now, SG"),
        ("target_gravity" = f64, Query, description = "The gravity wanted, SG; below `gravity` (422)"),
    ),
    responses((status = 200, body = Dilution),
        (status = 422, body = crate::error::ValidationErrorBody, description = "A parameter outside its bounds, or a target not below the gravity")))]
pub async fn dilution(_auth: Authenticated, req: HttpRequest) -> ApiResult<HttpResponse> {
    let q = ToolQuery::of(&req, &["volume_liters", "gravity", "target_gravity"])?;
    let inputs = DilutionInputs {
        volume_liters: q.number("volume_liters")?,
        gravity: q.number("gravity")?,
        target_gravity: q.number("target_gravity")?,
    };
    Ok(HttpResponse::Ok().json(tools::dilution(inputs)?))
}

/// Yeast to pitch (Fix / Mr Malty rates: 0.75 million cells per mL per °P for an ale, 1.5 for a
/// lager), the packs that hold it, and the stir-plate starter that grows one pack to it, in
/// steps of at most 4 L. The pack's viability is given (`viability_percent`) or follows from
/// its `production_date` (liquid yeast loses 0.7 % a day, Brewer's Friend's linear model) at
/// `as_of` (today unless given); exactly one of the two, else `400`.
#[utoipa::path(get, path = "/v1/tools/pitch-rate", tag = "tools", operation_id = "tool_pitch_rate",
    params(
        ("volume_liters" = f64, Query, description = "Litres of wort"),
        ("og" = f64, Query, description = "Its original gravity, SG"),
        ("kind" = inline(BeerKind), Query, description = "Ale or lager"),
        ("cells_per_pack_billion" = f64, Query, description = "Cells in a fresh pack, billions (100 for most liquid yeast)"),
        ("viability_percent" = Option<f64>, Query, description = "Share of them alive now, %; or give production_date"),
        ("production_date" = Option<String>, Query, format = Date, description = "When the pack was made (YYYY-MM-DD); or give viability_percent"),
        ("as_of" = Option<String>, Query, format = Date, description = "The pitching day (YYYY-MM-DD), today (UTC) unless given"),
    ),
    responses((status = 200, body = PitchRate),
        (status = 400, body = crate::error::ErrorBody, description = "A parameter missing, malformed or unknown; both or neither of viability_percent and production_date"),
        (status = 422, body = crate::error::ValidationErrorBody, description = "A parameter outside its bounds; a production date after as_of, or so old no cell is alive")))]
pub async fn pitch_rate(_auth: Authenticated, req: HttpRequest) -> ApiResult<HttpResponse> {
    let q = ToolQuery::of(
        &req,
        &[
            "volume_liters",
            "og",
            "kind",
            "cells_per_pack_billion",
            "viability_percent",
            "production_date",
            "as_of",
        ],
    )?;
    let (viability_percent, production_date) =
        match (q.0.get("viability_percent"), q.0.get("production_date")) {
            (Some(_), Some(_)) => {
                return Err(ApiError::bad_request(
                    "Give viability_percent or production_date, not both".to_owned(),
                ));
            }
            (None, None) => {
                return Err(ApiError::bad_request(
                    "Missing query parameter viability_percent (or production_date)".to_owned(),
                ));
            }
            (Some(_), None) => (Some(q.number("viability_percent")?), None),
            (None, Some(_)) => (None, Some(q.date("production_date")?)),
        };
    let as_of = match q.0.get("as_of") {
        Some(_) => q.date("as_of")?,
        None => time::OffsetDateTime::now_utc().date(),
    };
    let inputs = PitchRateInputs {
        volume_liters: q.number("volume_liters")?,
        og: q.number("og")?,
        kind: q.choice("kind", &kinds(), BeerKind::parse)?,
        cells_per_pack_billion: q.number("cells_per_pack_billion")?,
        viability_percent,
        production_date,
        as_of,
    };
    Ok(HttpResponse::Ok().json(tools::pitch_rate(inputs)?))
}

/// The tools' numeric query parameters carry the domain's bounds (`tools::rules`), so a client
/// (or a fuzzer) knows which values are in range.
pub struct ToolBounds;

impl Modify for ToolBounds {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        for (tool, table) in TOOL_PARAMETERS {
            let path = format!("/v1/tools/{tool}");
            let Some(get) = openapi
                .paths
                .paths
                .get_mut(&path)
                .and_then(|item| item.get.as_mut())
            else {
                continue;
            };
            for parameter in get.parameters.iter_mut().flatten() {
                let Some((_, rule)) = table.iter().find(|(name, _)| *name == parameter.name) else {
                    continue;
                };
                if let Some(RefOr::T(Schema::Object(schema))) = parameter.schema.as_mut() {
                    crate::body::spec::apply_rule(schema, rule);
                }
            }
        }
    }
}
