//! `cargo xtask dev`: build and run `wort serve` in the foreground.

use std::{os::unix::process::CommandExt, process::ExitCode};

/// Replaces this process with `cargo run … wort serve` (which in turn execs `wort`), so wort
/// itself gets Ctrl-C and SIGTERM, and its exit code is ours: nothing in between to forward them.
pub fn run(args: &[String]) -> ExitCode {
    // The app is embedded when wort compiles, so it is built first. Without Node the API still
    // works; `/` then says how to build the app.
    if let Err(e) = crate::web::build_if_changed() {
        eprintln!("xtask dev: the web app was not built ({e}); serving the API only");
    }
    let error = crate::cargo()
        .args(["run", "-p", "wort-server", "--bin", "wort", "--", "serve"])
        .args(args)
        .exec();
    eprintln!("xtask dev: could not run cargo: {error}");
    ExitCode::FAILURE
}
