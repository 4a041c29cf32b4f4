//! Where a cluster's pieces live inside its directory, and which port it uses.

use std::{
    os::unix::ffi::OsStrExt,
    path::{Path, PathBuf},
};

/// `sun_path` holds 108 bytes including the terminating NUL.
const MAX_SOCKET_PATH: usize = 107;
/// Ports we pick from: clear of the well-known range and of 5432.
const PORT_BASE: u16 = 20_000;
const PORT_SPAN: u64 = 40_000;

/// ```text
/// <root>/data/          the cluster (PGDATA), made by initdb
/// <root>/run/           the Unix socket directory (or /tmp/wort-pg-<hash>/ when <root> is long)
/// <root>/postgres.log   the server log
/// <root>/owner.pid      the process that started the server and will stop it
/// ```
#[derive(Clone, Debug)]
pub(crate) struct Layout {
    pub root: PathBuf,
    pub data: PathBuf,
    pub log: PathBuf,
    pub owner_file: PathBuf,
    pub socket_dir: PathBuf,
    /// The socket dir is the short fallback under /tmp, removed when the cluster stops.
    pub socket_in_tmp: bool,
    pub port: u16,
}

impl Layout {
    /// `root` must be absolute and canonical, so that the port and fallback socket dir derived
    /// from it are the same on every start.
    pub fn new(root: PathBuf) -> Layout {
        let hash = fnv1a(root.as_os_str().as_bytes());
        let port = PORT_BASE + u16::try_from(hash % PORT_SPAN).unwrap_or(0);
        let beside = root.join("run");
        let (socket_dir, socket_in_tmp) = if socket_dir_usable(&beside) {
            (beside, false)
        } else {
            (PathBuf::from(format!("/tmp/wort-pg-{hash:016x}")), true)
        };
        Layout {
            data: root.join("data"),
            log: root.join("postgres.log"),
            owner_file: root.join("owner.pid"),
            socket_dir,
            socket_in_tmp,
            port,
            root,
        }
    }

    pub fn socket_file(&self, dir: &Path, port: u16) -> PathBuf {
        dir.join(format!(".s.PGSQL.{port}"))
    }
}

/// Short enough for `<dir>/.s.PGSQL.<port>` to fit a socket address, and plain enough to pass
/// through pg_ctl's shell and PostgreSQL's comma-separated list syntax unharmed.
fn socket_dir_usable(dir: &Path) -> bool {
    let bytes = dir.as_os_str().as_bytes();
    bytes.len() + "/.s.PGSQL.65535".len() <= MAX_SOCKET_PATH
        && bytes
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || b"/._-+@~:=".contains(b))
}

/// FNV-1a: stable across Rust releases, unlike `DefaultHasher`.
pub(crate) fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use super::*;

    #[test]
    fn short_dirs_keep_their_socket_inside() {
        let layout = Layout::new(PathBuf::from("/srv/wort/.wort/pg"));
        assert_eq!(layout.socket_dir, Path::new("/srv/wort/.wort/pg/run"));
        assert!(!layout.socket_in_tmp);
        assert_eq!(layout.data, Path::new("/srv/wort/.wort/pg/data"));
    }

    #[test]
    fn long_or_odd_dirs_get_a_short_socket_dir_in_tmp() {
        let long = PathBuf::from(format!("/home/someone/{}/pg", "x".repeat(90)));
        let spaced = PathBuf::from("/home/some one/pg");
        for root in [long, spaced] {
            let layout = Layout::new(root);
            assert!(layout.socket_in_tmp);
            assert!(
                layout
                    .socket_dir
                    .to_string_lossy()
                    .starts_with("/tmp/wort-pg-")
            );
            let socket = layout.socket_file(&layout.socket_dir, 65535);
            assert!(socket.as_os_str().len() <= MAX_SOCKET_PATH);
        }
    }

    #[test]
    fn ports_are_stable_per_dir_and_differ_between_dirs() {
        let a = Layout::new(PathBuf::from("/a/pg"));
        let b = Layout::new(PathBuf::from("/b/pg"));
        assert_eq!(a.port, Layout::new(PathBuf::from("/a/pg")).port);
        assert_ne!(a.port, b.port);
        for layout in [a, b] {
            assert!((20_000..60_000).contains(&layout.port));
            assert_ne!(layout.port, 5432);
        }
    }
}
