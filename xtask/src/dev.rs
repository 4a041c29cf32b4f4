//! `cargo xtask dev`: build and run `wort serve` in the foreground.

use std::{os::unix::process::CommandExt, process::ExitCode};

/// Replaces this process with `cargo run … wort serve` (which in turn execs `wort`), so wort
/// itself gets Ctrl-C and SIGTERM, and its exit code is ours: nothing in between to forward them.
pub fn run(args: &[String]) -> ExitCode {
    let error = crate::cargo()
        .args(["run", "-p", "wort-server", "--bin", "wort", "--", "serve"])
        .args(args)
        .exec();
    eprintln!("xtask dev: could not run cargo: {error}");
    ExitCode::FAILURE
}
