//! `/v1/recipes/import` and `/v1/recipes/…/export`: BeerXML 1.0 and BeerJSON 1.0 files
//! (docs/interchange.md). The file format is `wort-interchange`'s; this module only reads the
//! request and writes the response.

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, HttpResponseBuilder, web};
use serde::Serialize;
use utoipa::ToSchema;
use wort_domain::recipe::RecipeForExport;
use wort_domain::recipe::checks::CheckedRecipe;
use wort_interchange::{FermentableColor, Format, ImportError, ImportOptions, Warning};

use super::{created, paged_ok, resource};
use crate::body::RawBody;
use crate::caller::{Caller, CallerAndId};
use crate::error::{ApiError, ApiResult};
use crate::params::{DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, Query};
use crate::state::AppState;

/// Inside the `/v1/recipes` scope, before `/{id}`.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(resource("/export", "GET").route(web::get().to(export_recipes)))
        .service(resource("/import", "POST").route(web::post().to(import_recipes)))
        .service(resource("/{id}/export", "GET").route(web::get().to(export_recipe)));
}

/// `201` body of `POST /v1/recipes/import`.
#[derive(Serialize, ToSchema)]
pub struct ImportResponse {
    /// Every recipe of the file, as `GET /v1/recipes/{id}` returns it, in file order, each with
    /// its `checks` as `GET /v1/recipes/{id}/checks` gives them.
    recipes: Vec<CheckedRecipe>,
    /// At most 100, in file order. When the file gave more, the 100th says how many more were not
    /// shown (`"<n> more warnings not shown"`, with `recipe` `""` and `path` `[]`).
    #[schema(max_items = 100)]
    warnings: Vec<ImportWarning>,
}

/// Something read from the file but not kept as it was.
#[derive(Serialize, ToSchema)]
pub struct ImportWarning {
    /// The recipe's name as read from the file, cut to 200 characters as the created recipe's
    /// name is; `""` for a warning about the whole file.
    recipe: String,
    /// Where in the file (array indices as decimal strings).
    path: Vec<String>,
    /// At most 500 characters; text quoted from the file is cut to 80 (with an ellipsis).
    #[schema(max_length = 500)]
    message: String,
}

impl From<Warning> for ImportWarning {
    fn from(w: Warning) -> Self {
        ImportWarning {
            recipe: w.recipe,
            path: w.path,
            message: w.message,
        }
    }
}

fn import_error(e: ImportError) -> ApiError {
    match e {
        ImportError::TooLarge { .. } => ApiError::PayloadTooLarge,
        ImportError::Unparseable(message) => ApiError::bad_request(message),
        ImportError::Invalid(violations) => ApiError::Validation(violations),
    }
}

/// How BeerXML fermentable colours are read (`fermentable_color` in the query).
#[derive(Debug, Clone, Copy, ToSchema)]
#[serde(rename_all = "lowercase")]
#[allow(dead_code)] // Named in the OpenAPI document only; the values are read by `FermentableColor`.
pub enum FermentableColorParam {
    Auto,
    Srm,
    Ebc,
}

/// Import every recipe of a BeerXML or BeerJSON file.
///
/// Each recipe is created with all its ingredients, mash steps and water additions, and the
/// file's equipment profiles with them (an identical profile of the account is reused; a
/// BeerXML recipe's own `EQUIPMENT` becomes its profile, a BeerJSON file's only when it holds one
/// recipe and one profile), in one transaction: all or nothing.
#[utoipa::path(post, path = "/v1/recipes/import", tag = "recipes",
    params(("fermentable_color" = Option<FermentableColorParam>, Query,
        description = "BeerXML only: how fermentable `COLOR` is read. `auto` (default): SRM, unless the file's own `EST_COLOR` agrees with the colours read as EBC and not as SRM (within 25 % or 2 SRM); then they are converted (SRM = EBC × 0.508) and a warning says so. `srm` and `ebc` force a reading. Another value is `400`.")),
    request_body(description = "A BeerXML 1.0 file (`application/xml` or `text/xml`) or a BeerJSON 1.0 file (`application/json`), up to 5 MiB and 100 recipes",
        content((String = "application/xml"), (String = "text/xml"), (serde_json::Value = "application/json"))),
    responses((status = 201, body = ImportResponse),
        (status = 400, description = "Another content type, or not parseable as the declared one", body = crate::error::ErrorBody),
        (status = 413, description = "Larger than 5 MiB", body = crate::error::ErrorBody),
        (status = 503, description = "Too many files being read at once (no free slot within 5 s), or the database unavailable; retry after `Retry-After` seconds",
            body = crate::error::ErrorBody, headers(("Retry-After" = u64))),
        (status = 422, description = "Not a usable recipe file; each path points into the file", body = crate::error::ValidationErrorBody)))]
