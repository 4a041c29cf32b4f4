//! The embedded default: with no DATABASE_URL, `wort serve` runs its own PostgreSQL under
//! WORT_DATA_DIR.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .arg("-TERM")
            .arg(self.0.id().to_string())
            .status();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Starts `wort serve` on the embedded default and waits until /readyz says ok.
async fn serve(data_dir: &std::path::Path, port: u16) -> Killed {
    let child = Command::new(env!("CARGO_BIN_EXE_wort"))
        .arg("serve")
        .env_remove("DATABASE_URL")
        .env("WORT_DATA_DIR", data_dir)
        .env("WORT_ADDR", format!("127.0.0.1:{port}"))
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut child = Killed(child);
    let stderr = child.0.stderr.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            eprintln!("[wort] {line}");
        }
    });
    let started = Instant::now();
    let client = reqwest::Client::new();
    loop {
        let ready = client
            .get(format!("http://127.0.0.1:{port}/readyz"))
            .send()
            .await;
        if ready.is_ok_and(|res| res.status() == 200) {
            return child;
        }
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "embedded wort never became ready"
        );
        if let Ok(Some(status)) = child.0.try_wait() {
            panic!("wort exited early: {status}");
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

#[tokio::test]
async fn embedded_default_starts_from_nothing_and_keeps_data_across_restarts() {
    let dir = std::env::temp_dir().join(format!("wort-embedded-{}", uuid::Uuid::new_v4().simple()));
    let port = free_port();
    let email = "embedded@example.com";
    {
        let _wort = serve(&dir, port).await;
        let res = reqwest::Client::new()
            .post(format!("http://127.0.0.1:{port}/api/auth/sign-up/email"))
            .json(&serde_json::json!({"name": "E", "email": email, "password": "12345678"}))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 200);
    }
    assert!(
        dir.join("pg").exists(),
        "the cluster lives under WORT_DATA_DIR/pg"
    );
    {
        let _wort = serve(&dir, port).await;
        let res = reqwest::Client::new()
            .post(format!("http://127.0.0.1:{port}/api/auth/sign-in/email"))
            .json(&serde_json::json!({"email": email, "password": "12345678"}))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 200, "the account survived the restart");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
