//! The benchmark's data set, made by SQL inside PostgreSQL (generate_series), in seconds.
//!
//! * `ORDINARY_ACCOUNTS` accounts with a few recipes, a session and some readings each: the
//!   tables and indexes hold other people's rows, as in a real installation.
//! * The heavy account: 10,000 recipes of 15 children each (4 fermentables, 5 hops, 1 yeast,
//!   2 miscs, 3 mash steps) and one brew session with 100,000 readings, one every 5 minutes.
//! * The light account: 1 recipe (same 15 children) and one session whose readings cover only the
//!   benchmarked day, so the one-day range returns the same 288 rows as on the heavy account.
//!
//! Ids and API keys of the two measured accounts are fixed, so the bench knows its URLs.

/// Ordinary accounts besides the heavy and the light one.
pub const ORDINARY_ACCOUNTS: u32 = 1_000;
const ORDINARY_RECIPES_EACH: u32 = 5;
const ORDINARY_READINGS_EACH: u32 = 100;
pub const HEAVY_RECIPES: u32 = 10_000;
pub const HEAVY_READINGS: u32 = 100_000;
/// Readings are 5 minutes apart: 288 a day.
pub const READINGS_PER_DAY: u32 = 288;

pub const HEAVY_USER: &str = "b0000000-0000-4000-8000-000000000001";
pub const LIGHT_USER: &str = "b0000000-0000-4000-8000-000000000002";
pub const HEAVY_SESSION: &str = "b0000000-0000-4000-8000-0000000000a1";
pub const LIGHT_SESSION: &str = "b0000000-0000-4000-8000-0000000000a2";
/// The light account's only recipe.
pub const LIGHT_RECIPE: &str = "b2000000-0000-4000-8000-000000000001";
/// The heavy account's readings start here; the benchmarked day is well inside them.
const HEAVY_FIRST_READING: &str = "2025-12-01T00:00:00Z";
pub const DAY_FROM: &str = "2026-03-01T00:00:00Z";
pub const DAY_TO: &str = "2026-03-02T00:00:00Z";

/// The heavy account's recipe `n` (1-based): `b1000000-0000-4000-8000-<n in hex>`.
pub fn heavy_recipe(n: u32) -> String {
    format!("b1000000-0000-4000-8000-{n:012x}")
}

/// A well-formed API key (`wort_` + 43 base62 characters) that is easy to recognise.
pub fn api_key(account: &str) -> String {
    format!("wort_{account:0<43}")
}

/// The heavy account's hydrometer token (`wortd_` + 43 base62 characters).
pub fn device_token() -> String {
    format!("wortd_{:0<43}", "benchDevice")
}

pub fn heavy_key() -> String {
    api_key("benchHeavy")
}

pub fn light_key() -> String {
    api_key("benchLight")
}

