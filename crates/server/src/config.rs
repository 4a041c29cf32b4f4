//! Configuration: environment variables only (CONTRACT §0), read once at start.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use wort_db::PoolSettings;

#[derive(Debug, Clone)]
pub struct Config {
    /// `None`: the embedded default (a private cluster under `data_dir`).
    pub database_url: Option<String>,
    pub addr: SocketAddr,
    pub data_dir: PathBuf,
    pub public_origin: String,
    pub cors_origins: Vec<String>,
    pub pool: PoolSettings,
    pub log_json: bool,
}

#[derive(Debug, thiserror::Error)]
#[error("{name}: {problem}")]
pub struct ConfigError {
    name: &'static str,
    problem: String,
}

fn var(name: &'static str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.trim().is_empty())
}

impl Config {
    pub fn from_env() -> Result<Config, ConfigError> {
        let addr_text = var("WORT_ADDR").unwrap_or_else(|| "127.0.0.1:8080".to_owned());
        let addr: SocketAddr = addr_text.parse().map_err(|e| ConfigError {
            name: "WORT_ADDR",
            problem: format!("{addr_text:?} is not host:port ({e})"),
        })?;
        let pool_size = match var("WORT_DB_POOL_SIZE") {
            None => 16,
            Some(v) => v
                .parse::<usize>()
                .ok()
                .filter(|n| *n > 0)
                .ok_or(ConfigError {
                    name: "WORT_DB_POOL_SIZE",
                    problem: format!("{v:?} is not a positive integer"),
                })?,
        };
        let log_json = match var("WORT_LOG_FORMAT").as_deref() {
            None | Some("text") => false,
            Some("json") => true,
            Some(other) => {
                return Err(ConfigError {
                    name: "WORT_LOG_FORMAT",
                    problem: format!("{other:?} is neither text nor json"),
                });
            }
        };
        Ok(Config {
            database_url: var("DATABASE_URL"),
            public_origin: var("WORT_PUBLIC_ORIGIN").unwrap_or_else(|| format!("http://{addr}")),
            addr,
            data_dir: PathBuf::from(var("WORT_DATA_DIR").unwrap_or_else(|| "./.wort".to_owned())),
            cors_origins: var("WORT_CORS_ORIGINS")
                .map(|v| {
                    v.split(',')
                        .map(|o| o.trim().to_owned())
                        .filter(|o| !o.is_empty())
                        .collect()
                })
                .unwrap_or_default(),
            pool: PoolSettings {
                max_size: pool_size,
                wait_timeout: Duration::from_secs(5),
                ..PoolSettings::default()
            },
            log_json,
        })
    }
}
