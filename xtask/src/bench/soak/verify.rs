//! The read-back: with the database up again, every write the load clients saw acknowledged is
//! read back through the API.

use std::net::SocketAddr;
use std::thread;
use std::time::Duration;

use crate::bench::load::{Connection, Request};

use super::VERIFY_THREADS;
use super::accounts::{Setup, json_number_field};
use super::clients::ClientRun;

pub(super) struct Verified {
    pub(super) logs: Check,
    pub(super) recipes: Check,
    /// Per client: (acknowledged, unknown, amount read back).
    pub(super) adjusts: Vec<(u64, u64, Option<f64>)>,
    pub(super) acked_without_id: u64,
}

#[derive(Default)]
pub(super) struct Check {
    pub(super) acked: usize,
    pub(super) found: usize,
    /// Answered 404: the write is gone.
    pub(super) missing: Vec<String>,
    /// Never answered 200 or 404 (after retries).
    pub(super) unreadable: Vec<String>,
}

impl Verified {
    pub(super) fn adjusts_missing(&self) -> u64 {
        self.adjusts
            .iter()
            .map(|(acked, _, amount)| match amount {
                Some(amount) => acked.saturating_sub(amount.round() as u64),
                None => 0,
            })
            .sum()
    }

    pub(super) fn adjusts_unreadable(&self) -> usize {
        self.adjusts.iter().filter(|(_, _, a)| a.is_none()).count()
    }

    pub(super) fn failed(&self) -> bool {
        !self.logs.missing.is_empty()
            || !self.recipes.missing.is_empty()
            || !self.logs.unreadable.is_empty()
            || !self.recipes.unreadable.is_empty()
            || self.adjusts_missing() > 0
            || self.adjusts_unreadable() > 0
            || self.acked_without_id > 0
    }
}

/// GET with retries: `Some(body)` on 200, `None` on 404, `Err` when it never got either.
fn read_back(
    connection: &mut Connection,
    addr: SocketAddr,
    request: &Request,
) -> Result<Option<String>, String> {
    let bytes = request.to_bytes(addr);
    let mut last = String::new();
    for attempt in 0..5u64 {
        match connection.send(&bytes) {
            Ok(r) if r.status == 200 => {
                return Ok(Some(String::from_utf8_lossy(&r.body).into_owned()));
            }
            Ok(r) if r.status == 404 => return Ok(None),
            Ok(r) => last = format!("status {}", r.status),
            Err(e) => last = e.to_string(),
        }
        thread::sleep(Duration::from_millis(200 * (attempt + 1)));
    }
    Err(last)
}

pub(super) fn verify(addr: SocketAddr, setups: &[Setup], clients: &[ClientRun]) -> Verified {
    // (kind, key, path): kind 0 = reading, 1 = recipe.
    let mut jobs: Vec<(usize, &str, String)> = Vec::new();
    for (setup, run) in setups.iter().zip(clients) {
        jobs.extend(
            run.logs
                .iter()
                .map(|id| (0, setup.key.as_str(), format!("/v1/fermentation-logs/{id}"))),
        );
        jobs.extend(
            run.recipes
                .iter()
                .map(|id| (1, setup.key.as_str(), format!("/v1/recipes/{id}"))),
        );
    }
    let chunk = jobs.len().div_ceil(VERIFY_THREADS).max(1);
    let results: Vec<(usize, String, Result<Option<String>, String>)> = thread::scope(|scope| {
        let handles: Vec<_> = jobs
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    let mut connection = Connection::new(addr);
                    part.iter()
                        .map(|(kind, key, path)| {
                            let request = Request {
                                method: "GET",
                                path: path.clone(),
                                api_key: Some((*key).to_owned()),
                                body: None,
                            };
                            let found = read_back(&mut connection, addr, &request);
                            (*kind, path.clone(), found)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    });
    let mut logs = Check::default();
    let mut recipes = Check::default();
    logs.acked = clients.iter().map(|c| c.logs.len()).sum();
    recipes.acked = clients.iter().map(|c| c.recipes.len()).sum();
    for (kind, path, found) in results {
        let check = if kind == 0 { &mut logs } else { &mut recipes };
        match found {
            Ok(Some(_)) => check.found += 1,
            Ok(None) => check.missing.push(path),
            Err(e) => check.unreadable.push(format!("{path} ({e})")),
        }
    }
    let mut connection = Connection::new(addr);
    let adjusts = setups
        .iter()
        .zip(clients)
        .map(|(setup, run)| {
            let request = Request {
                method: "GET",
                path: format!("/v1/inventory/{}", setup.item),
                api_key: Some(setup.key.clone()),
                body: None,
            };
            let amount = read_back(&mut connection, addr, &request)
                .ok()
                .flatten()
                .and_then(|body| json_number_field(&body, "amount"));
            (run.adjusts_acked, run.adjusts_unknown, amount)
        })
        .collect();
    Verified {
        logs,
        recipes,
        adjusts,
        acked_without_id: clients.iter().map(|c| c.acked_without_id).sum(),
    }
}