/// The whole seed, one transaction, then `ANALYZE` so the planner sees real sizes.
pub fn sql() -> String {
    let heavy_key = heavy_key();
    let light_key = light_key();
    let device_token = device_token();
    let heavy_recipe_ids = heavy_recipe_id_sql("n");
    let ordinary = ordinary_accounts_sql(1, ORDINARY_ACCOUNTS);
    let heavy_readings = heavy_readings_sql(0, HEAVY_READINGS);
    format!(
        r#"
\set ON_ERROR_STOP on
BEGIN;
{ordinary}
-- The two measured accounts. Any string will do as a password hash: these accounts only ever
-- use API keys; the database keeps only SHA-256 of a key.
INSERT INTO users (id, email, name, password_hash, created_at, updated_at)
SELECT '{HEAVY_USER}'::uuid, 'heavy@bench.example', 'Heavy Brewer',
       '$argon2id$v=19$m=19456,t=2,p=1$YmVuY2hzYWx0$bench', now() - interval '400 days', now() - interval '400 days'
UNION ALL
SELECT '{LIGHT_USER}'::uuid, 'light@bench.example', 'Light Brewer',
       '$argon2id$v=19$m=19456,t=2,p=1$YmVuY2hzYWx0$bench', now() - interval '400 days', now() - interval '400 days';
INSERT INTO api_keys (id, user_id, name, key_hash, start, prefix, enabled, expires_at, created_at, updated_at, last_used_at)
SELECT gen_random_uuid(), id, 'bench', sha256(convert_to(k, 'UTF8')), left(k, 9), 'wort_', true, NULL,
       now() - interval '30 days', now() - interval '30 days', NULL
FROM (
  SELECT '{HEAVY_USER}'::uuid AS id, '{heavy_key}' AS k
  UNION ALL SELECT '{LIGHT_USER}'::uuid, '{light_key}'
) keys;

-- The heavy account's 10,000 recipes and the light account's one.
CREATE TEMP TABLE new_recipes ON COMMIT DROP AS
SELECT {heavy_recipe_ids} AS id, '{HEAVY_USER}'::uuid AS user_id, n FROM generate_series(1, {HEAVY_RECIPES}) n
UNION ALL
SELECT '{LIGHT_RECIPE}'::uuid, '{LIGHT_USER}'::uuid, 1;
{recipes}
INSERT INTO brew_sessions (id, user_id, recipe_id, name, brew_date, status, notes, recipe_snapshot,
                           brewing_started_at, fermenting_started_at, created_at, updated_at)
SELECT id, user_id, NULL, 'Batch', '2025-11-30', 'fermenting', NULL, '{{}}'::jsonb,
       '2025-11-30T08:00:00Z', '2025-11-30T16:00:00Z', '2025-11-30T08:00:00Z', '2025-11-30T16:00:00Z'
FROM (VALUES ('{HEAVY_SESSION}'::uuid, '{HEAVY_USER}'::uuid), ('{LIGHT_SESSION}'::uuid, '{LIGHT_USER}'::uuid)) s(id, user_id);
{heavy_readings}
-- The light account's readings cover only the benchmarked day.
INSERT INTO fermentation_logs (id, user_id, session_id, logged_at, gravity, gravity_unit, temperature_c, ph, notes, created_at)
SELECT gen_random_uuid(), '{LIGHT_USER}'::uuid, '{LIGHT_SESSION}'::uuid, t, round((1.010 + 0.042 * exp(-i / 3000.0))::numeric, 4),
       'sg', round((18.5 + sin(i / 50.0))::numeric, 2), NULL, NULL, t
FROM (SELECT i, timestamptz '{DAY_FROM}' + i * interval '5 minutes' AS t
      FROM generate_series(0, {READINGS_PER_DAY} - 1) i) s;
-- The heavy account's hydrometer, posting into its session (the database keeps SHA-256 of the
-- token, as of an API key).
INSERT INTO devices (id, user_id, name, kind, session_id, token_hash, created_at, updated_at)
VALUES ('b0000000-0000-4000-8000-0000000000d1', '{HEAVY_USER}', 'Bench iSpindel', 'ispindel',
        '{HEAVY_SESSION}', sha256(convert_to('{device_token}', 'UTF8')), now(), now());
COMMIT;
VACUUM ANALYZE;
"#,
        recipes = recipes_sql(),
    )
}

