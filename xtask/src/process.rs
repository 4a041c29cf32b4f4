//! Child processes of the xtask commands: `wort` started with a clean environment, stopped
//! politely (SIGTERM, then SIGKILL) however the command ends. Shared by `bench`, `fuzz-api`,
//! `round-trips` and `web-check`.

use std::{
    env,
    net::{SocketAddr, TcpListener},
    path::{Path, PathBuf},
    process::{Child, Command, ExitStatus, Stdio},
    thread,
    time::{Duration, Instant},
};

/// `wort` with only what the caller sets: everything that could change the server (`WORT_*`,
/// `DATABASE_URL`, `RUST_LOG`) is removed from the inherited environment, the access log is off
/// (`RUST_LOG=warn`: a line per request would measure the log file), and the working directory
/// is the run's own (so no `.env` of the developer's is read).
pub fn wort_command(wort_bin: &Path, work: &Path, database_url: &str) -> Command {
    with_wort_environment(Command::new(wort_bin), work, database_url)
}

/// [`wort_command`] run by a launcher: `launcher` is a program and its arguments, `wort_bin`
/// follows them (`valgrind --tool=callgrind … wort`). An empty launcher runs `wort_bin` itself.
pub fn wort_command_under(
    launcher: &[String],
    wort_bin: &Path,
    work: &Path,
    database_url: &str,
) -> Command {
    let Some((program, args)) = launcher.split_first() else {
        return wort_command(wort_bin, work, database_url);
    };
    let mut command = Command::new(program);
    command.args(args).arg(wort_bin);
    with_wort_environment(command, work, database_url)
}

fn with_wort_environment(mut command: Command, work: &Path, database_url: &str) -> Command {
    for (key, _) in env::vars_os() {
        let key_text = key.to_string_lossy();
        if key_text.starts_with("WORT_") || key_text == "DATABASE_URL" || key_text == "RUST_LOG" {
            command.env_remove(&key);
        }
    }
    command
        .current_dir(work)
        .env("DATABASE_URL", database_url)
        .env("RUST_LOG", "warn")
        // The tools sign up many accounts from one address (the fuzzer, the browser tests).
        .env("WORT_SIGNUP_PER_HOUR", "0")
        // and open many connections from it (the benchmarks' clients, the flood); a run that
        // measures the cap sets it again.
        .env("WORT_MAX_CONNECTIONS_PER_ADDRESS", "0")
        .stdin(Stdio::null());
    command
}

/// `cargo build` of the `wort` binary (debug: the build the tests already made, so usually a
/// no-op); its path.
pub fn build_debug_wort() -> Result<PathBuf, String> {
    let status = crate::cargo()
        .args(["build", "-p", "wort-server", "--bin", "wort"])
        .status()
        .map_err(|e| format!("could not run cargo: {e}"))?;
    if !status.success() {
        return Err("cargo build -p wort-server --bin wort failed".into());
    }
    Ok(crate::target_dir().join("debug").join("wort"))
}

/// `wort migrate` on `database_url`, its stderr in the error when it fails.
pub fn wort_migrate(wort_bin: &Path, work: &Path, database_url: &str) -> Result<(), String> {
    let output = wort_command(wort_bin, work, database_url)
        .arg("migrate")
        .output()
        .map_err(|e| format!("could not run {}: {e}", wort_bin.display()))?;
    if output.status.success() {
        Ok(())
    } else {
        Err(format!(
            "wort migrate failed: {}",
            String::from_utf8_lossy(&output.stderr)
        ))
    }
}

/// A free port on 127.0.0.1 (the kernel picks; we let go of it just before wort binds it).
pub fn free_local_addr() -> Result<SocketAddr, String> {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map_err(|e| format!("no free local port: {e}"))
}

/// A child process, stopped (SIGTERM, then SIGKILL) when dropped.
pub struct Process {
    name: &'static str,
    child: Option<Child>,
}

impl Process {
    pub fn new(name: &'static str, child: Child) -> Process {
        Process {
            name,
            child: Some(child),
        }
    }

    /// The process id while it runs.
    pub fn id(&self) -> Option<u32> {
        self.child.as_ref().map(Child::id)
    }

    /// The exit status once the process has ended by itself. The child is then reaped and
    /// forgotten, so that dropping this never signals a process id the system may have reused.
    pub fn exited(&mut self) -> Option<ExitStatus> {
        let status = self.child.as_mut()?.try_wait().ok().flatten()?;
        self.child = None;
        Some(status)
    }

    /// Waits for the process to end by itself; `None` when it was still running at `deadline`
    /// (it is then stopped).
    pub fn wait_until(&mut self, deadline: Instant) -> Result<Option<ExitStatus>, String> {
        loop {
            if let Some(status) = self.exited() {
                return Ok(Some(status));
            }
            if Instant::now() >= deadline {
                self.shutdown()?;
                return Ok(None);
            }
            thread::sleep(Duration::from_millis(200));
        }
    }

    pub fn stop(mut self) -> Result<(), String> {
        self.shutdown()
    }

    /// Like [`stop`](Self::stop), waiting up to `grace` after SIGTERM (a program under valgrind
    /// is many times slower to finish).
    pub fn stop_within(mut self, grace: Duration) -> Result<(), String> {
        self.shutdown_within(grace)
    }

    fn shutdown(&mut self) -> Result<(), String> {
        self.shutdown_within(Duration::from_secs(10))
    }

    fn shutdown_within(&mut self, grace: Duration) -> Result<(), String> {
        let Some(mut child) = self.child.take() else {
            return Ok(());
        };
        let _ = Command::new("kill")
            .args(["-TERM", &child.id().to_string()])
            .status();
        let deadline = Instant::now() + grace;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = child.try_wait() {
                return Ok(());
            }
            thread::sleep(Duration::from_millis(50));
        }
        let _ = child.kill();
        let _ = child.wait();
        Err(format!(
            "{} did not stop within {} s of SIGTERM; killed it",
            self.name,
            grace.as_secs()
        ))
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.shutdown();
    }
}

/// Waits up to 30 s for a started wort to answer `GET /readyz` with 200; its log is the error
/// when it exits or does not get ready.
pub fn wait_until_ready(addr: SocketAddr, server: &mut Process, log: &Path) -> Result<(), String> {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if ready(addr) {
            return Ok(());
        }
        if server.exited().is_some() || Instant::now() > deadline {
            let text = std::fs::read_to_string(log).unwrap_or_default();
            return Err(format!("wort did not get ready on {addr}:\n{text}"));
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// `GET /readyz` answers 200.
fn ready(addr: SocketAddr) -> bool {
    use std::io::{Read, Write};
    let Ok(mut stream) = std::net::TcpStream::connect_timeout(&addr, Duration::from_secs(1)) else {
        return false;
    };
    let _ = stream.set_read_timeout(Some(Duration::from_secs(2)));
    let request = format!("GET /readyz HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    if stream.write_all(request.as_bytes()).is_err() {
        return false;
    }
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    answer.starts_with("HTTP/1.1 200")
}
