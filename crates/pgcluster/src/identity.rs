//! Who runs the cluster: we do, unless we are root, in which case the `postgres` system user does
//! (PostgreSQL refuses to run as root).

use std::{
    env, fs,
    os::unix::process::CommandExt,
    path::{Path, PathBuf},
    process::{Command, Stdio},
};

use crate::error::ClusterError;

const CLUSTER_USER: &str = "postgres";

/// A system account, as `/etc/passwd` describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Account {
    pub uid: u32,
    pub gid: u32,
    pub home: PathBuf,
}

#[derive(Clone, Debug)]
pub(crate) struct Identity {
    /// Our effective uid.
    pub euid: u32,
    /// The account the cluster runs as when it is not us.
    pub run_as: Option<Account>,
}

impl Identity {
    pub fn detect() -> Result<Identity, ClusterError> {
        let euid = effective_uid()?;
        if euid != 0 {
            return Ok(Identity { euid, run_as: None });
        }
        let account = lookup(CLUSTER_USER).ok_or_else(|| {
            ClusterError::Setup(format!(
                "we run as root and PostgreSQL refuses to run as root, so the cluster must run as \
                 the `{CLUSTER_USER}` system user, which does not exist here. Create it (e.g. \
                 `useradd --system --home-dir /var/lib/postgresql {CLUSTER_USER}`; installing \
                 PostgreSQL's server package does this), run as an ordinary user, or set \
                 DATABASE_URL"
            ))
        })?;
        Ok(Identity {
            euid,
            run_as: Some(account),
        })
    }

    /// The uid the cluster's files and processes belong to.
    pub fn cluster_uid(&self) -> u32 {
        self.run_as
            .as_ref()
            .map_or(self.euid, |account| account.uid)
    }

    /// A command that runs as the cluster's user, from `/`, with no stdin and without the
    /// caller's `PG*` variables (they would override what we pass).
    pub fn command(&self, program: &Path) -> Command {
        let mut command = Command::new(program);
        if let Some(account) = &self.run_as {
            // std drops supplementary groups before setuid, so no root group leaks through.
            command
                .uid(account.uid)
                .gid(account.gid)
                .env("HOME", &account.home);
        }
        for (key, _) in env::vars_os() {
            if key.to_string_lossy().starts_with("PG") {
                command.env_remove(key);
            }
        }
        command.current_dir("/").stdin(Stdio::null());
        command
    }

    /// Gives `path` to the cluster's user (when that is not us).
    pub fn give(&self, path: &Path) -> Result<(), ClusterError> {
        match &self.run_as {
            Some(account) => std::os::unix::fs::chown(path, Some(account.uid), Some(account.gid))
                .map_err(ClusterError::io(format!(
                    "could not hand {} to {CLUSTER_USER}",
                    path.display()
                ))),
            None => Ok(()),
        }
    }

    /// When the cluster runs as another user: fails with a clear message unless that user can
    /// reach `dir` (every parent must be searchable by it).
    pub fn check_reachable(&self, dir: &Path) -> Result<(), ClusterError> {
        if self.reaches(dir) {
            return Ok(());
        }
        let blocking = dir
            .ancestors()
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .find(|p| !self.can_search(p));
        let blocking = blocking.unwrap_or(dir).display();
        Err(ClusterError::Setup(format!(
            "we run as root, so PostgreSQL runs as the `{CLUSTER_USER}` user, but `{CLUSTER_USER}` \
             cannot reach {}: it may not enter {blocking}. Put the data somewhere `{CLUSTER_USER}` \
             can reach (e.g. WORT_DATA_DIR=/var/lib/wort), let it through \
             (`chmod o+x {blocking}`), or set DATABASE_URL",
            dir.display()
        )))
    }

    /// Whether the cluster's user can reach `dir`: always when that user is us, else when every
    /// directory on the way is searchable by it.
    pub fn reaches(&self, dir: &Path) -> bool {
        self.run_as.is_none() || self.can_search(dir)
    }