/// Ordinary accounts `first..=last` (`brewer<n>@bench.example`, API key [`ordinary_key`]) with
/// their recipes, one fermenting session each and its readings: the rows of other people that
/// share every table and index with the measured accounts. Run inside a transaction.
pub fn ordinary_accounts_sql(first: u32, last: u32) -> String {
    format!(
        r#"
CREATE TEMP TABLE bench_users ON COMMIT DROP AS
SELECT gen_random_uuid() AS id, n FROM generate_series({first}, {last}) n;

INSERT INTO users (id, email, name, password_hash, created_at, updated_at)
SELECT id, 'brewer' || n || '@bench.example', 'Brewer ' || n,
       '$argon2id$v=19$m=19456,t=2,p=1$YmVuY2hzYWx0$bench', now() - interval '400 days', now() - interval '400 days'
FROM bench_users;

INSERT INTO api_keys (id, user_id, name, key_hash, start, prefix, enabled, expires_at, created_at, updated_at, last_used_at)
SELECT gen_random_uuid(), id, 'bench', sha256(convert_to(k, 'UTF8')), left(k, 9), 'wort_', true, NULL,
       now() - interval '30 days', now() - interval '30 days', NULL
FROM (SELECT id, 'wort_' || rpad('ordinary' || n, 43, 'x') AS k FROM bench_users) keys;

CREATE TEMP TABLE new_recipes ON COMMIT DROP AS
SELECT gen_random_uuid() AS id, u.id AS user_id, u.n * 10 + r AS n
FROM bench_users u, generate_series(1, {ORDINARY_RECIPES_EACH}) r;
{recipes}
DROP TABLE new_recipes;

INSERT INTO brew_sessions (id, user_id, recipe_id, name, brew_date, status, notes, recipe_snapshot,
                           brewing_started_at, fermenting_started_at, created_at, updated_at)
SELECT gen_random_uuid(), id, NULL, 'Batch', '2025-11-30', 'fermenting', NULL, '{{}}'::jsonb,
       '2025-11-30T08:00:00Z', '2025-11-30T16:00:00Z', '2025-11-30T08:00:00Z', '2025-11-30T16:00:00Z'
FROM bench_users;

-- Readings every 5 minutes: a falling gravity curve and a wobbling temperature.
INSERT INTO fermentation_logs (id, user_id, session_id, logged_at, gravity, gravity_unit, temperature_c, ph, notes, created_at)
SELECT gen_random_uuid(), b.user_id, b.id, t, round((1.010 + 0.042 * exp(-i / 3000.0))::numeric, 4),
       'sg', round((18.5 + sin(i / 50.0))::numeric, 2), NULL, NULL, t
FROM (SELECT b.user_id, b.id, i, timestamptz '{HEAVY_FIRST_READING}' + i * interval '5 minutes' AS t
      FROM brew_sessions b JOIN bench_users u ON u.id = b.user_id,
           generate_series(0, {ORDINARY_READINGS_EACH} - 1) i) b;
DROP TABLE bench_users;
"#,
        recipes = recipes_sql(),
    )
}

