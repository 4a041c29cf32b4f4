//! Scenario 8: many large exports at once. One account holds 200 recipes shaped like real ones
//! (an equipment profile, a BJCP style, 7 fermentables, 7 hops, a yeast, 3 miscs, 4 water
//! additions, 3 mash steps, 3 fermentation steps, notes); 24 clients ask for all 200 as one
//! BeerJSON file at the same moment, then 24 as BeerXML, for a few rounds. wort's resident memory
//! is sampled every 20 ms throughout (VmRSS), besides its peak (VmHWM).
//!
//! Before the bound (and before BeerJSON was written straight to bytes) the peak was 642 MiB in
//! the first round and 759 MiB by the third, and 715 MiB stayed after; a larger account's 24
//! BeerJSON exports had taken wort from 207 MB to 2.7 GB. Held when the peak stays under 400 MiB, every request gets an answer, and each answer
//! is a `200` or a `503` (too many at once: come back after `Retry-After`).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use super::tools::{request, simultaneous};
use super::{Account, Options, Row, Stage, Statuses};

const RECIPES: usize = 200;
const CLIENTS: usize = 24;
const ROUNDS: usize = 3;
/// Held when wort's peak resident memory stays under this.
const RSS_CAP_MIB: f64 = 400.0;
/// A client waits this long for its answer (the server answers within its permit wait plus
/// the time to write one file, or says `503`).
const TIMEOUT: Duration = Duration::from_secs(120);
/// How long the process is left alone before "after" is read.
const SETTLE: Duration = Duration::from_secs(5);

pub fn exports(stage: &Stage, _: &Options) -> Result<Vec<Row>, String> {
    let account = stage.account("exporter")?;
    seed(stage, &account)?;
    let idle_kib = stage.rss_kib().unwrap_or(0);
    let addr = stage.addr();
    let mut rows = Vec::new();
    for round in 1..=ROUNDS {
        for format in ["beerjson", "beerxml"] {
            let path = format!("/v1/recipes/export?format={format}&limit={RECIPES}");
            let bytes = request("GET", &path, addr, &[("X-API-Key", &account.key)], &[]);
            let sampler = Sampler::start(stage);
            let (sent, watched) =
                stage.watch(|| Ok(simultaneous(addr, vec![bytes; CLIENTS], TIMEOUT)))?;
            let most_sampled_kib = sampler.stop();
            let answered_kib = stage.rss_kib().unwrap_or(0);
            let answers = Statuses::of(sent.iter().map(|s| s.status));
            let mut ok_secs: Vec<f64> = sent
                .iter()
                .filter(|s| s.status == 200)
                .map(|s| s.took.as_secs_f64())
                .collect();
            ok_secs.sort_by(f64::total_cmp);
            let busy_secs = sent
                .iter()
                .filter(|s| s.status == 503)
                .map(|s| s.took.as_secs_f64())
                .fold(0.0, f64::max);
            let largest = sent.iter().map(|s| s.body.len()).max().unwrap_or(0);
            let last = round == ROUNDS && format == "beerxml";
            let settled = if last {
                thread::sleep(SETTLE);
                format!(
                    "; {:.0} MiB {} s after the last round",
                    mib(stage.rss_kib().unwrap_or(0)),
                    SETTLE.as_secs()
                )
            } else {
                String::new()
            };
            let holds = mib(watched.peak_kib) < RSS_CAP_MIB
                && answers.count(0) == 0
                && answers.count(200) > 0
                && answers.count(200) + answers.count(503) == CLIENTS;
            let figure = format!(
                "200s in {} s (first / median / last); slowest 503 {busy_secs:.1} s; file {:.1} \
                 MiB; RSS {:.0} MiB idle, most sampled {:.0} MiB, {:.0} MiB when answered{settled}; \
                 held when peak < {RSS_CAP_MIB:.0} MiB and every answer is 200 or 503",
                spread(&ok_secs),
                largest as f64 / 1_048_576.0,
                mib(idle_kib),
                mib(most_sampled_kib),
                mib(answered_kib),
            );
            rows.push(super::scenarios::row(
                &format!("8. {CLIENTS} {format} exports of {RECIPES} recipes, round {round}"),
                &answers,
                watched,
                figure,
                "peak 642 to 759 MiB, 715 MiB 5 s after round 3",
                holds,
            ));
        }
    }
    Ok(rows)
}

fn mib(kib: u64) -> f64 {
    kib as f64 / 1024.0
}

/// `first / median / last` of sorted seconds.
fn spread(sorted: &[f64]) -> String {
    match (sorted.first(), sorted.get(sorted.len() / 2), sorted.last()) {
        (Some(a), Some(m), Some(z)) => format!("{a:.1} / {m:.1} / {z:.1}"),
        _ => "–".into(),
    }
}

