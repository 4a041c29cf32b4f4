//! Mutated real files (bytes flipped, inserted, deleted, spans duplicated, cut): the parsers
//! return a value or an error, never panic, and stay fast.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod common;

use std::time::{Duration, Instant};

use proptest::prelude::*;
use wort_interchange::import;

const SEEDS: &[&str] = &[
    "bx_brewersfriend_tubbs_ii.xml",
    "bx_beersmith_aussie_ale.xml",
    "bx_diydog_punk_ipa.xml",
    "enc_utf8_bom_tubbs_ii.xml",
    "bj_units_constructed.json",
    "bj_brett_dosed_kegs_saison.json",
];

#[derive(Debug, Clone)]
enum Edit {
    Set(usize, u8),
    Insert(usize, u8),
    Delete(usize, usize),
    Duplicate(usize, usize),
    Truncate(usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    // Bytes that matter to the grammars more often than chance would pick them.
    let byte = prop_oneof![
        any::<u8>(),
        prop::sample::select(b"<>/&;#\"'{}[]:,0123456789.-eE \n\x00\xFF".to_vec()),
    ];
    prop_oneof![
        (any::<usize>(), byte.clone()).prop_map(|(i, b)| Edit::Set(i, b)),
        (any::<usize>(), byte).prop_map(|(i, b)| Edit::Insert(i, b)),
        (any::<usize>(), 1usize..64).prop_map(|(i, n)| Edit::Delete(i, n)),
        (any::<usize>(), 1usize..256).prop_map(|(i, n)| Edit::Duplicate(i, n)),
        any::<usize>().prop_map(Edit::Truncate),
    ]
}

fn apply(bytes: &mut Vec<u8>, e: &Edit) {
    let len = bytes.len().max(1);
    match *e {
        Edit::Set(i, b) => {
            if let Some(x) = bytes.get_mut(i % len) {
                *x = b;
            }
        }
        Edit::Insert(i, b) => bytes.insert(i % (bytes.len() + 1), b),
        Edit::Delete(i, n) => {
            let start = i % len;
            let end = (start + n).min(bytes.len());
            bytes.drain(start.min(end)..end);
        }
        Edit::Duplicate(i, n) => {
            let start = i % len;
            let end = (start + n).min(bytes.len());
            let span: Vec<u8> = bytes[start.min(end)..end].to_vec();
            bytes.splice(end..end, span);
        }
        Edit::Truncate(i) => bytes.truncate(i % len),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn mutated_real_files_never_panic(
        seed in prop::sample::select(SEEDS),
        edits in prop::collection::vec(edit(), 1..8),
    ) {
        let mut bytes = common::vendored(seed);
        for e in &edits {
            apply(&mut bytes, e);
        }
        let start = Instant::now();
        // Either outcome is fine; a panic fails the test.
        let _ = import(&bytes, common::format_of(seed));
        // Generous: a debug build on a shared machine; real imports take about a millisecond.
        prop_assert!(start.elapsed() < Duration::from_secs(2));
    }
}
