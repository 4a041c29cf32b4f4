//! Reads back every resource of every account: each list (every page) and each item, each
//! recipe's computed answers (stats, water, cost, its BeerJSON export), each session's checklist,
//! readings and schedule. [`discover`] finds the reads on the old build from its answers;
//! [`read`] makes the same reads again on the new one.

use std::collections::BTreeMap;
use std::net::SocketAddr;

use super::fill::{Account, Routes};
use super::http::{self, Auth};
use super::json::Json;

/// One read: a path, read page by page when `page` is set (the page size), with the account's
/// first API key or, for the session check, its sign-up cookie.
#[derive(Clone, Debug)]
pub struct Read {
    pub account: usize,
    pub path: String,
    pub page: Option<usize>,
    pub cookie: bool,
}

impl Read {
    pub fn label(&self) -> String {
        format!(
            "brewer-{} GET {}{}",
            self.account,
            self.path,
            if self.cookie { " (cookie)" } else { "" }
        )
    }
}

/// An answer: JSON (a whole list for a paged read), or the status of a failed read.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    Json(Json),
    Failed(u16, String),
}

pub type Snapshot = BTreeMap<String, (Read, Answer)>;

/// Finds and makes every read on the old build.
pub fn discover(
    addr: SocketAddr,
    routes: &Routes,
    accounts: &[Account],
) -> Result<Snapshot, String> {
    let results: Vec<Result<Snapshot, String>> = std::thread::scope(|scope| {
        let handles: Vec<_> = accounts
            .chunks(accounts.len().div_ceil(2).max(1))
            .map(|chunk| {
                scope.spawn(move || {
                    chunk
                        .iter()
                        .map(|account| discover_account(addr, routes, account))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| {
                h.join()
                    .unwrap_or_else(|_| vec![Err("a read thread panicked".into())])
            })
            .collect()
    });
    let mut all = Snapshot::new();
    for snapshot in results {
        all.extend(snapshot?);
    }
    Ok(all)
}

/// The same reads on another build.
pub fn read(addr: SocketAddr, accounts: &[Account], reads: &[Read]) -> Snapshot {
    let by_index: BTreeMap<usize, &Account> = accounts.iter().map(|a| (a.index, a)).collect();
    let results: Vec<(String, (Read, Answer))> = std::thread::scope(|scope| {
        let handles: Vec<_> = reads
            .chunks(reads.len().div_ceil(2).max(1))
            .map(|chunk| {
                let by_index = &by_index;
                scope.spawn(move || {
                    chunk
                        .iter()
                        .filter_map(|r| {
                            let account = by_index.get(&r.account)?;
                            Some((r.label(), (r.clone(), fetch(addr, account, r))))
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
    results.into_iter().collect()
}

/// One read, every page of it.
pub fn fetch(addr: SocketAddr, account: &Account, read: &Read) -> Answer {
    let auth = if read.cookie {
        Auth::Cookie(&account.cookie)
    } else {
        match account.keys.first() {
            Some(key) => Auth::Key(key),
            None => return Answer::Failed(0, "no API key".into()),
        }
    };
    let Some(size) = read.page else {
        return match http::request(addr, "GET", &read.path, auth, None) {
            Ok(reply) if reply.ok() => match reply.json() {
                Ok(json) => Answer::Json(json),
                Err(e) => Answer::Failed(reply.status, e),
            },
            Ok(reply) => Answer::Failed(reply.status, reply.body),
            Err(e) => Answer::Failed(0, e),
        };
    };
    let mut items = Vec::new();
    let separator = if read.path.contains('?') { '&' } else { '?' };
    // Bounded: 200 pages is far more than the fill writes.
    for page in 0..200 {
        let path = format!(
            "{}{separator}limit={size}&offset={}",
            read.path,
            page * size
        );
        let reply = match http::request(addr, "GET", &path, auth, None) {
            Ok(reply) if reply.ok() => reply,
            Ok(reply) => return Answer::Failed(reply.status, reply.body),
            Err(e) => return Answer::Failed(0, e),
        };
        let got = match reply.json() {
            Ok(Json::Array(got)) => got,
            Ok(other) => {
                return Answer::Failed(reply.status, format!("not a list: {}", other.to_text()));
            }
            Err(e) => return Answer::Failed(reply.status, e),
        };
        let full = got.len() == size;
        items.extend(got);
        if !full {
            break;
        }
    }
    Answer::Json(Json::Array(items))
}

/// The ids of a list answer's items.
fn ids(answer: &Answer) -> Vec<String> {
    match answer {
        Answer::Json(Json::Array(items)) => items
            .iter()
            .filter_map(|item| item.str_field("id").map(str::to_owned))
            .collect(),
        _ => Vec::new(),
    }
}

struct Discovery<'a> {
    addr: SocketAddr,
    routes: &'a Routes,
    account: &'a Account,
    snapshot: Snapshot,
}

impl Discovery<'_> {
    /// Reads `path` when the build serves `template`; the answer.
    fn read(&mut self, template: &str, path: String, page: Option<usize>) -> Option<Answer> {
        if !self.routes.has("GET", template) {
            return None;
        }
        let read = Read {
            account: self.account.index,
            path,
            page,
            cookie: false,
        };
        let answer = fetch(self.addr, self.account, &read);
        self.snapshot.insert(read.label(), (read, answer.clone()));
        Some(answer)
    }

    /// A list (every page) and then each of its items at `item` (`{id}` replaced).
    fn list_and_items(
        &mut self,
        list_template: &str,
        list: String,
        page: usize,
        item: Option<&str>,
    ) -> Vec<String> {
        let Some(answer) = self.read(list_template, list, Some(page)) else {
            return Vec::new();
        };
        let ids = ids(&answer);
        if let Some(item) = item {
            for id in &ids {
                self.read(item, item.replace("{id}", id), None);
            }
        }
        ids
    }
}

const PAGE: usize = 200;

fn discover_account(
    addr: SocketAddr,
    routes: &Routes,
    account: &Account,
) -> Result<Snapshot, String> {
    let mut d = Discovery {
        addr,
        routes,
        account,
        snapshot: Snapshot::new(),
    };
    for path in [
        "/v1/me",
        "/v1/me/preferences",
        "/v1/me/water-calibration",
        "/v1/ai/usage",
    ] {
        d.read(path, path.to_owned(), None);
    }
    // The sign-up's browser session still open, and the key list (which only a browser session
    // reads).
    for path in ["/api/auth/get-session", "/api/auth/api-key/list"] {
        let read = Read {
            account: account.index,
            path: path.into(),
            page: None,
            cookie: true,
        };
        let answer = fetch(addr, account, &read);
        d.snapshot.insert(read.label(), (read, answer));
    }

    d.list_and_items(
        "/v1/equipment",
        "/v1/equipment".into(),
        PAGE,
        Some("/v1/equipment/{id}"),
    );
    d.list_and_items(
        "/v1/water-profiles",
        "/v1/water-profiles".into(),
        PAGE,
        Some("/v1/water-profiles/{id}"),
    );
    d.list_and_items(
        "/v1/inventory",
        "/v1/inventory".into(),
        PAGE,
        Some("/v1/inventory/{id}"),
    );
    for kind in ["hops", "fermentables", "yeasts", "miscs"] {
        let list = format!("/v1/catalog/{kind}");
        let item = format!("/v1/catalog/{kind}/{{id}}");
        d.list_and_items(&list, format!("{list}?source=mine"), 50, Some(&item));
    }
    d.list_and_items(
        "/v1/chats",
        "/v1/chats".into(),
        PAGE,
        Some("/v1/chats/{id}"),
    );

    let recipes = d.list_and_items(
        "/v1/recipes",
        "/v1/recipes".into(),
        PAGE,
        Some("/v1/recipes/{id}"),
    );
    for id in &recipes {
        d.read(
            "/v1/recipes/{id}/stats",
            format!("/v1/recipes/{id}/stats"),
            None,
        );
        d.read(
            "/v1/recipes/{id}/cost",
            format!("/v1/recipes/{id}/cost"),
            None,
        );
        d.read(
            "/v1/recipes/{recipe_id}/water",
            format!("/v1/recipes/{id}/water"),
            None,
        );
        d.read(
            "/v1/recipes/{id}/export",
            format!("/v1/recipes/{id}/export?format=beerjson"),
            None,
        );
        d.read(
            "/v1/shopping-list",
            format!("/v1/shopping-list?recipe_id={id}"),
            None,
        );
        for (children, item) in [
            ("fermentables", "/v1/fermentables/{id}"),
            ("hops", "/v1/hops/{id}"),
            ("yeasts", "/v1/yeasts/{id}"),
            ("miscs", "/v1/miscs/{id}"),
            ("mash-steps", "/v1/mash-steps/{id}"),
            ("water-additions", "/v1/water-additions/{id}"),
            ("fermentation-steps", "/v1/fermentation-steps/{id}"),
        ] {
            let template = format!("/v1/recipes/{{recipe_id}}/{children}");
            // The children of one recipe come whole, unpaged.
            let Some(answer) = d.read(&template, format!("/v1/recipes/{id}/{children}"), None)
            else {
                continue;
            };
            for child in ids(&answer) {
                d.read(item, item.replace("{id}", &child), None);
            }
        }
    }

    let sessions = d.list_and_items(
        "/v1/sessions",
        "/v1/sessions".into(),
        PAGE,
        Some("/v1/sessions/{id}"),
    );
    for id in &sessions {
        if let Some(answer) = d.read(
            "/v1/sessions/{id}/steps",
            format!("/v1/sessions/{id}/steps"),
            None,
        ) {
            for step in ids(&answer) {
                d.read("/v1/steps/{id}", format!("/v1/steps/{step}"), None);
            }
        }
        d.list_and_items(
            "/v1/sessions/{id}/fermentation-logs",
            format!("/v1/sessions/{id}/fermentation-logs"),
            PAGE,
            Some("/v1/fermentation-logs/{id}"),
        );
        d.read(
            "/v1/sessions/{id}/fermentation-logs/latest",
            format!("/v1/sessions/{id}/fermentation-logs/latest"),
            None,
        );
        d.read(
            "/v1/sessions/{id}/fermentation-schedule",
            format!("/v1/sessions/{id}/fermentation-schedule"),
            None,
        );
        d.read(
            "/v1/shopping-list",
            format!("/v1/shopping-list?session_id={id}"),
            None,
        );
    }

    d.list_and_items(
        "/v1/devices",
        "/v1/devices".into(),
        PAGE,
        Some("/v1/devices/{id}"),
    );
    let webhooks = d.list_and_items(
        "/v1/webhooks",
        "/v1/webhooks".into(),
        PAGE,
        Some("/v1/webhooks/{id}"),
    );
    for id in &webhooks {
        d.read(
            "/v1/webhooks/{id}/deliveries",
            format!("/v1/webhooks/{id}/deliveries"),
            Some(PAGE),
        );
    }
    Ok(d.snapshot)
}