/// The most VmRSS seen by a thread that reads it every 20 ms until stopped.
struct Sampler {
    done: Arc<AtomicBool>,
    most: Arc<AtomicU64>,
    thread: thread::JoinHandle<()>,
}

impl Sampler {
    fn start(stage: &Stage) -> Sampler {
        let done = Arc::new(AtomicBool::new(false));
        let most = Arc::new(AtomicU64::new(0));
        let pid = stage.server.process.id().unwrap_or(0);
        let thread = {
            let (done, most) = (done.clone(), most.clone());
            thread::spawn(move || {
                // Bounded in time like every loop of the attacks.
                let until = Instant::now() + Duration::from_secs(600);
                while !done.load(Ordering::Relaxed) && Instant::now() < until {
                    if let Some(kib) = vm_rss_kib(pid) {
                        most.fetch_max(kib, Ordering::Relaxed);
                    }
                    thread::sleep(Duration::from_millis(20));
                }
            })
        };
        Sampler { done, most, thread }
    }

    fn stop(self) -> u64 {
        self.done.store(true, Ordering::Relaxed);
        let _ = self.thread.join();
        self.most.load(Ordering::Relaxed)
    }
}

fn vm_rss_kib(pid: u32) -> Option<u64> {
    crate::bench::proc_status_kib(pid, "VmRSS:")
}

