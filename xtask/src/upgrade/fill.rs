//! Fills the old wort through its public API: accounts with preferences and API keys, equipment,
//! water profiles, catalogue items, inventory, recipes (written field by field and imported from
//! the interchange test files) with every kind of child, brew sessions moved through their
//! states with checklist ticks, readings and measurements, devices that have posted, webhooks.
//! Only routes the old build's OpenAPI document lists are used ([`Routes`]).

use std::collections::BTreeSet;
use std::net::SocketAddr;
use std::{fs, path::PathBuf};

use super::http::{self, Auth};
use super::json::{Json, quote};
use crate::workspace_root;

/// The operations (method and path template) of a wort's OpenAPI document.
pub struct Routes(BTreeSet<(String, String)>);

impl Routes {
    pub fn from_openapi(document: &Json) -> Result<Routes, String> {
        let Some(Json::Object(paths)) = document.get("paths") else {
            return Err("the OpenAPI document has no paths".into());
        };
        let mut set = BTreeSet::new();
        for (path, item) in paths {
            if let Json::Object(operations) = item {
                for (method, _) in operations {
                    set.insert((method.to_ascii_uppercase(), path.clone()));
                }
            }
        }
        Ok(Routes(set))
    }

    pub fn has(&self, method: &str, template: &str) -> bool {
        self.0.contains(&(method.to_owned(), template.to_owned()))
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }
}

/// What the fill made for one account and what the checks after the upgrade need.
#[derive(Clone, Debug)]
pub struct Account {
    pub index: usize,
    pub email: String,
    pub password: String,
    /// `wort_session=…` of the sign-up.
    pub cookie: String,
    /// Every API key made; the first is the one the read-back uses.
    pub keys: Vec<String>,
    /// Each device's id and ingest token.
    pub devices: Vec<(String, String)>,
}

/// What one fill wrote, counted by kind, and the routes it had to leave out.
#[derive(Default, Debug)]
pub struct Tally {
    pub written: std::collections::BTreeMap<&'static str, usize>,
    pub skipped: BTreeSet<String>,
}

impl Tally {
    fn add(&mut self, what: &'static str) {
        *self.written.entry(what).or_default() += 1;
    }

    fn merge(&mut self, other: Tally) {
        for (k, v) in other.written {
            *self.written.entry(k).or_default() += v;
        }
        self.skipped.extend(other.skipped);
    }
}

struct Filler<'a> {
    addr: SocketAddr,
    routes: &'a Routes,
    key: String,
    tally: Tally,
}

impl Filler<'_> {
    /// Whether the old build has the route; notes it as skipped when not.
    fn has(&mut self, method: &str, template: &str) -> bool {
        let has = self.routes.has(method, template);
        if !has {
            self.tally.skipped.insert(format!("{method} {template}"));
        }
        has
    }

    fn post(&mut self, what: &'static str, path: &str, body: &str) -> Result<Json, String> {
        let answer = http::json(self.addr, "POST", path, Auth::Key(&self.key), Some(body))?;
        self.tally.add(what);
        Ok(answer)
    }

    fn patch(&mut self, what: &'static str, path: &str, body: &str) -> Result<Json, String> {
        let answer = http::json(self.addr, "PATCH", path, Auth::Key(&self.key), Some(body))?;
        self.tally.add(what);
        Ok(answer)
    }

    fn get(&self, path: &str) -> Result<Json, String> {
        http::json(self.addr, "GET", path, Auth::Key(&self.key), None)
    }

    fn id(answer: &Json, path: &str) -> Result<String, String> {
        answer
            .str_field("id")
            .map(str::to_owned)
            .ok_or_else(|| format!("POST {path}: no id in {}", answer.to_text()))
    }
}

pub const PASSWORD_PREFIX: &str = "upgrade-test passphrase ";

