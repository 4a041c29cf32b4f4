//! A recipe shared by link: `GET /shared/{token}` (a read-only HTML page that needs no
//! JavaScript: link previews, printing and screen readers get the whole recipe),
//! `/shared/{token}/recipe.json` (BeerJSON) and `/recipe.xml` (BeerXML), all without a
//! credential; and `POST /v1/shared/{token}/copy` ("Copy to my recipes", signed in).
//!
//! Every public answer says `Cache-Control: no-store` (a revoked link is never outlived by a
//! cache), `X-Robots-Tag: noindex` and `Referrer-Policy: no-referrer` (the token never leaks to
//! the sites a reader follows), and one client address gets at most
//! [`PER_MINUTE`] of them a minute (`429` after).

use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::{LazyLock, Mutex};
use std::time::{Duration, Instant};

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, HttpResponseBuilder, web};
use wort_domain::account::{AmountUnits, Preferences};
use wort_domain::quantities::{Quantity, QuantityKind};
use wort_domain::recipe::{RecipeDetail, SharedRecipe};

use super::{created, resource};
use crate::caching;
use crate::caller::Caller;
use crate::error::{ApiError, ApiResult};
use crate::state::AppState;

/// Public answers a client address gets a minute.
pub const PER_MINUTE: u32 = 60;

pub fn configure_public(cfg: &mut web::ServiceConfig) {
    cfg.service(resource("/shared/{token}", "GET").route(web::get().to(shared_page)))
        .service(
            resource("/shared/{token}/recipe.json", "GET").route(web::get().to(shared_beerjson)),
        )
        .service(resource("/shared/{token}/recipe.xml", "GET").route(web::get().to(shared_beerxml)))
        .service(resource("/v1/shared/{token}/copy", "POST").route(web::post().to(copy_shared)));
}

/// Counts per client address in fixed one-minute windows, per process. The table is swept of
/// windows past their minute whenever it grows past [`SWEEP_AT`] addresses, so a flood of
/// addresses cannot grow it without bound.
struct Window {
    started: Instant,
    count: u32,
}

const SWEEP_AT: usize = 10_000;

static WINDOWS: LazyLock<Mutex<HashMap<String, Window>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));

/// `Err(seconds to wait)` once the address has had [`PER_MINUTE`] answers this minute.
fn admit(address: &str, now: Instant) -> Result<(), u64> {
    let minute = Duration::from_secs(60);
    let Ok(mut windows) = WINDOWS.lock() else {
        return Ok(());
    };
    if windows.len() >= SWEEP_AT {
        windows.retain(|_, w| now.duration_since(w.started) < minute);
    }
    let window = windows.entry(address.to_owned()).or_insert(Window {
        started: now,
        count: 0,
    });
    if now.duration_since(window.started) >= minute {
        *window = Window {
            started: now,
            count: 0,
        };
    }
    if window.count >= PER_MINUTE {
        let left = minute.saturating_sub(now.duration_since(window.started));
        return Err(left.as_secs().max(1));
    }
    window.count += 1;
    Ok(())
}

/// The shared recipe, after the rate limit; `404` for an unknown or revoked token.
async fn shared(req: &HttpRequest, state: &AppState) -> ApiResult<SharedRecipe> {
    admit(&state.client_address.of_request(req), Instant::now()).map_err(|retry_after_secs| {
        ApiError::TooManyRequests {
            message: "Too many requests for shared recipes; try again in a minute".to_owned(),
            retry_after_secs,
        }
    })?;
    let token = req.match_info().get("token").unwrap_or_default();
    Ok(state.recipes.shared(token).await?)
}

/// A read-only page of a shared recipe: its figures, ingredients, mash and fermentation, in
/// metric with US units beside; Open Graph title and description for link previews.
#[utoipa::path(get, path = "/shared/{token}", tag = "shared",
    params(("token" = String, Path, description = "The share token")),
    responses((status = 200, description = "The recipe page (HTML)", content_type = "text/html"),
        (status = 404, body = crate::error::ErrorBody, description = "Unknown or revoked token"),
        (status = 429, body = crate::error::ErrorBody, description = "More than 60 requests a minute from this address", headers(("Retry-After" = u64)))))]