pub async fn import_recipes(
    Caller(user): Caller,
    req: HttpRequest,
    state: web::Data<AppState>,
    payload: web::Payload,
) -> ApiResult<HttpResponse> {
    // The query before the body, as every route reads them.
    let options = ImportOptions {
        fermentable_color: Query::of(&req)?
            .one_of(
                "fermentable_color",
                FermentableColor::NAMES,
                FermentableColor::parse,
            )?
            .unwrap_or_default(),
    };
    let max_bytes = wort_interchange::limits::MAX_FILE_BYTES;
    let bytes = RawBody::read(&req, payload.into_inner(), max_bytes)
        .await
        .bytes()?;
    let format = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(Format::from_content_type)
        .ok_or_else(|| {
            ApiError::bad_request(
                "Content-Type must be application/xml, text/xml (BeerXML) or application/json (BeerJSON)",
            )
        })?;
    // Reading the file is CPU work: the service runs it off the async workers, a few at a time.
    let read = move || -> ApiResult<_> {
        let file = wort_interchange::import_with(&bytes, format, options).map_err(import_error)?;
        Ok(file.into_new_import())
    };
    let (recipes, warnings) = state.recipes.import(user, read).await?;
    Ok(created(&ImportResponse {
        recipes,
        warnings: warnings.into_iter().map(Into::into).collect(),
    }))
}

/// The document format of an export (`format` in the query).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ExportFormat {
    #[default]
    BeerJson,
    BeerXml,
}

impl ExportFormat {
    const NAMES: &[&str] = &["beerjson", "beerxml"];

    fn parse(s: &str) -> Option<Self> {
        match s {
            "beerjson" => Some(Self::BeerJson),
            "beerxml" => Some(Self::BeerXml),
            _ => None,
        }
    }

    fn of(query: &Query) -> ApiResult<Self> {
        Ok(query
            .one_of("format", Self::NAMES, Self::parse)?
            .unwrap_or_default())
    }

    fn extension(self) -> &'static str {
        match self {
            Self::BeerJson => "json",
            Self::BeerXml => "xml",
        }
    }
}

/// The longest file name stem offered for download.
const FILE_STEM_MAX_CHARS: usize = 100;

/// A file name stem safe in a `Content-Disposition` header and on any file system: ASCII
/// letters, digits, space, `-`, `_` and `.` are kept, anything else becomes `_`; surrounding
/// spaces and dots go (no hidden or extension-less names); never empty.
pub fn safe_file_stem(name: &str) -> String {
    let mapped: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, ' ' | '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    let trimmed = mapped.trim_matches(|c| c == ' ' || c == '.');
    let short: String = trimmed.chars().take(FILE_STEM_MAX_CHARS).collect();
    let short = short.trim_end_matches([' ', '.']);
    if short.is_empty() {
        "recipe".to_owned()
    } else {
        short.to_owned()
    }
}

/// The document of these recipes, offered as a download named `<stem>.json|.xml`. Writing a page
/// of 200 recipes takes tens of milliseconds of CPU, so it runs off the async worker (as parsing
/// an imported file does). Both formats are written straight to bytes, never as a whole tree.
async fn document(
    mut response: HttpResponseBuilder,
    format: ExportFormat,
    recipes: Vec<RecipeForExport>,
    stem: &str,
) -> ApiResult<HttpResponse> {
    let (content_type, body) = web::block(move || match format {
        ExportFormat::BeerJson => {
            wort_interchange::export_beerjson_bytes(&recipes).map(|body| ("application/json", body))
        }
        ExportFormat::BeerXml => Ok((
            "application/xml; charset=utf-8",
            wort_interchange::export_beerxml(&recipes).into_bytes(),
        )),
    })
    .await?
    .map_err(|e| {
        tracing::error!(detail = %e, "writing an export failed");
        ApiError::Internal
    })?;
    response.insert_header((
        header::CONTENT_DISPOSITION,
        format!("attachment; filename=\"{stem}.{}\"", format.extension()),
    ));
    Ok(response.content_type(content_type).body(body))
}