/// Signs up and fills accounts `0..accounts`, two at a time (the machine's cores).
pub fn fill(
    addr: SocketAddr,
    routes: &Routes,
    accounts: usize,
    recipes: usize,
) -> Result<(Vec<Account>, Tally), String> {
    let imports = import_files();
    let indexes: Vec<usize> = (0..accounts).collect();
    let results: Vec<Result<(Account, Tally), String>> = std::thread::scope(|scope| {
        let handles: Vec<_> = indexes
            .chunks(accounts.div_ceil(2).max(1))
            .map(|chunk| {
                let imports = &imports;
                scope.spawn(move || {
                    chunk
                        .iter()
                        .map(|&i| fill_account(addr, routes, i, recipes, imports))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| {
                h.join()
                    .unwrap_or_else(|_| vec![Err("a fill thread panicked".to_owned())])
            })
            .collect()
    });
    let mut made = Vec::new();
    let mut tally = Tally::default();
    for result in results {
        let (account, t) = result?;
        made.push(account);
        tally.merge(t);
    }
    made.sort_by_key(|a| a.index);
    Ok((made, tally))
}

/// The interchange test files (BeerJSON and BeerXML from real programs), read from this checkout.
fn import_files() -> Vec<(String, String, &'static str)> {
    let dir: PathBuf = workspace_root().join("crates/interchange/tests/data/files");
    let mut files: Vec<(String, String, &'static str)> = fs::read_dir(&dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .filter_map(|entry| {
                    let name = entry.file_name().to_string_lossy().into_owned();
                    let kind = if name.ends_with(".json") {
                        "application/json"
                    } else if name.ends_with(".xml") && !name.starts_with("enc_") {
                        "application/xml"
                    } else {
                        return None;
                    };
                    // Bytes as they are (UTF-8 here; the other encodings are left out), and
                    // recipe files only (one file is a list of hops, refused by every build).
                    let text = fs::read_to_string(entry.path()).ok()?;
                    let recipes = kind == "application/json" || text.contains("<RECIPES");
                    recipes.then_some((name, text, kind))
                })
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

fn fill_account(
    addr: SocketAddr,
    routes: &Routes,
    i: usize,
    recipes: usize,
    imports: &[(String, String, &'static str)],
) -> Result<(Account, Tally), String> {
    let email = format!("brewer-{i}@example.com");
    let password = format!("{PASSWORD_PREFIX}{i}");
    let body = format!(
        r#"{{"name":{},"email":{},"password":{}}}"#,
        quote(&format!("Brewer {i}")),
        quote(&email),
        quote(&password)
    );
    let signed_up = http::request(
        addr,
        "POST",
        "/api/auth/sign-up/email",
        Auth::None,
        Some(&body),
    )?;
    if !signed_up.ok() {
        return Err(format!(
            "sign-up {email}: {} {}",
            signed_up.status, signed_up.body
        ));
    }
    let cookie = signed_up
        .headers
        .iter()
        .filter(|(name, _)| name == "set-cookie")
        .filter_map(|(_, value)| value.split(';').next())
        .find(|pair| pair.starts_with("wort_session="))
        .ok_or("sign-up set no wort_session cookie")?
        .to_owned();
    let mut keys = Vec::new();
    for (name, expires) in [("reader", ""), ("script", r#","expiresIn":31536000"#)] {
        let created = http::json(
            addr,
            "POST",
            "/api/auth/api-key/create",
            Auth::Cookie(&cookie),
            Some(&format!(r#"{{"name":"{name}"{expires}}}"#)),
        )?;
        keys.push(
            created
                .str_field("key")
                .ok_or("api-key create: no key")?
                .to_owned(),
        );
    }
    let mut f = Filler {
        addr,
        routes,
        key: keys.first().cloned().unwrap_or_default(),
        tally: Tally::default(),
    };
    f.tally.add("account");
    f.tally.written.insert("api key", 2);
    if i % 3 == 1 {
        f.patch(
            "preferences",
            "/v1/me/preferences",
            r#"{"amounts":"us","temperature":"f","gravity":"plato","color":"ebc"}"#,
        )?;
    } else if i % 3 == 2 {
        f.patch("preferences", "/v1/me/preferences", r#"{"gravity":"brix"}"#)?;
    }

    let equipment = if f.has("POST", "/v1/equipment") {
        let mut ids = Vec::new();
        for (name, batch, boil_off, trub, dead, absorption, util) in [
            ("Grainfather G30", 23.0, 3.0, 1.5, 1.0, 0.8, 100.0),
            (
                "Kettle and cooler mash tun",
                19.0,
                4.2,
                2.0,
                1.8,
                1.04,
                95.0,
            ),
        ] {
            let answer = f.post(
                "equipment",
                "/v1/equipment",
                &format!(
                    r#"{{"name":"{name}","batch_size_liters":{batch},"boil_off_liters_per_hour":{boil_off},"trub_chiller_loss_liters":{trub},"mash_tun_deadspace_liters":{dead},"grain_absorption_liters_per_kg":{absorption},"hop_utilization_percent":{util},"fermenter_loss_liters":0.8,"notes":"Brewer {i}'s kit"}}"#
                ),
            )?;
            ids.push(Filler::id(&answer, "/v1/equipment")?);
        }
        ids
    } else {
        Vec::new()
    };

    let water = if f.has("POST", "/v1/water-profiles") {
        let answer = f.post(
            "water profile",
            "/v1/water-profiles",
            &format!(
                r#"{{"name":"Tap water {i}","calcium":{},"magnesium":8.5,"sodium":12,"sulfate":{},"chloride":35,"bicarbonate":{},"ph":7.6,"source":"City water report 2026"}}"#,
                40 + i,
                30 + 3 * i,
                110 + 2 * i
            ),
        )?;
        let own = Filler::id(&answer, "/v1/water-profiles")?;
        // A shipped profile as the target, when there is one.
        let listed = f.get("/v1/water-profiles?limit=200")?;
        let builtin = listed
            .as_array()
            .unwrap_or_default()
            .iter()
            .find(|p| p.get("builtin") == Some(&Json::Bool(true)))
            .and_then(|p| p.str_field("id"))
            .map(str::to_owned);
        Some((own, builtin))
    } else {
        None
    };

    let mut catalog_hop = None;
    if f.has("POST", "/v1/catalog/hops") {
        let answer = f.post(
            "catalog item",
            "/v1/catalog/hops",
            &format!(
                r#"{{"name":"Homegrown Cascade {i}","alpha_acid":5.2,"beta_acid":6.1,"origin":"Garden","purpose":"aroma","aliases":["Garden Cascade"],"notes":"Picked in September"}}"#
            ),
        )?;
        catalog_hop = Some(Filler::id(&answer, "/v1/catalog/hops")?);
        f.post(
            "catalog item",
            "/v1/catalog/fermentables",
            &format!(
                r#"{{"name":"Local Pale Malt {i}","type":"grain","color_srm":2.5,"yield_percent":80,"origin":"Local maltings","supplier":"Farm {i}"}}"#
            ),
        )?;
        f.post(
            "catalog item",
            "/v1/catalog/yeasts",
            &format!(
                r#"{{"name":"House Kveik {i}","type":"kveik","form":"slant","lab":"Home","attenuation":80,"min_temp_c":25,"max_temp_c":40}}"#
            ),
        )?;
        f.post(
            "catalog item",
            "/v1/catalog/miscs",
            &format!(
                r#"{{"name":"Spruce tips {i}","type":"herb","use":"boil","amount_unit":"g"}}"#
            ),
        )?;
    }

    if f.has("POST", "/v1/inventory") {
        let items = [
            r#"{"category":"fermentable","name":"Maris Otter","amount":12.5,"amount_unit":"kg","color_srm":3,"yield_percent":81,"origin":"UK","type":"grain","price_per_unit":2.4}"#,
            r#"{"category":"fermentable","name":"Crystal 60","amount":1.2,"amount_unit":"kg","color_srm":60,"yield_percent":74,"type":"grain","best_before":"2027-06-30"}"#,
            r#"{"category":"hop","name":"Citra","amount":250,"amount_unit":"g","alpha_acid":12.5,"form":"pellet","year":2025,"price_per_unit":0.09}"#,
            r#"{"category":"hop","name":"East Kent Goldings","amount":100,"amount_unit":"g","alpha_acid":5.0,"form":"leaf","year":2024}"#,
            r#"{"category":"yeast","name":"SafAle US-05","amount":3,"amount_unit":"pkg","attenuation":78,"form":"dry","best_before":"2027-01-31"}"#,
            r#"{"category":"misc","name":"Irish moss","amount":50,"amount_unit":"g","notes":"15 min before the end"}"#,
        ];
        let mut first = None;
        for item in items {
            let answer = f.post("inventory item", "/v1/inventory", item)?;
            first.get_or_insert(Filler::id(&answer, "/v1/inventory")?);
        }
        if let Some(id) = first
            && f.has("POST", "/v1/inventory/{id}/adjust")
        {
            f.post(
                "inventory adjustment",
                &format!("/v1/inventory/{id}/adjust"),
                r#"{"delta":-4.5}"#,
            )?;
        }
    }

    let mut recipe_ids = Vec::new();
    for r in 0..recipes {
        let template = TEMPLATES
            .get((i + r) % TEMPLATES.len())
            .ok_or("no recipe template")?;
        let id = write_recipe(
            &mut f,
            template,
            i,
            r,
            &equipment,
            water.as_ref(),
            catalog_hop.as_deref(),
        )?;
        recipe_ids.push(id);
    }
    // Two imported files each (different ones per account), where the old build reads them.
    if f.has("POST", "/v1/recipes/import") && !imports.is_empty() {
        for k in 0..2 {
            let Some((name, text, kind)) = imports.get((2 * i + k) % imports.len()) else {
                continue;
            };
            match import(addr, &f.key, text, kind)? {
                Ok(count) => {
                    *f.tally.written.entry("imported recipe").or_default() += count;
                }
                Err(refusal) => {
                    f.tally.skipped.insert(format!(
                        "import of {name} (the old build refused it: {refusal})"
                    ));
                }
            }
        }
    }
    if let Some(first) = recipe_ids.first().cloned() {
        if f.has("POST", "/v1/recipes/{id}/copy") {
            let answer = f.post(
                "recipe copy",
                &format!("/v1/recipes/{first}/copy"),
                r#"{"name":"Copy for the club competition"}"#,
            )?;
            recipe_ids.push(Filler::id(&answer, "copy")?);
        }
        if f.has("POST", "/v1/recipes/{id}/scale") {
            let answer = f.post(
                "recipe scaled",
                &format!("/v1/recipes/{first}/scale"),
                r#"{"batch_size_liters":40,"efficiency":0.78,"name":"Scaled to the big kettle"}"#,
            )?;
            recipe_ids.push(Filler::id(&answer, "scale")?);
        }
    }

    let sessions = brew_sessions(&mut f, i, &recipe_ids)?;
    let devices = devices_and_webhooks(&mut f, i, &sessions)?;

    Ok((
        Account {
            index: i,
            email,
            password,
            cookie,
            keys,
            devices,
        },
        f.tally,
    ))
}

/// Imports one file: `Ok(Ok(recipes))`, or `Ok(Err(why))` when the build refuses the file.
fn import(
    addr: SocketAddr,
    key: &str,
    text: &str,
    kind: &str,
) -> Result<Result<usize, String>, String> {
    let reply = http::request_typed(addr, "/v1/recipes/import", key, text, kind)?;
    if reply.ok() {
        let json = reply.json()?;
        Ok(Ok(json
            .get("recipes")
            .and_then(Json::as_array)
            .map_or(0, <[Json]>::len)))
    } else {
        Ok(Err(format!(
            "{} {}",
            reply.status,
            reply.body.chars().take(200).collect::<String>()
        )))
    }
}

/// One recipe of a template, its numbers varied by account and index.
fn write_recipe(
    f: &mut Filler<'_>,
    t: &Template,
    i: usize,
    r: usize,
    equipment: &[String],
    water: Option<&(String, Option<String>)>,
    catalog_hop: Option<&str>,
) -> Result<String, String> {
    // 0.95 to 1.14: the same beer brewed a little bigger or smaller.
    let scale = 0.95 + ((i * 7 + r * 3) % 20) as f64 / 100.0;
    let mut body = format!(
        r#"{{"name":{},"style":{},"style_id":"{}","type":"{}","batch_size_liters":{},"boil_time_minutes":{},"efficiency":{},"notes":{}"#,
        quote(&format!("{} #{}", t.name, r + 1)),
        quote(t.style),
        t.style_id,
        t.kind,
        round(t.batch * scale, 1),
        t.boil,
        t.efficiency,
        quote(&format!(
            "Brewer {i}'s take on a {}. Brew {}.",
            t.style,
            r + 1
        )),
    );
    if let Some(e) = equipment.get(r % 3) {
        body.push_str(&format!(r#","equipment_id":"{e}""#));
    }
    if let Some((own, builtin)) = water {
        body.push_str(&format!(r#","water_profile_id":"{own}""#));
        if let Some(target) = builtin {
            body.push_str(&format!(r#","target_water_profile_id":"{target}""#));
        }
    }
    body.push('}');
    let recipe = f.post("recipe", "/v1/recipes", &body)?;
    let id = Filler::id(&recipe, "/v1/recipes")?;
    for (n, (name, kind, kg, srm, yield_percent, origin)) in t.fermentables.iter().enumerate() {
        f.post(
            "fermentable",
            &format!("/v1/recipes/{id}/fermentables"),
            &format!(
                r#"{{"name":"{name}","type":"{kind}","amount_kg":{},"color_srm":{srm},"yield_percent":{yield_percent},"origin":"{origin}","sort_order":{n}}}"#,
                round(kg * scale, 3)
            ),
        )?;
    }
    for (n, (name, alpha, grams, minutes, use_, form, temperature)) in t.hops.iter().enumerate() {
        let mut hop = format!(
            r#"{{"name":"{name}","alpha_acid":{alpha},"amount_grams":{},"time_minutes":{minutes},"use":"{use_}","form":"{form}","sort_order":{n}"#,
            round(grams * scale, 1)
        );
        if let Some(t) = temperature {
            hop.push_str(&format!(r#","temperature_c":{t}"#));
        }
        // The first hop names the account's own catalogue item, where there is a catalogue.
        if n == 0
            && let Some(c) = catalog_hop
        {
            hop.push_str(&format!(r#","catalog_id":"{c}""#));
        }
        hop.push('}');
        f.post("hop", &format!("/v1/recipes/{id}/hops"), &hop)?;
    }
    let (name, lab, product, kind, form, attenuation, min, max) = t.yeast;
    f.post(
        "yeast",
        &format!("/v1/recipes/{id}/yeasts"),
        &format!(
            r#"{{"name":"{name}","lab":"{lab}","product_id":"{product}","type":"{kind}","form":"{form}","attenuation":{attenuation},"min_temp_c":{min},"max_temp_c":{max},"amount":1,"amount_unit":"pkg"}}"#
        ),
    )?;
    for (n, (name, kind, use_, amount, unit, minutes)) in t.miscs.iter().enumerate() {
        f.post(
            "misc",
            &format!("/v1/recipes/{id}/miscs"),
            &format!(
                r#"{{"name":"{name}","type":"{kind}","use":"{use_}","amount":{amount},"amount_unit":"{unit}","time_minutes":{minutes},"sort_order":{n}}}"#
            ),
        )?;
    }
    for (n, (name, kind, temperature, minutes)) in t.mash.iter().enumerate() {
        let infuse = if n == 0 {
            format!(
                r#","infuse_amount_liters":{}"#,
                round(t.batch * scale * 0.75, 1)
            )
        } else {
            String::new()
        };
        f.post(
            "mash step",
            &format!("/v1/recipes/{id}/mash-steps"),
            &format!(
                r#"{{"name":"{name}","type":"{kind}","temperature_c":{temperature},"duration_minutes":{minutes},"ramp_minutes":{},"sort_order":{n}{infuse}}}"#,
                if n == 0 { 0 } else { 10 }
            ),
        )?;
    }
    if f.has("POST", "/v1/recipes/{recipe_id}/water-additions") {
        for (n, (agent, amount, step)) in t.water.iter().enumerate() {
            let acid = match *agent {
                "lactic_acid" => r#","strength_percent":88"#,
                "phosphoric_acid" => r#","strength_percent":10"#,
                "acidulated_malt" => r#","acid_percent":2"#,
                _ => "",
            };
            f.post(
                "water addition",
                &format!("/v1/recipes/{id}/water-additions"),
                &format!(
                    r#"{{"agent":"{agent}","amount":{amount},"step":"{step}","sort_order":{n}{acid}}}"#
                ),
            )?;
        }
    }
    if f.has("POST", "/v1/recipes/{recipe_id}/fermentation-steps") {
        for (n, (name, temperature, days, until)) in t.fermentation.iter().enumerate() {
            let until = until.map_or(String::new(), |g| format!(r#","until_gravity":{g}"#));
            f.post(
                "fermentation step",
                &format!("/v1/recipes/{id}/fermentation-steps"),
                &format!(
                    r#"{{"name":"{name}","temperature_c":{temperature},"days":{days},"sort_order":{n}{until}}}"#
                ),
            )?;
        }
    }
    Ok(id)
}

fn round(x: f64, places: i32) -> f64 {
    let factor = 10f64.powi(places);
    (x * factor).round() / factor
}

/// Up to four sessions: one completed with its readings and measurements, one fermenting (the
/// devices post to it), one planned, and on every fourth account one abandoned. Returns the
/// fermenting one's id first.
fn brew_sessions(f: &mut Filler<'_>, i: usize, recipes: &[String]) -> Result<Vec<String>, String> {
    if !f.has("POST", "/v1/sessions") {
        return Ok(Vec::new());
    }
    let mut plans = vec![
        ("fermenting", 1usize, 8usize),
        ("completed", 0, 14),
        ("planned", 2, 0),
    ];
    if i.is_multiple_of(4) {
        plans.push(("abandoned", 3, 2));
    }
    let mut ids = Vec::new();
    for (n, (status, recipe, readings)) in plans.into_iter().enumerate() {
        let Some(recipe) = recipes.get(recipe % recipes.len().max(1)) else {
            continue;
        };
        let day = 1 + (i + n * 5) % 20;
        let answer = f.post(
            "brew session",
            "/v1/sessions",
            &format!(
                r#"{{"recipe_id":"{recipe}","brew_date":"2026-10-{day:02}","name":"Brew day {n} of brewer {i}","notes":"Brewed with a friend"}}"#
            ),
        )?;
        let id = Filler::id(&answer, "/v1/sessions")?;
        // The checklist: a step of one's own, and the first few ticked.
        f.post(
            "brew step",
            &format!("/v1/sessions/{id}/steps"),
            r#"{"title":"Sanitise the fermenter","description":"Star San, 2 minutes contact","duration_minutes":5}"#,
        )?;
        let steps = f.get(&format!("/v1/sessions/{id}/steps"))?;
        let ticks = match status {
            "completed" => usize::MAX,
            "planned" => 0,
            _ => 3,
        };
        for step in steps.as_array().unwrap_or_default().iter().take(ticks) {
            if let Some(step_id) = step.str_field("id") {
                f.patch(
                    "checklist tick",
                    &format!("/v1/steps/{step_id}"),
                    r#"{"completed":true}"#,
                )?;
            }
        }
        let path = format!("/v1/sessions/{id}");
        let moves: &[&str] = match status {
            "completed" => &["brewing", "fermenting", "conditioning", "completed"],
            "fermenting" => &["brewing", "fermenting"],
            "abandoned" => &["brewing", "abandoned"],
            _ => &[],
        };
        for (m, next) in moves.iter().enumerate() {
            if *next == "fermenting" || (*next == "abandoned" && m > 0) {
                f.patch(
                    "session measurement",
                    &path,
                    &format!(
                        r#"{{"measured_og":{},"measured_batch_size_liters":{},"measured_mash_ph":5.{}}}"#,
                        1.048 + (i % 10) as f64 / 1000.0,
                        20 + i % 4,
                        30 + i % 20
                    ),
                )?;
            }
            f.patch(
                "session status",
                &path,
                &format!(r#"{{"status":"{next}"}}"#),
            )?;
        }
        for k in 0..readings {
            let gravity = 1.050 - 0.0028 * k as f64;
            f.post(
                "fermentation reading",
                &format!("/v1/sessions/{id}/fermentation-logs"),
                &format!(
                    r#"{{"gravity":{},"temperature_c":{},"ph":{},"logged_at":"2026-10-{:02}T{:02}:30:00Z"{}}}"#,
                    round(gravity, 4),
                    18.0 + (k % 3) as f64 * 0.5,
                    if k % 4 == 0 { "4.4" } else { "null" },
                    (day + k / 2).min(28),
                    if k % 2 == 0 { 8 } else { 20 },
                    if k % 5 == 0 {
                        r#","notes":"Krausen high, smells of stone fruit""#
                    } else {
                        ""
                    }
                ),
            )?;
        }
        if status == "completed" {
            f.patch(
                "session measurement",
                &path,
                r#"{"measured_fg":1.011,"notes":"Bright and clean; kegged on day 14"}"#,
            )?;
            if f.has("POST", "/v1/sessions/{id}/inventory-deduction") {
                // A line short of stock refuses the whole deduction (422): then nothing is taken,
                // which the read-back sees as well.
                let reply = http::request(
                    f.addr,
                    "POST",
                    &format!("/v1/sessions/{id}/inventory-deduction"),
                    Auth::Key(&f.key),
                    Some(r#"{"preview":false}"#),
                )?;
                if reply.ok() {
                    f.tally.add("inventory deduction");
                } else {
                    f.tally.skipped.insert(format!(
                        "an inventory deduction ({} {})",
                        reply.status,
                        reply.body.chars().take(120).collect::<String>()
                    ));
                }
            }
        }
        ids.push(id);
    }
    Ok(ids)
}

/// A device on the fermenting session that has posted once, a device without a session, and a
/// webhook (an inactive one too); returns each device's id and token. Webhook targets are
/// addresses, not names (the run may have no DNS; wort resolves a name when it is saved), and
/// private ones (`WORT_WEBHOOK_ALLOW_PRIVATE=1`); nothing is delivered during the run.
fn devices_and_webhooks(
    f: &mut Filler<'_>,
    i: usize,
    sessions: &[String],
) -> Result<Vec<(String, String)>, String> {
    let mut devices = Vec::new();
    if f.has("POST", "/v1/devices") {
        let session = sessions
            .first()
            .map_or("null".to_owned(), |s| format!("\"{s}\""));
        for (name, kind, session) in [
            ("iSpindel in the fermenter", "ispindel", session.as_str()),
            ("Spare Tilt", "tilt", "null"),
        ] {
            let answer = f.post(
                "device",
                "/v1/devices",
                &format!(r#"{{"name":"{name} {i}","kind":"{kind}","session_id":{session}}}"#),
            )?;
            let id = Filler::id(&answer, "/v1/devices")?;
            let token = http::json(
                f.addr,
                "POST",
                &format!("/v1/devices/{id}/token"),
                Auth::Key(&f.key),
                None,
            )?;
            f.tally.add("device token");
            let token = token
                .str_field("token")
                .ok_or_else(|| format!("device token: {}", token.to_text()))?
                .to_owned();
            if session != "null" {
                let reply = http::request(
                    f.addr,
                    "POST",
                    &format!("/ingest/{token}"),
                    Auth::None,
                    Some(
                        r#"{"name":"iSpindel001","ID":1234567,"angle":42.5,"temperature":19.5,"temp_units":"C","battery":3.91,"gravity":1.0235,"interval":900,"RSSI":-71}"#,
                    ),
                )?;
                if !reply.ok() {
                    return Err(format!("ingest: {} {}", reply.status, reply.body));
                }
                f.tally.add("device post");
            }
            devices.push((id, token));
        }
    }
    if f.has("POST", "/v1/webhooks") {
        f.post(
            "webhook",
            "/v1/webhooks",
            &format!(
                r#"{{"url":"http://127.0.0.1:9/wort/{i}","events":["session.status_changed","fermentation.stable"]}}"#
            ),
        )?;
        f.post(
            "webhook",
            "/v1/webhooks",
            &format!(
                r#"{{"url":"https://10.20.0.{}/hook","events":["reading.created"],"active":false}}"#,
                i % 250 + 1
            ),
        )?;
    }
    Ok(devices)
}

type Text = &'static str;
/// name, type, kg, SRM, yield %, origin
type FermentableRow = (Text, Text, f64, f64, f64, Text);
/// name, alpha %, grams, minutes, use, form, stand temperature °C
type HopRow = (Text, f64, f64, u32, Text, Text, Option<f64>);
/// name, lab, product, type, form, attenuation %, min °C, max °C
type YeastRow = (Text, Text, Text, Text, Text, f64, f64, f64);
/// name, type, use, amount, unit, minutes
type MiscRow = (Text, Text, Text, f64, Text, u32);

/// A recipe to write: realistic amounts for the named style (BJCP 2021 ids).
pub struct Template {
    name: Text,
    style: Text,
    style_id: Text,
    kind: Text,
    batch: f64,
    boil: u32,
    efficiency: f64,
    fermentables: &'static [FermentableRow],
    hops: &'static [HopRow],
    yeast: YeastRow,
    miscs: &'static [MiscRow],
    /// name, type, °C, minutes
    mash: &'static [(Text, Text, f64, u32)],
    /// agent, amount (g or ml), step
    water: &'static [(Text, f64, Text)],
    /// name, °C, days, until gravity
    fermentation: &'static [(Text, f64, f64, Option<f64>)],
}

const TEMPLATES: &[Template] = &[
    Template {
        name: "West Coast IPA",
        style: "American IPA",
        style_id: "21A",
        kind: "all_grain",
        batch: 23.0,
        boil: 60,
        efficiency: 0.72,
        fermentables: &[
            ("Pale Ale Malt", "grain", 5.4, 3.0, 80.0, "US"),
            ("Munich Malt", "grain", 0.5, 9.0, 78.0, "DE"),
            ("Crystal 15", "grain", 0.3, 15.0, 74.0, "US"),
            ("Dextrose", "sugar", 0.25, 0.0, 100.0, "US"),
        ],
        hops: &[
            ("Columbus", 15.0, 20.0, 60, "boil", "pellet", None),
            ("Centennial", 10.0, 30.0, 10, "boil", "pellet", None),
            ("Simcoe", 13.0, 50.0, 20, "whirlpool", "pellet", Some(80.0)),
            ("Citra", 12.5, 80.0, 4, "dry_hop", "pellet", None),
        ],
        yeast: (
            "American Ale",
            "Wyeast",
            "1056",
            "ale",
            "liquid",
            75.0,
            15.0,
            22.0,
        ),
        miscs: &[
            ("Whirlfloc", "fining", "boil", 1.0, "items", 15),
            ("Yeast nutrient", "other", "boil", 2.0, "g", 10),
        ],
        mash: &[
            ("Saccharification", "infusion", 66.0, 60),
            ("Mash out", "temperature", 76.0, 10),
        ],
        water: &[
            ("gypsum", 6.0, "mash"),
            ("calcium_chloride", 2.0, "mash"),
            ("lactic_acid", 2.5, "sparge"),
        ],
        fermentation: &[
            ("Primary", 19.0, 7.0, None),
            ("Dry hop rest", 20.0, 4.0, None),
            ("Cold crash", 2.0, 2.0, None),
        ],
    },
    Template {
        name: "Dry Stout",
        style: "Irish Stout",
        style_id: "15B",
        kind: "all_grain",
        batch: 20.0,
        boil: 60,
        efficiency: 0.75,
        fermentables: &[
            ("Maris Otter", "grain", 3.2, 3.0, 81.0, "UK"),
            ("Flaked Barley", "adjunct", 0.8, 2.0, 70.0, "UK"),
            ("Roasted Barley", "grain", 0.4, 500.0, 55.0, "UK"),
        ],
        hops: &[("East Kent Goldings", 5.0, 55.0, 60, "boil", "leaf", None)],
        yeast: (
            "Irish Ale",
            "Wyeast",
            "1084",
            "ale",
            "liquid",
            73.0,
            16.0,
            22.0,
        ),
        miscs: &[("Irish Moss", "fining", "boil", 5.0, "g", 15)],
        mash: &[("Single infusion", "infusion", 65.0, 60)],
        water: &[
            ("baking_soda", 1.5, "mash"),
            ("calcium_chloride", 3.0, "mash"),
        ],
        fermentation: &[("Primary", 18.0, 10.0, Some(1.010))],
    },
    Template {
        name: "Bavarian Hefeweizen",
        style: "Weissbier",
        style_id: "10A",
        kind: "all_grain",
        batch: 21.0,
        boil: 90,
        efficiency: 0.7,
        fermentables: &[
            ("Wheat Malt", "grain", 2.8, 2.0, 80.0, "DE"),
            ("Pilsner Malt", "grain", 2.1, 1.8, 81.0, "DE"),
            ("Rice Hulls", "adjunct", 0.2, 0.0, 0.0, "US"),
        ],
        hops: &[(
            "Hallertau Mittelfrüh",
            4.0,
            28.0,
            60,
            "boil",
            "pellet",
            None,
        )],
        yeast: (
            "Weihenstephan Weizen",
            "Wyeast",
            "3068",
            "wheat",
            "liquid",
            75.0,
            17.0,
            24.0,
        ),
        miscs: &[],
        mash: &[
            ("Ferulic acid rest", "infusion", 44.0, 15),
            ("Beta rest", "temperature", 63.0, 35),
            ("Alpha rest", "temperature", 72.0, 20),
            ("Mash out", "temperature", 77.0, 10),
        ],
        water: &[("calcium_chloride", 1.0, "mash")],
        fermentation: &[("Primary", 18.5, 7.0, None)],
    },
    Template {
        name: "Czech Pilsner",
        style: "Czech Premium Pale Lager",
        style_id: "3B",
        kind: "all_grain",
        batch: 25.0,
        boil: 90,
        efficiency: 0.74,
        fermentables: &[
            ("Bohemian Pilsner Malt", "grain", 5.1, 1.8, 80.0, "CZ"),
            ("Carapils", "grain", 0.3, 2.0, 72.0, "DE"),
        ],
        hops: &[
            ("Saaz", 3.5, 60.0, 75, "first_wort", "pellet", None),
            ("Saaz", 3.5, 40.0, 30, "boil", "pellet", None),
            ("Saaz", 3.5, 40.0, 0, "aroma", "pellet", Some(95.0)),
        ],
        yeast: (
            "Czech Pils",
            "White Labs",
            "WLP800",
            "lager",
            "liquid",
            74.0,
            9.0,
            13.0,
        ),
        miscs: &[],
        mash: &[
            ("Protein rest", "infusion", 52.0, 10),
            ("Decoction", "decoction", 64.0, 40),
            ("Second decoction", "decoction", 72.0, 20),
        ],
        water: &[("phosphoric_acid", 1.0, "mash")],
        fermentation: &[
            ("Primary", 10.0, 12.0, None),
            ("Diacetyl rest", 16.0, 3.0, None),
            ("Lagering", 1.0, 28.0, None),
        ],
    },
    Template {
        name: "Saison",
        style: "Saison",
        style_id: "25B",
        kind: "partial_mash",
        batch: 19.0,
        boil: 60,
        efficiency: 0.68,
        fermentables: &[
            ("Pilsner DME", "dry_extract", 2.0, 2.0, 95.0, "BE"),
            ("Vienna Malt", "grain", 1.0, 3.5, 78.0, "AT"),
            ("Candi Sugar", "sugar", 0.4, 1.0, 100.0, "BE"),
            ("Honey", "honey", 0.3, 2.0, 75.0, "FR"),
        ],
        hops: &[
            ("Styrian Goldings", 5.4, 30.0, 60, "boil", "pellet", None),
            ("Saaz", 3.5, 25.0, 5, "boil", "pellet", None),
        ],
        yeast: (
            "Belle Saison",
            "Lallemand",
            "BelleSaison",
            "ale",
            "dry",
            88.0,
            17.0,
            35.0,
        ),
        miscs: &[
            ("Coriander", "spice", "boil", 10.0, "g", 5),
            ("Orange peel", "spice", "boil", 14.0, "g", 5),
        ],
        mash: &[("Steep", "infusion", 67.0, 45)],
        water: &[("gypsum", 3.0, "mash")],
        fermentation: &[
            ("Warm ramp", 24.0, 5.0, None),
            ("Free rise", 30.0, 9.0, Some(1.004)),
        ],
    },
    Template {
        name: "Extract Amber",
        style: "American Amber Ale",
        style_id: "19A",
        kind: "extract",
        batch: 19.0,
        boil: 45,
        efficiency: 1.0,
        fermentables: &[
            ("Light Liquid Malt Extract", "extract", 3.0, 4.0, 78.0, "US"),
            ("Crystal 60", "grain", 0.45, 60.0, 74.0, "US"),
            ("Chocolate Malt", "grain", 0.05, 350.0, 60.0, "UK"),
        ],
        hops: &[
            ("Cascade", 6.5, 28.0, 45, "boil", "pellet", None),
            ("Cascade", 6.5, 28.0, 10, "boil", "pellet", None),
            ("Amarillo", 8.9, 30.0, 3, "dry_hop", "leaf", None),
        ],
        yeast: (
            "SafAle US-05",
            "Fermentis",
            "US-05",
            "ale",
            "dry",
            81.0,
            15.0,
            24.0,
        ),
        miscs: &[("Gelatin", "fining", "secondary", 1.0, "tsp", 0)],
        mash: &[],
        water: &[],
        fermentation: &[("Primary", 19.0, 14.0, None)],
    },
    Template {
        name: "Kveik Pale",
        style: "American Pale Ale",
        style_id: "18B",
        kind: "all_grain",
        batch: 23.0,
        boil: 30,
        efficiency: 0.8,
        fermentables: &[
            ("Golden Promise", "grain", 4.6, 2.4, 81.0, "UK"),
            ("Oat Malt", "grain", 0.5, 2.0, 70.0, "UK"),
        ],
        hops: &[
            ("Mosaic", 12.0, 30.0, 30, "boil", "pellet", None),
            ("Mosaic", 12.0, 60.0, 15, "whirlpool", "pellet", Some(75.0)),
            ("Nelson Sauvin", 12.0, 60.0, 3, "dry_hop", "pellet", None),
        ],
        yeast: (
            "Voss Kveik",
            "Lallemand",
            "Voss",
            "kveik",
            "dry",
            80.0,
            25.0,
            40.0,
        ),
        miscs: &[("Spruce tips", "herb", "boil", 30.0, "g", 10)],
        mash: &[("Single infusion", "infusion", 67.0, 60)],
        water: &[
            ("gypsum", 4.0, "mash"),
            ("epsom_salt", 1.0, "mash"),
            ("acidulated_malt", 100.0, "mash"),
        ],
        fermentation: &[("Hot ferment", 35.0, 4.0, None)],
    },
    Template {
        name: "Oak-aged Barleywine",
        style: "English Barley Wine",
        style_id: "17D",
        kind: "all_grain",
        batch: 12.0,
        boil: 120,
        efficiency: 0.62,
        fermentables: &[
            ("Maris Otter", "grain", 6.0, 3.0, 81.0, "UK"),
            ("Crystal 120", "grain", 0.3, 120.0, 72.0, "UK"),
            ("Treacle", "sugar", 0.2, 100.0, 100.0, "UK"),
        ],
        hops: &[
            ("Target", 10.5, 45.0, 90, "boil", "pellet", None),
            ("Fuggle", 4.5, 40.0, 15, "boil", "plug", None),
        ],
        yeast: (
            "English Ale",
            "White Labs",
            "WLP002",
            "ale",
            "liquid",
            67.0,
            18.0,
            20.0,
        ),
        miscs: &[(
            "Oak cubes (medium toast)",
            "wood",
            "secondary",
            30.0,
            "g",
            43200,
        )],
        mash: &[("Long infusion", "infusion", 64.0, 90)],
        water: &[("chalk", 1.0, "mash"), ("table_salt", 0.5, "mash")],
        fermentation: &[
            ("Primary", 18.0, 14.0, Some(1.024)),
            ("Warm finish", 21.0, 7.0, None),
            ("Ageing on oak", 14.0, 90.0, None),
        ],
    },
];
