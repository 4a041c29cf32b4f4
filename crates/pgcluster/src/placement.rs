//! Where a cluster really lives. As root, the cluster runs as `postgres`, which must be able to
//! reach its directory; a checkout under a private home (`/root`, mode 0700) is out of its reach.
//! Rather than ask the person to open up their home, a new cluster for such a directory is made
//! under `/var/lib/wort/<hash of the directory>/pg` (persistent, outside every home, reachable by
//! `postgres`), and a note in the directory asked for says where it went.

use std::{
    fs, io,
    os::unix::{ffi::OsStrExt, fs::PermissionsExt},
    path::{Path, PathBuf},
};

use crate::{error::ClusterError, identity::Identity, layout::fnv1a};

/// Where relocated clusters live: persistent (unlike /tmp), and searchable by everyone.
pub(crate) const RELOCATION_BASE: &str = "/var/lib/wort";
/// The note left in the directory asked for: the path of the directory actually used.
pub(crate) const NOTE: &str = "relocated-to";
/// Beside a relocated cluster: the path of the directory that was asked for.
const ORIGIN: &str = "origin";

/// What the decision looks at.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Facts {
    /// The cluster runs as another user than us (we are root).
    pub other_user: bool,
    /// That user can reach the directory asked for.
    pub reachable: bool,
    /// The directory asked for already has a `data/` directory (a cluster, or the start of one).
    pub cluster_there: bool,
    /// The relocated directory exists: an earlier start relocated this cluster.
    pub relocated_before: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Placement {
    AsAsked,
    Relocated,
}

/// Data stays where it already is: a cluster in the directory asked for is never hidden by a new
/// empty one elsewhere (if `postgres` cannot reach it, starting fails and says why), and one that
/// was relocated stays relocated even if the directory becomes reachable later. A new cluster is
/// relocated only when it has to be.
pub(crate) fn decide(facts: Facts) -> Placement {
    if !facts.other_user || facts.cluster_there {
        Placement::AsAsked
    } else if facts.relocated_before || !facts.reachable {
        Placement::Relocated
    } else {
        Placement::AsAsked
    }
}

/// `<base>/<hash of asked>/pg`: the same on every start for the same directory. `asked` must be
/// canonical.
pub(crate) fn relocated_root(base: &Path, asked: &Path) -> PathBuf {
    base.join(format!("{:016x}", fnv1a(asked.as_os_str().as_bytes())))
        .join("pg")
}

/// The directory the cluster is kept in.
#[derive(Clone, Debug)]
pub(crate) struct Root {
    pub path: PathBuf,
    /// The directory asked for, when the cluster lives elsewhere.
    pub relocated_from: Option<PathBuf>,
}

/// Decides where the cluster for `asked` (canonical) lives, and prepares that place when it is
/// not `asked`: `<base>/<hash>/` (mode 0755, with a file naming `asked`), `<base>/<hash>/pg/`
/// (mode 0700; handed to the cluster's user later, like any cluster directory), and a note in
/// `asked` naming the directory used.
pub(crate) fn resolve(
    asked: &Path,
    identity: &Identity,
    base: &Path,
) -> Result<Root, ClusterError> {
    let relocated = relocated_root(base, asked);
    let other_user = identity.run_as.is_some();
    let facts = Facts {
        other_user,
        // Only asked about when it matters: it runs a process.
        reachable: !other_user || identity.reaches(asked),
        cluster_there: asked.join("data").exists(),
        relocated_before: relocated.exists(),
    };
    if decide(facts) == Placement::AsAsked {
        return Ok(Root {
            path: asked.to_path_buf(),
            relocated_from: None,
        });
    }
    prepare(asked, &relocated)?;
    Ok(Root {
        path: relocated,
        relocated_from: Some(asked.to_path_buf()),
    })
}

fn prepare(asked: &Path, relocated: &Path) -> Result<(), ClusterError> {
    let holder = relocated.parent().unwrap_or(relocated);
    if let Some(base) = holder.parent() {
        create_with_mode(base, 0o755)?;
    }
    create_with_mode(holder, 0o755)?;
    create_with_mode(relocated, 0o700)?;
    write_line(&holder.join(ORIGIN), asked)?;
    write_line(&asked.join(NOTE), relocated)
}

/// Creates `dir` (and its parents) and gives it `mode` whatever the umask; a directory that
/// exists already keeps its mode (the reachability check that follows names it if it blocks).
fn create_with_mode(dir: &Path, mode: u32) -> Result<(), ClusterError> {
    if dir.is_dir() {
        return Ok(());
    }
    match fs::create_dir_all(dir) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => return Ok(()),
        Err(e) => {
            return Err(ClusterError::Io {
                context: format!(
                    "could not create {} (for a cluster the `postgres` user can reach)",
                    dir.display()
                ),
                source: e,
            });
        }
    }
    fs::set_permissions(dir, fs::Permissions::from_mode(mode)).map_err(ClusterError::io(format!(
        "could not set the mode of {}",
        dir.display()
    )))
}

fn write_line(file: &Path, content: &Path) -> Result<(), ClusterError> {
    let mut text = content.as_os_str().as_bytes().to_vec();
    text.push(b'\n');
    fs::write(file, text).map_err(ClusterError::io(format!(
        "could not write {}",
        file.display()
    )))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use super::*;

    const NEW_AND_BLOCKED: Facts = Facts {
        other_user: true,
        reachable: false,
        cluster_there: false,
        relocated_before: false,
    };

    #[test]
    fn a_new_cluster_the_cluster_user_cannot_reach_is_relocated() {
        assert_eq!(decide(NEW_AND_BLOCKED), Placement::Relocated);
    }

    #[test]
    fn a_reachable_directory_or_one_we_run_ourselves_is_used_as_asked() {
        let reachable = Facts {
            reachable: true,
            ..NEW_AND_BLOCKED
        };
        assert_eq!(decide(reachable), Placement::AsAsked);
        // Not root: the cluster runs as us, who made the directory.
        let ourselves = Facts {
            other_user: false,
            ..NEW_AND_BLOCKED
        };
        assert_eq!(decide(ourselves), Placement::AsAsked);
    }

    #[test]
    fn existing_data_is_never_hidden_by_a_new_cluster_elsewhere() {
        // A cluster already there: used (and refused with a clear message if unreachable).
        for relocated_before in [false, true] {
            let there = Facts {
                cluster_there: true,
                relocated_before,
                ..NEW_AND_BLOCKED
            };
            assert_eq!(decide(there), Placement::AsAsked);
        }
        // Relocated before, then the home was opened up: the data stays where it went.
        let opened_later = Facts {
            reachable: true,
            relocated_before: true,
            ..NEW_AND_BLOCKED
        };
        assert_eq!(decide(opened_later), Placement::Relocated);
    }

    #[test]
    fn the_relocated_directory_is_stable_per_directory_and_outside_homes() {
        let base = Path::new(RELOCATION_BASE);
        let a = relocated_root(base, Path::new("/root/wort/.wort/pg"));
        assert_eq!(a, relocated_root(base, Path::new("/root/wort/.wort/pg")));
        assert_ne!(a, relocated_root(base, Path::new("/root/other/.wort/pg")));
        let text = a.to_str().unwrap();
        assert!(text.starts_with("/var/lib/wort/"), "{text}");
        assert!(text.ends_with("/pg"), "{text}");
        // `<base>/<16 hex digits>/pg`: short enough for the socket to stay beside the data.
        assert_eq!(text.len(), "/var/lib/wort/".len() + 16 + "/pg".len());
    }
}