/// Export one recipe as a BeerJSON or BeerXML file.
#[utoipa::path(get, path = "/v1/recipes/{id}/export", tag = "recipes",
    params(("id" = uuid::Uuid, Path, description = "Recipe id"),
        ("format" = Option<ExportFormat>, Query, description = "Document format (default beerjson)")),
    responses((status = 200, description = "A BeerJSON 1.0 or BeerXML 1.0 document",
            content((serde_json::Value = "application/json"), (String = "application/xml")),
            headers(("Content-Disposition" = String, description = "attachment; filename=\"<recipe name>.json|.xml\""))),
        (status = 503, description = "Too many exports, shopping lists and costs being made at once (no free slot within the database deadline), or the database unavailable; retry after `Retry-After` seconds",
            body = crate::error::ErrorBody, headers(("Retry-After" = u64)))))]
pub async fn export_recipe(
    CallerAndId { user, id }: CallerAndId,
    req: HttpRequest,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let format = ExportFormat::of(&Query::of(&req)?)?;
    state.heavy.admit(&req).await?;
    let recipe = state.recipes.export_one(user, id).await?;
    let stem = safe_file_stem(&recipe.detail.recipe.name);
    document(HttpResponse::Ok(), format, vec![recipe], &stem).await
}

/// Export every recipe of the account as one BeerJSON or BeerXML file.
///
/// Paged like the list of recipes, oldest first. Exports, shopping lists and costs are made a few
/// at a time (one per core): one that finds them all busy for the database deadline is answered
/// `503` with `Retry-After`.
#[utoipa::path(get, path = "/v1/recipes/export", tag = "recipes",
    params(("format" = Option<ExportFormat>, Query, description = "Document format (default beerjson)"),
        ("limit" = Option<i64>, Query, description = "Recipes per document (default 50)"),
        ("offset" = Option<i64>, Query, description = "Recipes to skip (default 0)")),
    responses((status = 200, description = "A BeerJSON 1.0 or BeerXML 1.0 document",
            content((serde_json::Value = "application/json"), (String = "application/xml")),
            headers(("Content-Disposition" = String, description = "attachment; filename=\"wort-recipes.json|.xml\""),
                ("X-Total-Count" = i64), ("Link" = String))),
        (status = 503, description = "Too many exports, shopping lists and costs being made at once (no free slot within the database deadline), or the database unavailable; retry after `Retry-After` seconds",
            body = crate::error::ErrorBody, headers(("Retry-After" = u64)))))]
pub async fn export_recipes(
    Caller(user): Caller,
    req: HttpRequest,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let query = Query::of(&req)?;
    let format = ExportFormat::of(&query)?;
    let page = query.page(DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE)?;
    state.heavy.admit(&req).await?;
    let recipes = state.recipes.export_page(user, page).await?;
    let response = paged_ok(&req, &query, page, recipes.total);
    document(response, format, recipes.items, "wort-recipes").await
}

#[cfg(test)]
mod tests {
    use super::safe_file_stem;

    #[test]
    fn file_stems_are_safe() {
        assert_eq!(safe_file_stem("Punk IPA v2.1"), "Punk IPA v2.1");
        assert_eq!(safe_file_stem("../etc/passwd"), "_etc_passwd");
        assert_eq!(safe_file_stem("Ölbier \"x\"\r\n"), "_lbier _x___");
        assert_eq!(safe_file_stem("  . "), "recipe");
        assert_eq!(safe_file_stem(""), "recipe");
        assert_eq!(safe_file_stem(&"a".repeat(300)).len(), 100);
        assert_eq!(
            safe_file_stem(&format!("{} b", "a".repeat(99))),
            "a".repeat(99)
        );
    }
}
