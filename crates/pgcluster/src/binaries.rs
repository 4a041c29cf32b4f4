use std::{
    env,
    os::unix::fs::PermissionsExt,
    path::{Path, PathBuf},
    process::Command,
};

use crate::{error::ClusterError, process};

/// Where Debian/Ubuntu put each installed major version's server binaries.
const VERSIONED_ROOT: &str = "/usr/lib/postgresql";

/// The PostgreSQL server binaries of one installation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgBinaries {
    bin_dir: PathBuf,
}

impl PgBinaries {
    /// Finds `initdb`, `pg_ctl` and `postgres`: first on `PATH` (a symlink there counts as the
    /// directory it points into), then under `/usr/lib/postgresql/*/bin`, highest version first.
    pub fn locate() -> Result<PgBinaries, ClusterError> {
        let path = env::var_os("PATH").unwrap_or_default();
        Self::locate_in(env::split_paths(&path), Path::new(VERSIONED_ROOT))
    }

    /// The binaries of one major version (`"15"`) under `/usr/lib/postgresql`, if installed.
    pub fn locate_version(major: &str) -> Option<PgBinaries> {
        let dir = Path::new(VERSIONED_ROOT).join(major).join("bin");
        Self::in_dir(&dir)
    }

    fn locate_in(
        path: impl IntoIterator<Item = PathBuf>,
        versioned_root: &Path,
    ) -> Result<PgBinaries, ClusterError> {
        path.into_iter()
            .find_map(|dir| Self::on_path(&dir))
            .or_else(|| {
                versioned_dirs(versioned_root)
                    .iter()
                    .find_map(|dir| Self::in_dir(dir))
            })
            .ok_or(ClusterError::BinariesNotFound)
    }

    /// `dir` from `PATH`: the directory `initdb` really lives in (Debian symlinks the tools from
    /// /usr/local/bin or /usr/bin into /usr/lib/postgresql/N/bin), else `dir` itself.
    fn on_path(dir: &Path) -> Option<PgBinaries> {
        let initdb = dir.join("initdb");
        if !is_executable(&initdb) {
            return None;
        }
        let real = initdb.canonicalize().ok();
        real.as_deref()
            .and_then(Path::parent)
            .and_then(Self::in_dir)
            .or_else(|| Self::in_dir(dir))
    }

    fn in_dir(dir: &Path) -> Option<PgBinaries> {
        ["initdb", "pg_ctl", "postgres"]
            .iter()
            .all(|tool| is_executable(&dir.join(tool)))
            .then(|| PgBinaries {
                bin_dir: dir.to_path_buf(),
            })
    }

    pub fn bin_dir(&self) -> &Path {
        &self.bin_dir
    }

    pub fn initdb(&self) -> PathBuf {
        self.bin_dir.join("initdb")
    }

    pub fn pg_ctl(&self) -> PathBuf {
        self.bin_dir.join("pg_ctl")
    }

    pub fn postgres(&self) -> PathBuf {
        self.bin_dir.join("postgres")
    }

    /// A client tool (`psql`, `createdb`, `pg_isready`): the one beside the server binaries, else
    /// whatever `PATH` finds.
    pub fn tool(&self, name: &str) -> PathBuf {
        let beside = self.bin_dir.join(name);
        if is_executable(&beside) {
            beside
        } else {
            PathBuf::from(name)
        }
    }

    /// The full version, e.g. `"15.14"`, from `pg_ctl --version`.
    pub fn version(&self) -> Result<String, ClusterError> {
        let output = process::run(
            Command::new(self.pg_ctl()).arg("--version"),
            "pg_ctl --version",
        )?;
        let text = String::from_utf8_lossy(&output.stdout);
        parse_version(&text).ok_or_else(|| ClusterError::Command {
            what: "pg_ctl --version".to_owned(),
            detail: format!("unexpected output: {}", text.trim()),
        })
    }
}

