//! Reading `postmaster.pid`, which a running server keeps in its data directory.

use std::{
    fs, io,
    path::{Path, PathBuf},
};

use crate::error::ClusterError;

/// What `postmaster.pid` says. Lines: pid, data dir, start time, port, first socket dir, first
/// listen address, shared memory key, status (`starting`, `stopping`, `ready`, `standby`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Postmaster {
    pub pid: u32,
    pub port: Option<u16>,
    pub socket_dir: Option<PathBuf>,
    pub status: String,
}

impl Postmaster {
    pub fn is_ready(&self) -> bool {
        self.status == "ready"
    }
}

pub(crate) fn path(data: &Path) -> PathBuf {
    data.join("postmaster.pid")
}

pub(crate) fn read(data: &Path) -> Result<Option<Postmaster>, ClusterError> {
    let file = path(data);
    match fs::read_to_string(&file) {
        Ok(text) => Ok(parse(&text)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(ClusterError::Io {
            context: format!("could not read {}", file.display()),
            source: e,
        }),
    }
}

/// `None` for a file too short to name a pid (a server that is writing it right now).
pub(crate) fn parse(text: &str) -> Option<Postmaster> {
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let line = |n: usize| lines.get(n).copied().filter(|l| !l.is_empty());
    Some(Postmaster {
        pid: line(0)?.parse().ok()?,
        port: line(3).and_then(|p| p.parse().ok()),
        socket_dir: line(4).map(PathBuf::from),
        status: line(7).unwrap_or_default().to_owned(),
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use super::*;

    #[test]
    fn a_ready_server_file_parses() {
        let text = "4242\n/x/pg/data\n1763800000\n23456\n/x/pg/run\n\n  1234567  98304\nready   \n";
        let pm = parse(text).unwrap();
        assert_eq!(pm.pid, 4242);
        assert_eq!(pm.port, Some(23456));
        assert_eq!(pm.socket_dir.as_deref(), Some(Path::new("/x/pg/run")));
        assert!(pm.is_ready());
    }

    #[test]
    fn partial_files_parse_as_far_as_they_go() {
        let pm = parse("4242\n/x/pg/data\n").unwrap();
        assert_eq!(
            (pm.port, pm.socket_dir.as_deref(), pm.is_ready()),
            (None, None, false)
        );
        assert_eq!(parse(""), None);
        assert_eq!(parse("garbage\n"), None);
    }
}