/// The recipes of the temp table `new_recipes (id, user_id, n)` with 15 children each.
/// updated_at is spread over a year, so the default order (-updated_at) is a real index walk.
fn recipes_sql() -> String {
    r#"
INSERT INTO recipes (id, user_id, name, style, type, batch_size_liters, boil_time_minutes, efficiency, notes, created_at, updated_at)
SELECT id, user_id, 'Recipe ' || n, (ARRAY['American IPA','Pale Ale','Stout','Pilsner','Saison','Hefeweizen'])[1 + n % 6],
       (ARRAY['all_grain','extract','partial_mash'])[1 + n % 3], 19 + n % 5, 60, 0.72,
       CASE WHEN n % 4 = 0 THEN 'Brewed for the club competition; adjust the late hops next time.' END,
       now() - interval '400 days' + (n % 365) * interval '1 day',
       now() - (n % 365) * interval '1 day' - (n % 1440) * interval '1 minute'
FROM new_recipes;

INSERT INTO fermentables (id, user_id, recipe_id, name, type, amount_kg, color_srm, yield_percent, origin, notes, sort_order, created_at)
SELECT gen_random_uuid(), r.user_id, r.id, (ARRAY['Maris Otter','Munich','Crystal 60','Flaked Oats'])[k],
       (ARRAY['grain','grain','grain','adjunct'])[k], (ARRAY[4.5, 0.8, 0.3, 0.25])[k],
       (ARRAY[3, 9, 60, 1])[k], (ARRAY[81, 80, 74, 70])[k], 'UK', NULL, k - 1, r.created_at
FROM recipes r JOIN new_recipes USING (id), generate_series(1, 4) k;

INSERT INTO hops (id, user_id, recipe_id, name, alpha_acid, amount_grams, time_minutes, use, sort_order, created_at)
SELECT gen_random_uuid(), r.user_id, r.id, (ARRAY['Magnum','Cascade','Centennial','Citra','Mosaic'])[k],
       (ARRAY[13, 6, 10, 12, 12])[k], (ARRAY[20, 30, 30, 40, 60])[k], (ARRAY[60, 15, 5, 0, 0])[k],
       (ARRAY['boil','boil','boil','whirlpool','dry_hop'])[k], k - 1, r.created_at
FROM recipes r JOIN new_recipes USING (id), generate_series(1, 5) k;

INSERT INTO yeasts (id, user_id, recipe_id, name, lab, product_id, type, form, attenuation, min_temp_c, max_temp_c, amount, amount_unit, notes, sort_order, created_at)
SELECT gen_random_uuid(), r.user_id, r.id, 'Safale US-05', 'Fermentis', 'US-05', 'ale', 'dry', 81, 15, 24, 1, 'pkg', NULL, 0, r.created_at
FROM recipes r JOIN new_recipes USING (id);

INSERT INTO miscs (id, user_id, recipe_id, name, type, use, amount, amount_unit, time_minutes, notes, sort_order, created_at)
SELECT gen_random_uuid(), r.user_id, r.id, (ARRAY['Irish Moss','Gypsum'])[k], (ARRAY['fining','water_agent'])[k],
       (ARRAY['boil','mash'])[k], (ARRAY[5, 4])[k], 'g', (ARRAY[15, 0])[k], NULL, k - 1, r.created_at
FROM recipes r JOIN new_recipes USING (id), generate_series(1, 2) k;

INSERT INTO mash_steps (id, user_id, recipe_id, name, type, temperature_c, duration_minutes, infuse_amount_liters, ramp_minutes, sort_order, created_at)
SELECT gen_random_uuid(), r.user_id, r.id, (ARRAY['Protein rest','Saccharification','Mash out'])[k], 'temperature',
       (ARRAY[52, 66, 76])[k], (ARRAY[15, 60, 10])[k], NULL, (ARRAY[NULL, 5, 5])[k]::double precision, k - 1, r.created_at
FROM recipes r JOIN new_recipes USING (id), generate_series(1, 3) k;
"#
    .to_owned()
}

/// The heavy session's readings `first..last` (0-based), 5 minutes apart from
/// `HEAVY_FIRST_READING`: a falling gravity curve and a wobbling temperature.
pub fn heavy_readings_sql(first: u32, last: u32) -> String {
    format!(
        r#"
INSERT INTO fermentation_logs (id, user_id, session_id, logged_at, gravity, gravity_unit, temperature_c, ph, notes, created_at)
SELECT gen_random_uuid(), '{HEAVY_USER}'::uuid, '{HEAVY_SESSION}'::uuid, t, round((1.010 + 0.042 * exp(-(i % 20000) / 3000.0))::numeric, 4),
       'sg', round((18.5 + sin(i / 50.0))::numeric, 2), NULL, NULL, t
FROM (SELECT i, timestamptz '{HEAVY_FIRST_READING}' + i * interval '5 minutes' AS t
      FROM generate_series({first}, {last} - 1) i) s;
"#
    )
}

/// An ordinary account's API key (the seed's `'wort_' || rpad('ordinary' || n, 43, 'x')`).
pub fn ordinary_key(n: u32) -> String {
    format!("wort_{:x<43}", format!("ordinary{n}"))
}

fn heavy_recipe_id_sql(n: &str) -> String {
    format!("('b1000000-0000-4000-8000-' || lpad(to_hex({n}), 12, '0'))::uuid")
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use super::*;

    #[test]
    fn keys_look_like_real_ones() {
        for key in [heavy_key(), light_key()] {
            assert_eq!(key.len(), 5 + 43);
            assert!(key.starts_with("wort_"));
            assert!(key[5..].bytes().all(|b| b.is_ascii_alphanumeric()));
        }
    }

    #[test]
    fn heavy_recipe_ids_match_the_sql() {
        assert_eq!(heavy_recipe(5_000), "b1000000-0000-4000-8000-000000001388");
    }
}