pub async fn shared_page(req: HttpRequest, state: web::Data<AppState>) -> ApiResult<HttpResponse> {
    let recipe = shared(&req, &state).await?;
    let mut response = HttpResponse::Ok();
    response.insert_header((
        header::CONTENT_SECURITY_POLICY,
        "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    ));
    let token = req.match_info().get("token").unwrap_or_default();
    Ok(caching::secret(
        response
            .content_type("text/html; charset=utf-8")
            .body(page(&recipe, token)),
    ))
}

/// The shared recipe as a BeerJSON 1.0 file (author "wort").
#[utoipa::path(get, path = "/shared/{token}/recipe.json", tag = "shared",
    params(("token" = String, Path, description = "The share token")),
    responses((status = 200, description = "A BeerJSON 1.0 document", content((serde_json::Value = "application/json"))),
        (status = 404, body = crate::error::ErrorBody, description = "Unknown or revoked token"),
        (status = 429, body = crate::error::ErrorBody, description = "More than 60 requests a minute from this address", headers(("Retry-After" = u64)))))]
pub async fn shared_beerjson(
    req: HttpRequest,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    download(&req, &state, true).await
}

/// The shared recipe as a BeerXML 1.0 file (brewer "wort").
#[utoipa::path(get, path = "/shared/{token}/recipe.xml", tag = "shared",
    params(("token" = String, Path, description = "The share token")),
    responses((status = 200, description = "A BeerXML 1.0 document", content((String = "application/xml"))),
        (status = 404, body = crate::error::ErrorBody, description = "Unknown or revoked token"),
        (status = 429, body = crate::error::ErrorBody, description = "More than 60 requests a minute from this address", headers(("Retry-After" = u64)))))]
pub async fn shared_beerxml(
    req: HttpRequest,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    download(&req, &state, false).await
}

async fn download(req: &HttpRequest, state: &AppState, json: bool) -> ApiResult<HttpResponse> {
    let recipe = shared(req, state).await?;
    let stem = super::interchange::safe_file_stem(&recipe.export.detail.recipe.name);
    let exports = vec![recipe.export];
    let (content_type, extension, body) = web::block(move || {
        if json {
            wort_interchange::export_beerjson_bytes(&exports)
                .map(|b| ("application/json", "json", b))
        } else {
            Ok((
                "application/xml; charset=utf-8",
                "xml",
                wort_interchange::export_beerxml(&exports).into_bytes(),
            ))
        }
    })
    .await?
    .map_err(|e| {
        tracing::error!(detail = %e, "writing a shared recipe's file failed");
        ApiError::Internal
    })?;
    let mut response: HttpResponseBuilder = HttpResponse::Ok();
    response.insert_header((
        header::CONTENT_DISPOSITION,
        format!("attachment; filename=\"{stem}.{extension}\""),
    ));
    Ok(caching::secret(
        response.content_type(content_type).body(body),
    ))
}

/// "Copy to my recipes": the shared recipe becomes the caller's (its `source_url` the link, no
/// parent: lineage never crosses accounts).
#[utoipa::path(post, path = "/v1/shared/{token}/copy", tag = "recipes",
    params(("token" = String, Path, description = "The share token")),
    responses((status = 201, body = RecipeDetail),
        (status = 404, body = crate::error::ErrorBody, description = "Unknown or revoked token")))]
pub async fn copy_shared(
    Caller(user): Caller,
    req: HttpRequest,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let token = req.match_info().get("token").unwrap_or_default();
    let source_url = format!("{}/shared/{token}", state.origins.public);
    let copy = state.recipes.copy_shared(user, token, source_url).await?;
    Ok(created(&copy))
}

// ---- The page --------------------------------------------------------------------------------

/// `&`, `<`, `>`, `"` and `'` escaped: text and attribute values alike.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

