//! Recipe interchange end to end over HTTP: export of 1,000 recipes (five pages of
//! 200, both formats) from the heavy account, and import of a 100-recipe BeerJSON file (made by
//! exporting 100 of them) into the light account, each repeated and reported as median and range.

use std::net::SocketAddr;
use std::time::Instant;

use super::load::{self, Request};
use super::seed;

const REPEATS: usize = 5;

/// Median and range, in milliseconds, as the rest of the report writes them.
fn summary(ms: Vec<f64>) -> String {
    format!("{} ms", super::range_cell(&super::Series(ms), 0))
}

fn timed(addr: SocketAddr, request: &Request, expect: u16) -> Result<(f64, Vec<u8>), String> {
    let started = Instant::now();
    let response = load::once(addr, request)?;
    let ms = started.elapsed().as_secs_f64() * 1000.0;
    if response.status == expect {
        Ok((ms, response.body))
    } else {
        Err(format!(
            "{} {} answered {}: {}",
            request.method,
            request.path,
            response.status,
            String::from_utf8_lossy(&response.body)
        ))
    }
}

fn export_thousand(addr: SocketAddr, format: &str) -> Result<f64, String> {
    let mut total = 0.0;
    for page in 0..5 {
        let request = Request {
            method: "GET",
            path: format!(
                "/v1/recipes/export?format={format}&limit=200&offset={}",
                page * 200
            ),
            api_key: Some(seed::heavy_key()),
            body: None,
        };
        total += timed(addr, &request, 200)?.0;
    }
    Ok(total)
}

/// The section of the report (markdown).
pub fn measure(addr: SocketAddr) -> Result<String, String> {
    let mut beerjson = Vec::new();
    let mut beerxml = Vec::new();
    for _ in 0..REPEATS {
        beerjson.push(export_thousand(addr, "beerjson")?);
        beerxml.push(export_thousand(addr, "beerxml")?);
    }
    let file = Request {
        method: "GET",
        path: "/v1/recipes/export?format=beerjson&limit=100".into(),
        api_key: Some(seed::heavy_key()),
        body: None,
    };
    let (_, bytes) = timed(addr, &file, 200)?;
    let file_kib = bytes.len() / 1024;
    let body = String::from_utf8(bytes).map_err(|e| format!("export is not UTF-8: {e}"))?;
    let mut imports = Vec::new();
    for _ in 0..REPEATS {
        let import = Request {
            method: "POST",
            path: "/v1/recipes/import".into(),
            api_key: Some(seed::light_key()),
            body: Some(body.clone()),
        };
        imports.push(timed(addr, &import, 201)?.0);
    }
    Ok(format!(
        "\n### Interchange\n\n\
         | what | time (median of {REPEATS}, range) |\n|---|---|\n\
         | export of 1,000 recipes as BeerJSON (5 pages of 200) | {} |\n\
         | export of 1,000 recipes as BeerXML (5 pages of 200) | {} |\n\
         | import of a 100-recipe BeerJSON file ({file_kib} KiB), one transaction | {} |\n\n\
         Target: 100 recipes imported in under 1 s on 2 cores.\n",
        summary(beerjson),
        summary(beerxml),
        summary(imports)
    ))
}
