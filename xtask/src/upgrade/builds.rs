//! Which commit `--from` names (a release of docs/releases.md, or any commit), and its `wort`
//! binary: built once from a `git worktree` of that commit into `target/upgrade-builds`, whose
//! dependencies stay compiled between runs (the next commit recompiles only the workspace crates).

use std::{
    fs,
    path::{Path, PathBuf},
    process::Command,
};

use crate::{cargo, target_dir, workspace_root};

/// A commit to upgrade from, with the name it was given.
#[derive(Clone, Debug)]
pub struct From {
    /// The release's version, or what `--from` said.
    pub label: String,
    /// The full commit id.
    pub commit: String,
}

/// One row of docs/releases.md's table.
#[derive(Clone, Debug, PartialEq)]
pub struct Release {
    pub version: String,
    pub commit: String,
}

pub fn releases_file() -> PathBuf {
    workspace_root().join("docs").join("releases.md")
}

/// The rows of the releases table (`| version | commit | date | migration |`), oldest first.
pub fn parse_releases(text: &str) -> Vec<Release> {
    text.lines()
        .filter_map(|line| {
            let cells: Vec<&str> = line
                .trim()
                .strip_prefix('|')?
                .split('|')
                .map(str::trim)
                .collect();
            let version = cells.first()?;
            let commit = cells.get(1)?;
            let is_commit = commit.len() >= 7 && commit.chars().all(|c| c.is_ascii_hexdigit());
            is_commit.then(|| Release {
                version: (*version).to_owned(),
                commit: (*commit).to_owned(),
            })
        })
        .collect()
}

/// `--from` resolved: a version of docs/releases.md, else any commit-ish git knows; without it,
/// the newest release listed.
pub fn resolve(from: Option<&str>) -> Result<From, String> {
    let file = releases_file();
    let text = fs::read_to_string(&file).unwrap_or_default();
    let releases = parse_releases(&text);
    let (label, wanted) = match from {
        None => {
            let newest = releases.last().ok_or_else(|| {
                format!(
                    "{} lists no release: name the commit to upgrade from with --from",
                    file.display()
                )
            })?;
            (newest.version.clone(), newest.commit.clone())
        }
        Some(name) => match releases.iter().find(|r| r.version == name) {
            Some(release) => (release.version.clone(), release.commit.clone()),
            None => (name.to_owned(), name.to_owned()),
        },
    };
    let output = git()
        .args(["rev-parse", "--verify", "--quiet"])
        .arg(format!("{wanted}^{{commit}}"))
        .output()
        .map_err(|e| format!("could not run git: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "`{wanted}` is neither a release of {} nor a commit of this repository",
            file.display()
        ));
    }
    let commit = String::from_utf8_lossy(&output.stdout).trim().to_owned();
    Ok(From { label, commit })
}

fn git() -> Command {
    let mut command = Command::new("git");
    command.current_dir(workspace_root());
    command
}

/// Where the old builds live: one target dir shared by every old commit.
pub fn builds_dir() -> PathBuf {
    target_dir().join("upgrade-builds")
}

/// The `wort` of `commit`, built on first use and kept as `upgrade-builds/bin/wort-<commit>`.
pub fn old_wort(commit: &str) -> Result<PathBuf, String> {
    let dir = builds_dir();
    let bin = dir.join("bin").join(format!("wort-{commit}"));
    if bin.is_file() {
        eprintln!("    {} (built before)", bin.display());
        return Ok(bin);
    }
    let short = commit.get(..12).unwrap_or(commit);
    let source = dir.join(format!("src-{short}"));
    remove_worktree(&source);
    let added = git()
        .args(["worktree", "add", "--detach", "--force"])
        .arg(&source)
        .arg(commit)
        .output()
        .map_err(|e| format!("could not run git: {e}"))?;
    if !added.status.success() {
        return Err(format!(
            "git worktree add {} {commit}: {}",
            source.display(),
            String::from_utf8_lossy(&added.stderr)
        ));
    }
    let built = build_in(&source, &dir);
    let copied = built.and_then(|wort| {
        fs::create_dir_all(dir.join("bin"))
            .and_then(|()| fs::copy(&wort, &bin))
            .map_err(|e| format!("copying {} to {}: {e}", wort.display(), bin.display()))
    });
    remove_worktree(&source);
    copied.map(|_| bin)
}

/// `cargo build -p wort-server --bin wort --locked` in `source` (its own Cargo.lock), debug.
fn build_in(source: &Path, target: &Path) -> Result<PathBuf, String> {
    let status = cargo()
        .current_dir(source)
        .env("CARGO_TARGET_DIR", target)
        .args(["build", "--locked", "-p", "wort-server", "--bin", "wort"])
        .status()
        .map_err(|e| format!("could not run cargo: {e}"))?;
    if !status.success() {
        return Err(format!(
            "cargo build of the old commit in {} failed",
            source.display()
        ));
    }
    Ok(target.join("debug").join("wort"))
}

fn remove_worktree(source: &Path) {
    if source.exists() {
        let _ = git()
            .args(["worktree", "remove", "--force"])
            .arg(source)
            .output();
        let _ = fs::remove_dir_all(source);
    }
    let _ = git().args(["worktree", "prune"]).output();
}

/// This checkout's `wort` (debug), built now.
pub fn current_wort() -> Result<PathBuf, String> {
    let status = cargo()
        .args(["build", "-p", "wort-server", "--bin", "wort"])
        .status()
        .map_err(|e| format!("could not run cargo: {e}"))?;
    if !status.success() {
        return Err("cargo build -p wort-server --bin wort failed".into());
    }
    Ok(target_dir().join("debug").join("wort"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_releases_table_is_read_and_other_lines_are_not() {
        let text = "# Releases\n\n| Version | Commit | Date | Newest migration |\n|---|---|---|---|\n\
                    | 0.9.0 | aa180eaf4b86 | 2026-11-24 | x |\n| 0.10.0 | c88977c | 2026-11-26 | y |\n\
                    | not | a commit | | |\n";
        assert_eq!(
            parse_releases(text),
            [
                Release {
                    version: "0.9.0".into(),
                    commit: "aa180eaf4b86".into()
                },
                Release {
                    version: "0.10.0".into(),
                    commit: "c88977c".into()
                }
            ]
        );
    }

    #[test]
    fn the_repositorys_releases_name_full_commits() {
        let releases = parse_releases(&fs::read_to_string(releases_file()).unwrap_or_default());
        assert!(releases.len() >= 2, "{releases:?}");
        assert!(releases.iter().all(|r| r.commit.len() == 40));
    }
}
