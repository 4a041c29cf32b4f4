//! Running tools and asking about processes.

use std::{
    fs,
    path::Path,
    process::{Command, Output},
};

use crate::error::ClusterError;

/// Runs `command` to completion; a non-zero exit is an error carrying its output.
pub(crate) fn run(command: &mut Command, what: &str) -> Result<Output, ClusterError> {
    let output = command
        .output()
        .map_err(ClusterError::io(format!("could not run {what}")))?;
    if output.status.success() {
        Ok(output)
    } else {
        Err(ClusterError::Command {
            what: format!("{what} ({})", output.status),
            detail: output_text(&output),
        })
    }
}

pub(crate) fn output_text(output: &Output) -> String {
    let stderr = String::from_utf8_lossy(&output.stderr);
    let stdout = String::from_utf8_lossy(&output.stdout);
    [stderr.trim(), stdout.trim()]
        .iter()
        .filter(|s| !s.is_empty())
        .copied()
        .collect::<Vec<_>>()
        .join("\n")
}

/// Whether `pid` is a live (not zombie) process. Without /proc, asks `kill -0`.
pub(crate) fn alive(pid: u32) -> bool {
    if !Path::new("/proc/self").exists() {
        return Command::new("kill")
            .arg("-0")
            .arg(pid.to_string())
            .output()
            .is_ok_and(|o| o.status.success());
    }
    match fs::read_to_string(format!("/proc/{pid}/stat")) {
        // The state follows the parenthesised command name: "1234 (postgres) S ...".
        Ok(stat) => !matches!(
            stat.rsplit_once(") ")
                .and_then(|(_, rest)| rest.chars().next()),
            Some('Z' | 'X')
        ),
        Err(_) => false,
    }
}

/// Whether `pid` is a live PostgreSQL server of the cluster in `data`. A postmaster
/// works in its data directory, so its cwd tells (root, or the same user, may read it); when it
/// cannot be read, any process named postgres counts, and without /proc any live process does.
pub(crate) fn is_server_of(pid: u32, data: &Path) -> bool {
    if !alive(pid) {
        return false;
    }
    if let Ok(cwd) = fs::read_link(format!("/proc/{pid}/cwd")) {
        return data.canonicalize().is_ok_and(|data| cwd == data);
    }
    match fs::read_to_string(format!("/proc/{pid}/comm")) {
        Ok(comm) => matches!(comm.trim(), "postgres" | "postmaster"),
        Err(_) => !Path::new("/proc/self").exists(),
    }
}

/// Quotes `s` for `/bin/sh` (pg_ctl hands `-o` to a shell).
pub(crate) fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use super::*;

    #[test]
    fn our_own_process_is_alive_but_no_server() {
        let me = std::process::id();
        assert!(alive(me));
        assert!(!is_server_of(me, Path::new("/somewhere/data")));
    }

    #[test]
    fn a_reaped_child_is_dead() {
        let mut child = Command::new("true").spawn().unwrap();
        let pid = child.id();
        child.wait().unwrap();
        assert!(!alive(pid));
    }

    #[test]
    fn shell_quoting_survives_single_quotes() {
        assert_eq!(shell_quote("listen_addresses="), "'listen_addresses='");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
    }
}