fn us() -> Preferences {
    Preferences {
        amounts: AmountUnits::Us,
        ..Preferences::default()
    }
}

/// "20 L (5.28 gal)": metric, then US.
fn both(kind: QuantityKind, value: f64) -> String {
    let q = Quantity::new(kind, value);
    let metric = q.display(&Preferences::default());
    let us = q.display(&us());
    if metric == us {
        metric
    } else {
        format!("{metric} ({us})")
    }
}

/// A dry hop's time in days (it is kept in minutes), every other hop's in minutes.
fn hop_time(h: &wort_domain::recipe_children::Hop) -> String {
    if h.hop_use == wort_domain::recipe_children::HopUse::DryHop {
        let days = h.time_minutes / 1440.0;
        format!("{} d", (days * 10.0).round() / 10.0)
    } else {
        format!("{:.0} min", h.time_minutes)
    }
}

fn temperature(c: f64) -> String {
    format!("{c:.0} °C ({:.0} °F)", c * 9.0 / 5.0 + 32.0)
}

fn table(out: &mut String, caption: &str, head: &[&str], rows: Vec<Vec<String>>) {
    if rows.is_empty() {
        return;
    }
    let _ = write!(out, "<h2>{}</h2><table><thead><tr>", escape(caption));
    for h in head {
        let _ = write!(out, "<th scope=\"col\">{}</th>", escape(h));
    }
    out.push_str("</tr></thead><tbody>");
    for row in rows {
        out.push_str("<tr>");
        for cell in row {
            let _ = write!(out, "<td>{}</td>", escape(&cell));
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table>");
}

fn ingredients(out: &mut String, d: &RecipeDetail) {
    table(
        out,
        "Fermentables",
        &["Name", "Amount", "Colour", "Yield"],
        d.fermentables
            .iter()
            .map(|f| {
                vec![
                    f.name.clone(),
                    both(QuantityKind::Mass, f.amount_kg * 1000.0),
                    format!("{:.1} SRM", f.color_srm),
                    format!("{:.0} %", f.yield_percent),
                ]
            })
            .collect(),
    );
    table(
        out,
        "Hops",
        &["Name", "Amount", "Alpha acid", "Time", "Use"],
        d.hops
            .iter()
            .map(|h| {
                vec![
                    h.name.clone(),
                    both(QuantityKind::Mass, h.amount_grams),
                    format!("{:.1} %", h.alpha_acid),
                    hop_time(h),
                    h.hop_use.as_str().replace('_', " "),
                ]
            })
            .collect(),
    );
    table(
        out,
        "Yeasts",
        &["Name", "Lab", "Product"],
        d.yeasts
            .iter()
            .map(|y| {
                vec![
                    y.name.clone(),
                    y.lab.clone().unwrap_or_default(),
                    y.product_id.clone().unwrap_or_default(),
                ]
            })
            .collect(),
    );
    table(
        out,
        "Other ingredients",
        &["Name", "Amount", "Use", "Time"],
        d.miscs
            .iter()
            .map(|m| {
                vec![
                    m.name.clone(),
                    format!("{} {}", m.amount, m.amount_unit),
                    m.misc_use.as_str().replace('_', " "),
                    format!("{:.0} min", m.time_minutes),
                ]
            })
            .collect(),
    );
    table(
        out,
        "Mash",
        &["Step", "Temperature", "Time"],
        d.mash_steps
            .iter()
            .map(|m| {
                vec![
                    m.name.clone(),
                    temperature(m.temperature_c),
                    format!("{:.0} min", m.duration_minutes),
                ]
            })
            .collect(),
    );
    table(
        out,
        "Fermentation",
        &["Step", "Temperature", "Days"],
        d.fermentation_steps
            .iter()
            .map(|s| {
                vec![
                    s.name.clone(),
                    temperature(s.temperature_c),
                    s.days.map(|d| format!("{d}")).unwrap_or_default(),
                ]
            })
            .collect(),
    );
}

const STYLE: &str = "body{font:16px/1.5 system-ui,sans-serif;max-width:48rem;margin:0 auto;padding:1rem;color:#1d1d1b}\
h1{font-size:1.6rem;margin:.2rem 0}h2{font-size:1.15rem;margin-top:1.5rem}\
dl{display:grid;grid-template-columns:repeat(auto-fill,minmax(7rem,1fr));gap:.5rem}\
dl div{border:1px solid #ccc;border-radius:6px;padding:.4rem}dt{font-size:.8rem;color:#555}dd{margin:0;font-weight:600}\
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.3rem;border-bottom:1px solid #ddd}\
.actions a{display:inline-block;margin:.5rem .5rem 0 0}footer{margin-top:2rem;color:#555;font-size:.85rem}\
@media print{.actions{display:none}}";

/// The whole page.
fn page(shared: &SharedRecipe, token: &str) -> String {
    let d = &shared.export.detail;
    let r = &d.recipe;
    let s = &shared.export.stats.stats;
    let description = format!(
        "{} · OG {:.3} · FG {:.3} · {:.1} % ABV · {:.0} IBU · {:.1} SRM",
        if r.style.is_empty() { "Beer" } else { &r.style },
        s.og,
        s.fg,
        s.abv,
        s.ibu,
        s.srm
    );
    let mut out = String::with_capacity(8 * 1024);
    let _ = write!(
        out,
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\
<meta name=\"robots\" content=\"noindex\"><meta name=\"referrer\" content=\"no-referrer\">\
<title>{title} · shared recipe</title>\
<meta property=\"og:type\" content=\"article\"><meta property=\"og:title\" content=\"{title}\">\
<meta property=\"og:description\" content=\"{desc}\"><meta name=\"description\" content=\"{desc}\">\
<style>{STYLE}</style></head><body><main><p>Shared recipe</p><h1>{title}</h1><p>{style}</p>",
        title = escape(&r.name),
        desc = escape(&description),
        style = escape(&r.style),
    );
    out.push_str("<dl>");
    for (label, value) in [
        ("OG", format!("{:.3}", s.og)),
        ("FG", format!("{:.3}", s.fg)),
        ("ABV", format!("{:.1} %", s.abv)),
        ("IBU", format!("{:.0}", s.ibu)),
        ("Colour", format!("{:.1} SRM ({:.0} EBC)", s.srm, s.ebc)),
        ("Batch", both(QuantityKind::Volume, r.batch_size_liters)),
        ("Boil", format!("{:.0} min", r.boil_time_minutes)),
        ("Efficiency", format!("{:.0} %", r.efficiency * 100.0)),
    ] {
        let _ = write!(
            out,
            "<div><dt>{}</dt><dd>{}</dd></div>",
            escape(label),
            escape(&value)
        );
    }
    out.push_str("</dl>");
    ingredients(&mut out, d);
    if let Some(notes) = r.notes.as_deref().filter(|_| shared.include_notes) {
        let _ = write!(out, "<h2>Notes</h2><p>{}</p>", escape(notes));
    }
    let token = escape(token);
    let _ = write!(
        out,
        "<p class=\"actions\"><a href=\"/shared/{token}/recipe.json\" download>Download BeerJSON</a>\
<a href=\"/shared/{token}/recipe.xml\" download>Download BeerXML</a>\
<a href=\"/copy/{token}\">Copy to my recipes</a></p></main>\
<footer>Shared from wort, a brewing app. Figures computed by wort from the recipe.</footer></body></html>"
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped_for_html() {
        assert_eq!(
            escape("<b>\"Tom's\" & co</b>"),
            "&lt;b&gt;&quot;Tom&#39;s&quot; &amp; co&lt;/b&gt;"
        );
    }

    #[test]
    fn an_address_gets_sixty_answers_a_minute() {
        let start = Instant::now();
        let address = "test-address-rate-limit";
        for _ in 0..PER_MINUTE {
            assert!(admit(address, start).is_ok());
        }
        assert!(admit(address, start).is_err());
        assert!(admit(address, start + Duration::from_secs(61)).is_ok());
    }
}
