//! A clone must build and pass on its own: nothing tracked may need the project's `shared/`
//! folder, which sits beside the repository on the project's machines and CI but not on a
//! user's. The one exception is the optional interchange corpus, which tests use only when it is
//! present (`crates/interchange/tests/common/mod.rs`); this module also reports how many of
//! those checks ran.

use std::{fs, path::Path, process::Command};

use crate::{cargo, target_dir, workspace_root};

/// The only path under `shared/` a tracked file may name: the optional corpus of real exports
/// whose licences do not allow copying them here.
const ALLOWED: &str = "/data/interchange/files";

/// Fails when a tracked file names the shared folder beside the repository other than by the
/// optional corpus path.
pub fn check() -> Result<(), String> {
    let root = workspace_root();
    let output = Command::new("git")
        .args(["ls-files", "-z"])
        .current_dir(&root)
        .output();
    let files = match output {
        Ok(o) if o.status.success() => o.stdout,
        _ => {
            eprintln!("(skipped: not a git checkout, so there is no list of tracked files)");
            return Ok(());
        }
    };
    // Built from parts so that this file does not name it.
    let needle = format!("..{}shared", '/');
    let mut offences = Vec::new();
    for name in files.split(|b| *b == 0).filter(|n| !n.is_empty()) {
        let name = String::from_utf8_lossy(name);
        offences.extend(offences_in(&root.join(&*name), &name, &needle));
    }
    if offences.is_empty() {
        return Ok(());
    }
    Err(format!(
        "tracked files refer to {needle} (a user's clone has no such folder; vendor what the \
         licence allows, or read the optional corpus only through {needle}{ALLOWED} when it is \
         present):\n  {}",
        offences.join("\n  ")
    ))
}

/// Fails when `Cargo.lock` misses what the manifests ask for (a dependency added to a crate
/// without committing the lock's new line). cargo would quietly rewrite the lock on a fresh
/// clone's first build, so the clone would build, but from a lock file other than the one
/// committed; `--locked` refuses instead.
pub fn lock_is_current() -> Result<(), String> {
    let output = cargo()
        .args(["metadata", "--locked", "--format-version", "1"])
        .output()
        .map_err(|e| format!("could not run cargo metadata: {e}"))?;
    if output.status.success() {
        return Ok(());
    }
    Err(format!(
        "Cargo.lock is not current: build once and commit Cargo.lock with the manifest change\n{}",
        String::from_utf8_lossy(&output.stderr).trim()
    ))
}

fn offences_in(path: &Path, name: &str, needle: &str) -> Vec<String> {
    // Binary or unreadable files (images, fonts) name no path.
    let Ok(text) = fs::read_to_string(path) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let mut rest = line;
        while let Some(at) = rest.find(needle) {
            let after = &rest[at + needle.len()..];
            if !after.starts_with(ALLOWED) {
                found.push(format!("{name}:{}: {}", number + 1, line.trim()));
                break;
            }
            rest = after;
        }
    }
    found
}

/// One line on the optional corpus: how many checks on corpus-only files ran or were skipped,
/// from the markers the interchange tests leave under `target/tmp/interchange-corpus/`.
pub fn corpus_report() -> String {
    let dir = target_dir().join("tmp").join("interchange-corpus");
    let count = |outcome: &str| {
        fs::read_dir(dir.join(outcome)).map_or(0, |entries| entries.flatten().count())
    };
    let (run, skipped) = (count("run"), count("skipped"));
    match (run, skipped) {
        (0, 0) => "interchange corpus: no check on a corpus-only file was reached (filtered run?)"
            .to_owned(),
        (run, 0) => format!(
            "interchange corpus: {run} checks on corpus-only files ran (the corpus was found)"
        ),
        (run, skipped) => format!(
            "interchange corpus: {skipped} checks on corpus-only files skipped, {run} ran: those \
             files' licences do not allow copying them into the repository, and the corpus was \
             not found (set WORT_INTERCHANGE_CORPUS=<dir>, or keep it at \
             ../shared/data/interchange/files beside the repository)"
        ),
    }
}

/// Forgets the markers of an earlier run, so the report counts this one.
pub fn reset_corpus_report() {
    let _ = fs::remove_dir_all(target_dir().join("tmp").join("interchange-corpus"));
}
