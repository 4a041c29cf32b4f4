//! The processes under test: the release `wort` on the soak cluster, and the switch of the fake
//! AI provider (`xtask/fuzz/fake_provider.py`) between its behaviours.

use std::fs;
use std::net::SocketAddr;
use std::path::Path;
use std::thread;
use std::time::{Duration, Instant};

use crate::bench::Wort;
use crate::fuzz::FakeProvider;
use crate::process::{Process, free_local_addr, wait_until_ready, wort_command};

use super::http::exchange_close;

pub(super) fn start_wort(
    wort_bin: &Path,
    work: &Path,
    database_url: &str,
    provider: SocketAddr,
    log: &Path,
) -> Result<Wort, String> {
    start_wort_with(wort_bin, work, database_url, provider, log, &[])
}

/// Like [`start_wort`], with more environment variables.
pub(super) fn start_wort_with(
    wort_bin: &Path,
    work: &Path,
    database_url: &str,
    provider: SocketAddr,
    log: &Path,
    env: &[(&str, &str)],
) -> Result<Wort, String> {
    let addr = free_local_addr()?;
    let log_file = fs::File::create(log).map_err(|e| format!("{}: {e}", log.display()))?;
    let log_err = log_file
        .try_clone()
        .map_err(|e| format!("{}: {e}", log.display()))?;
    let child = wort_command(wort_bin, work, database_url)
        .args(["serve", "--no-migrate"])
        .env("WORT_ADDR", addr.to_string())
        .env("WORT_AI_BASE_URL", format!("http://{provider}/v1"))
        .env("WORT_AI_MODEL", "soak-model")
        .env("WORT_AI_API_KEY", "sk-soak-not-a-real-key")
        .envs(env.iter().copied())
        .stdout(log_file)
        .stderr(log_err)
        .spawn()
        .map_err(|e| format!("could not start {}: {e}", wort_bin.display()))?;
    let mut process = Process::new("wort", child);
    wait_until_ready(addr, &mut process, log)?;
    Ok(Wort { process, addr })
}

pub(super) fn wait_ready(addr: SocketAddr) -> Result<(), String> {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let reply = exchange_close(addr, "GET", "/readyz", &[], None, Duration::from_secs(5));
        if reply.is_ok_and(|r| r.status == 200) {
            return Ok(());
        }
        if Instant::now() > deadline {
            return Err("wort was not ready (GET /readyz) within 60 s after the load".into());
        }
        thread::sleep(Duration::from_millis(200));
    }
}

/// Switching the fake provider's behaviour (its `POST /_fake/mode`).
impl FakeProvider {
    pub(super) fn set_mode(&self, mode: &str, seconds: Option<f64>) -> Result<(), String> {
        let body = match seconds {
            Some(s) => format!(r#"{{"mode":"{mode}","seconds":{s}}}"#),
            None => format!(r#"{{"mode":"{mode}"}}"#),
        };
        let reply = exchange_close(
            self.addr,
            "POST",
            "/_fake/mode",
            &[],
            Some(&body),
            Duration::from_secs(5),
        )
        .map_err(|e| format!("switching the fake provider to {mode}: {e}"))?;
        if reply.status == 200 {
            Ok(())
        } else {
            Err(format!(
                "the fake provider refused mode {mode}: {} {}",
                reply.status, reply.body
            ))
        }
    }
}
