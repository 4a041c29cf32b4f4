//! Shared helpers of the integration tests: the test files, and turning an imported recipe into
//! the stored shape (`RecipeDetail`) the exporters take, as the database would.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::PathBuf;

use wort_interchange::domain::{RecipeDetail, RecipeForExport};
use wort_interchange::{Format, ImportedRecipe};

/// A file vendored under `tests/data/files` (licence allows it).
pub fn vendored(name: &str) -> Vec<u8> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/files")
        .join(name);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Real exports whose licence does not allow copying them into the repository
/// (`tests/data/SOURCES.md`): tests on them run only where the corpus is present.
pub const CORPUS_ONLY: &[&str] = &[
    "bx_brewfather_philter_xpa.xml",
    "bx_brewtarget_smash_vienna_amarillo.xml",
    "bx_brewtarget_encoding_system.xml",
    "bx_grainfather_rose_ipa.xml",
    "enc_windows1252_zatec.xml",
    "bx_brewtlery_uneticky_vzor.xml",
    "enc_utf16_bom_uneticky_vzor.xml",
    "bj_linusu_bjornen.json",
    "bj_linusu_svartan.json",
];

/// Where the optional corpus is: `WORT_INTERCHANGE_CORPUS` when set (it must then exist: asking
/// for the corpus and silently not getting it would hide a mistake), else
/// `../shared/data/interchange/files` beside the repository when that exists, else nowhere.
pub fn corpus_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("WORT_INTERCHANGE_CORPUS").filter(|d| !d.is_empty()) {
        let dir = PathBuf::from(dir);
        assert!(
            dir.is_dir(),
            "WORT_INTERCHANGE_CORPUS={} is not a directory",
            dir.display()
        );
        return Some(dir);
    }
    let beside =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/interchange/files");
    beside.is_dir().then_some(beside)
}

/// Records that `test` ran (or skipped) its checks on a corpus-only `file`, as an empty marker
/// file under the target directory; `cargo xtask test` counts them and prints one line.
fn record(outcome: &str, test: &str, file: &str) {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("interchange-corpus")
        .join(outcome);
    // Best effort: the count is a report, never a reason to fail a test.
    let _ = std::fs::create_dir_all(&dir);
    let _ = std::fs::write(dir.join(format!("{test}--{file}")), b"");
}

/// Whether `test` can use `name`: always for a vendored file; for a corpus-only one, when the
/// corpus is present. Each corpus-only answer is recorded (see `record`).
pub fn available(test: &str, name: &str) -> bool {
    if !CORPUS_ONLY.contains(&name) {
        return true;
    }
    let present = corpus_dir().is_some_and(|d| d.join(name).is_file());
    record(if present { "run" } else { "skipped" }, test, name);
    present
}

/// The files of `names` that `test` can use (see `available`).
pub fn usable<'a>(test: &str, names: &[&'a str]) -> Vec<&'a str> {
    names
        .iter()
        .copied()
        .filter(|n| available(test, n))
        .collect()
}

/// A test file's bytes: vendored when it is, else from the corpus. Callers check `available`
/// first for corpus-only files.
pub fn file(name: &str) -> Vec<u8> {
    if !CORPUS_ONLY.contains(&name) {
        return vendored(name);
    }
    let dir = corpus_dir().unwrap_or_else(|| panic!("{name} is corpus-only: check `available`"));
    let p = dir.join(name);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

pub fn format_of(name: &str) -> Format {
    if name.ends_with(".json") {
        Format::BeerJson
    } else {
        Format::BeerXml
    }
}

/// Every real or constructed file that must import (the corpus's "ok" and "either" buckets).
pub const IMPORTABLE: &[&str] = &[
    "bx_beersmith_aussie_ale.xml",
    "bx_brewersfriend_tubbs_ii.xml",
    "bx_brewersfriend_vanilla_cream_ale.xml",
    "bx_brewfather_philter_xpa.xml",
    "bx_brewtarget_2011_ten_recipes.xml",
    "bx_brewtarget_coffee_stout.xml",
    "bx_brewtarget_encoding_system.xml",
    "bx_brewtarget_smash_vienna_amarillo.xml",
    "bx_brewtlery_uneticky_vzor.xml",
    "bx_de_almtaler_weizen.xml",
    "bx_de_ipl_comet.xml",
    "bx_diydog_punk_ipa.xml",
    "bx_grainfather_rose_ipa.xml",
    "enc_iso8859_1_almtaler_weizen.xml",
    "enc_utf16_bom_uneticky_vzor.xml",
    "enc_utf8_bom_tubbs_ii.xml",
    "enc_windows1252_ipl_comet.xml",
    "enc_windows1252_zatec.xml",
    "bj_converted_generic_onehf.json",
    "bj_brett_dosed_kegs_saison.json",
    "bj_medieval_ale.json",
    "bj_units_constructed.json",
    "constructed_water_agents.xml",
    "constructed_equipment.json",
];

pub fn import_ok(name: &str) -> wort_interchange::Import {
    wort_interchange::import(&file(name), format_of(name))
        .unwrap_or_else(|e| panic!("{name}: {e:?}"))
}

/// Recipes as an export takes them, without an equipment profile.
pub fn for_export(details: Vec<RecipeDetail>) -> Vec<RecipeForExport> {
    details
        .into_iter()
        .map(|d| RecipeForExport::new(d, None))
        .collect()
}

/// The recipe as the database would hold it after the import (ids and timestamps made up).
pub fn detail(r: &ImportedRecipe) -> RecipeDetail {
    wort_interchange::preview(r)
}