    fn can_search(&self, dir: &Path) -> bool {
        self.command(Path::new("test"))
            .arg("-x")
            .arg(dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    }
}

/// From /proc (Linux), else from `id -u`.
fn effective_uid() -> Result<u32, ClusterError> {
    if let Ok(status) = fs::read_to_string("/proc/self/status") {
        let uid = status
            .lines()
            .find_map(|line| line.strip_prefix("Uid:"))
            .and_then(|ids| ids.split_whitespace().nth(1))
            .and_then(|euid| euid.parse().ok());
        if let Some(uid) = uid {
            return Ok(uid);
        }
    }
    let output = Command::new("id")
        .arg("-u")
        .output()
        .map_err(ClusterError::io("could not run `id -u`"))?;
    String::from_utf8_lossy(&output.stdout)
        .trim()
        .parse()
        .map_err(|_| {
            ClusterError::Setup("could not tell which user we run as (`id -u` failed)".to_owned())
        })
}

/// From /etc/passwd, else from `getent passwd` (LDAP and friends).
fn lookup(name: &str) -> Option<Account> {
    let from_file = fs::read_to_string("/etc/passwd")
        .ok()
        .and_then(|text| find_account(&text, name));
    from_file.or_else(|| {
        let output = Command::new("getent")
            .args(["passwd", name])
            .output()
            .ok()?;
        find_account(&String::from_utf8_lossy(&output.stdout), name)
    })
}

fn find_account(passwd: &str, name: &str) -> Option<Account> {
    passwd.lines().find_map(|line| {
        let fields: Vec<&str> = line.split(':').collect();
        match fields.as_slice() {
            [user, _, uid, gid, _, home, ..] if *user == name => Some(Account {
                uid: uid.parse().ok()?,
                gid: gid.parse().ok()?,
                home: PathBuf::from(home),
            }),
            _ => None,
        }
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use std::os::unix::fs::PermissionsExt;

    use super::*;

    #[test]
    fn passwd_lines_parse() {
        let passwd = "root:x:0:0:root:/root:/bin/bash\n\
                      postgresql:x:7:7::/nope:/bin/false\n\
                      postgres:x:101:104:PostgreSQL administrator,,,:/var/lib/postgresql:/bin/bash\n";
        assert_eq!(
            find_account(passwd, "postgres"),
            Some(Account {
                uid: 101,
                gid: 104,
                home: PathBuf::from("/var/lib/postgresql")
            })
        );
        assert_eq!(find_account(passwd, "nobody"), None);
    }

    #[test]
    fn as_root_postgres_cannot_pass_a_private_directory() {
        let identity = Identity::detect().unwrap();
        if identity.run_as.is_none() {
            eprintln!("skipped: not root, so the cluster runs as us");
            return;
        }
        let home = env::temp_dir().join(format!("wort-reach-{}", std::process::id()));
        let inside = home.join("checkout");
        fs::create_dir_all(&inside).unwrap();
        fs::set_permissions(&home, fs::Permissions::from_mode(0o700)).unwrap();
        let private = identity.reaches(&inside);
        let error = identity.check_reachable(&inside).map_err(|e| e.to_string());
        fs::set_permissions(&home, fs::Permissions::from_mode(0o755)).unwrap();
        let opened = identity.reaches(&inside);
        fs::remove_dir_all(&home).unwrap();
        assert!(
            !private,
            "postgres may not enter a 0700 directory of root's"
        );
        let error = error.unwrap_err();
        assert!(
            error.contains(&format!("may not enter {}", home.display())),
            "names the directory that blocks: {error}"
        );
        assert!(opened, "0755 lets it through");
        assert!(identity.reaches(Path::new("/var/lib")));
    }

    #[test]
    fn our_uid_matches_id() {
        let id = Command::new("id").arg("-u").output().unwrap();
        assert_eq!(
            effective_uid().unwrap().to_string(),
            String::from_utf8_lossy(&id.stdout).trim()
        );
    }
}