/// The account's equipment profile and its 200 recipes with their children, by SQL (seconds,
/// where 200 imports through the API would take minutes and measure the import instead).
fn seed(stage: &Stage, account: &Account) -> Result<(), String> {
    let user = &account.id;
    let equipment = stage.sql_value(&format!(
        "INSERT INTO equipment_profiles (id, user_id, name, batch_size_liters, \
         boil_off_liters_per_hour, trub_chiller_loss_liters, mash_tun_deadspace_liters, \
         grain_absorption_liters_per_kg, top_up_water_liters, fermenter_loss_liters, \
         hop_utilization_percent, notes, created_at, updated_at) \
         VALUES (gen_random_uuid(), '{user}', 'Grainfather G30', 23, 3.5, 1.5, 0.5, 0.8, 0, 1, \
         100, 'Sparge with 4 L less when the grist is over 6 kg.', now(), now()) RETURNING id"
    ))?;
    let statements = [
        format!(
            "INSERT INTO recipes (id, user_id, name, style, type, batch_size_liters, \
             boil_time_minutes, efficiency, notes, equipment_id, style_id, created_at, updated_at) \
             SELECT gen_random_uuid(), '{user}', 'House recipe ' || n || ' (' || s.name || ')', \
             s.name, 'all_grain', 19 + n % 5, 60 + 30 * (n % 2), 0.72, \
             'Brewed for the club competition. Mash a degree lower next time: the last batch \
             finished at 1.014 and tasted sweeter than planned. Dry hop on day 4, cold crash on \
             day 10, keg at 2.4 volumes. Batch ' || n || '.', '{equipment}', s.id, \
             now() - (n || ' days')::interval, now() - (n || ' minutes')::interval \
             FROM generate_series(1, {RECIPES}) n, LATERAL (SELECT (ARRAY['21A','1D','18B',\
             '13C','10A','25B'])[1 + n % 6] AS id, (ARRAY['American IPA','American Wheat Beer',\
             'American Pale Ale','English Porter','Weissbier','Saison'])[1 + n % 6] AS name) s"
        ),
        format!(
            "INSERT INTO fermentables (id, user_id, recipe_id, name, type, amount_kg, color_srm, \
             yield_percent, origin, notes, sort_order, created_at) \
             SELECT gen_random_uuid(), r.user_id, r.id, (ARRAY['Maris Otter','Munich Malt',\
             'Crystal 60','Flaked Oats','Wheat Malt','Chocolate Malt','Corn Sugar'])[k], \
             (ARRAY['grain','grain','grain','adjunct','grain','grain','sugar'])[k], \
             (ARRAY[4.5,0.8,0.3,0.25,0.5,0.05,0.2])[k], (ARRAY[3,9,60,1,2,350,0])[k], \
             (ARRAY[81,80,74,70,82,60,100])[k], (ARRAY['UK','DE','UK','US','DE','UK','US'])[k], \
             CASE WHEN k = 1 THEN 'Floor-malted; crush a little finer than the rest.' END, k - 1, \
             r.created_at FROM recipes r, generate_series(1, 7) k WHERE r.user_id = '{user}'"
        ),
        format!(
            "INSERT INTO hops (id, user_id, recipe_id, name, alpha_acid, amount_grams, \
             time_minutes, use, form, temperature_c, sort_order, created_at) \
             SELECT gen_random_uuid(), r.user_id, r.id, (ARRAY['Magnum','Cascade','Centennial',\
             'Citra','Mosaic','Simcoe','Amarillo'])[k], (ARRAY[13,6,10,12,12,13,9])[k], \
             (ARRAY[20,30,30,40,60,50,50])[k], (ARRAY[60,15,5,0,20,4320,4320])[k], \
             (ARRAY['boil','boil','boil','aroma','whirlpool','dry_hop','dry_hop'])[k], 'pellet', \
             CASE WHEN k = 5 THEN 80 END, k - 1, r.created_at \
             FROM recipes r, generate_series(1, 7) k WHERE r.user_id = '{user}'"
        ),
        format!(
            "INSERT INTO yeasts (id, user_id, recipe_id, name, lab, product_id, type, form, \
             attenuation, min_temp_c, max_temp_c, amount, amount_unit, notes, sort_order, \
             created_at) \
             SELECT gen_random_uuid(), r.user_id, r.id, 'Safale US-05', 'Fermentis', 'US-05', \
             'ale', 'dry', 81, 15, 24, 1, 'pkg', 'Rehydrate in 100 ml of water at 27 °C.', 0, \
             r.created_at FROM recipes r WHERE r.user_id = '{user}'"
        ),
        format!(
            "INSERT INTO miscs (id, user_id, recipe_id, name, type, use, amount, amount_unit, \
             time_minutes, notes, sort_order, created_at) \
             SELECT gen_random_uuid(), r.user_id, r.id, (ARRAY['Irish Moss','Yeast Nutrient',\
             'Orange Peel'])[k], (ARRAY['fining','other','spice'])[k], \
             (ARRAY['boil','boil','boil'])[k], (ARRAY[5,2,15])[k], 'g', (ARRAY[15,10,5])[k], \
             CASE WHEN k = 3 THEN 'Fresh zest only, no pith.' END, k - 1, r.created_at \
             FROM recipes r, generate_series(1, 3) k WHERE r.user_id = '{user}'"
        ),
        format!(
            "INSERT INTO water_additions (id, user_id, recipe_id, agent, amount, \
             strength_percent, acid_percent, step, sort_order, created_at) \
             SELECT gen_random_uuid(), r.user_id, r.id, (ARRAY['gypsum','calcium_chloride',\
             'epsom_salt','lactic_acid'])[k], (ARRAY[6,4,1,3])[k], \
             CASE WHEN k = 4 THEN 80 END, NULL, (ARRAY['mash','mash','mash','mash'])[k], k - 1, \
             r.created_at FROM recipes r, generate_series(1, 4) k WHERE r.user_id = '{user}'"
        ),
        format!(
            "INSERT INTO mash_steps (id, user_id, recipe_id, name, type, temperature_c, \
             duration_minutes, infuse_amount_liters, ramp_minutes, sort_order, created_at) \
             SELECT gen_random_uuid(), r.user_id, r.id, (ARRAY['Protein rest',\
             'Saccharification','Mash out'])[k], 'temperature', (ARRAY[52,66,76])[k], \
             (ARRAY[15,60,10])[k], CASE WHEN k = 1 THEN 16 END, \
             (ARRAY[NULL,5,5])[k]::double precision, k - 1, r.created_at \
             FROM recipes r, generate_series(1, 3) k WHERE r.user_id = '{user}'"
        ),
        format!(
            "INSERT INTO fermentation_steps (id, user_id, recipe_id, name, temperature_c, days, \
             until_gravity, until_attenuation_percent, sort_order, created_at) \
             SELECT gen_random_uuid(), r.user_id, r.id, (ARRAY['Primary','Diacetyl rest',\
             'Cold crash'])[k], (ARRAY[18,21,2])[k], (ARRAY[NULL,3,2])[k]::double precision, \
             CASE WHEN k = 1 THEN 1.014 END, NULL, k - 1, r.created_at \
             FROM recipes r, generate_series(1, 3) k WHERE r.user_id = '{user}'"
        ),
        "VACUUM ANALYZE".to_owned(),
    ];
    for sql in &statements {
        stage.sql_value(sql)?;
    }
    let count = stage.sql_value(&format!(
        "SELECT count(*) FROM recipes WHERE user_id = '{user}'"
    ))?;
    if count != RECIPES.to_string() {
        return Err(format!("seeded {count} recipes, not {RECIPES}"));
    }
    Ok(())
}