/// `"pg_ctl (PostgreSQL) 15.14 (Debian 15.14-1.pgdg120+1)"` → `"15.14"`.
fn parse_version(text: &str) -> Option<String> {
    let after = text.split_once("(PostgreSQL)")?.1;
    let version: String = after
        .trim_start()
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    (!version.is_empty()).then_some(version)
}

/// Whether a cluster's `PG_VERSION` (`"15"`, or `"9.6"` before 10) belongs to a full version.
pub(crate) fn same_major(pg_version: &str, full_version: &str) -> bool {
    full_version == pg_version
        || full_version
            .strip_prefix(pg_version)
            .is_some_and(|rest| rest.starts_with('.'))
}

/// `<root>/<version>/bin` directories, highest version first.
fn versioned_dirs(root: &Path) -> Vec<PathBuf> {
    let Ok(entries) = root.read_dir() else {
        return Vec::new();
    };
    let mut versions: Vec<(Vec<u32>, PathBuf)> = entries
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let name = entry.file_name().into_string().ok()?;
            let key = name
                .split('.')
                .map(str::parse)
                .collect::<Result<Vec<u32>, _>>()
                .ok()?;
            Some((key, entry.path().join("bin")))
        })
        .collect();
    versions.sort_by(|a, b| b.0.cmp(&a.0));
    versions.into_iter().map(|(_, dir)| dir).collect()
}

fn is_executable(path: &Path) -> bool {
    path.metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use std::fs;

    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = env::temp_dir().join(format!("wort-pgbin-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn fake_install(bin: &Path) {
        fs::create_dir_all(bin).unwrap();
        for tool in ["initdb", "pg_ctl", "postgres"] {
            let file = bin.join(tool);
            fs::write(&file, "#!/bin/sh\n").unwrap();
            fs::set_permissions(&file, fs::Permissions::from_mode(0o755)).unwrap();
        }
    }

    #[test]
    fn nothing_found_names_the_three_ways_out() {
        let root = scratch("none");
        let error = PgBinaries::locate_in(vec![root.join("empty")], &root).unwrap_err();
        let message = error.to_string();
        assert!(message.contains("apt-get install postgresql"), "{message}");
        assert!(message.contains("DATABASE_URL"), "{message}");
        assert!(message.contains("docker compose up -d db"), "{message}");
        fs::remove_dir_all(root).unwrap();
    }

    #[test]
    fn highest_installed_version_wins() {
        let root = scratch("versions");
        for version in ["9.6", "15", "16", "notaversion"] {
            fake_install(&root.join(version).join("bin"));
        }
        let found = PgBinaries::locate_in(Vec::new(), &root).unwrap();
        assert_eq!(found.bin_dir(), root.join("16").join("bin"));
        fs::remove_dir_all(root).unwrap();
    }

    #[test]
    fn path_comes_before_versioned_dirs_and_follows_symlinks() {
        let root = scratch("path");
        fake_install(&root.join("16").join("bin"));
        let real = root.join("real");
        fake_install(&real);
        let linked = root.join("linked");
        fs::create_dir_all(&linked).unwrap();
        std::os::unix::fs::symlink(real.join("initdb"), linked.join("initdb")).unwrap();
        let found = PgBinaries::locate_in(vec![root.join("missing"), linked], &root).unwrap();
        assert_eq!(found.bin_dir(), real.canonicalize().unwrap());
        fs::remove_dir_all(root).unwrap();
    }

    #[test]
    fn versions_parse_and_match_cluster_majors() {
        assert_eq!(
            parse_version("pg_ctl (PostgreSQL) 15.14 (Debian 15.14-1.pgdg120+1)\n").as_deref(),
            Some("15.14")
        );
        assert_eq!(parse_version("pg_ctl 15").as_deref(), None);
        assert!(same_major("15", "15.14"));
        assert!(same_major("9.6", "9.6.24"));
        assert!(!same_major("1", "15.1"));
        assert!(!same_major("16", "15.14"));
    }
}
