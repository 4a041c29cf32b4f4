//! Configuration: environment variables only (README "Configuration"), read once at start.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use wort_ai::AiSettings;
use wort_db::PoolSettings;
use wort_domain::account::AccountLimits;
use wort_domain::brew_session::retention::{MAX_RETENTION_DAYS, RetentionDays};
use wort_http::client_address::{Cidr, ClientAddressRule};

#[derive(Debug, Clone)]
pub struct Config {
    /// `None`: the embedded default (a private cluster under `data_dir`).
    pub database_url: Option<String>,
    pub addr: SocketAddr,
    pub data_dir: PathBuf,
    pub public_origin: String,
    pub cors_origins: Vec<String>,
    /// `WORT_CLIENT_IP_HEADER` and `WORT_TRUSTED_PROXIES`.
    pub client_address: ClientAddressRule,
    /// `WORT_SIGNUP`, `WORT_SIGNUP_PER_HOUR`, `WORT_SIGNIN_FAILURES_PER_ADDRESS`.
    pub account_limits: AccountLimits,
    pub pool: PoolSettings,
    pub reading_json: bool,
    /// The AI provider: set only when both `WORT_AI_BASE_URL` and `WORT_AI_MODEL` are.
    pub ai: Option<AiSettings>,
    /// The one AI variable missing when the other was set (worth a warning at start).
    pub ai_missing: Option<&'static str>,
    /// `WORT_BENCH_ROUTES=1`: also serve `GET /bench/hello` (the ceiling `cargo xtask bench`
    /// measures against). Off unless asked for, so production has no such route.
    pub bench_routes: bool,
    /// `WORT_METRICS_ADDR`: Prometheus metrics on a second listener; unset, none.
    pub metrics_addr: Option<SocketAddr>,
    /// `WORT_WEBHOOK_ALLOW_PRIVATE`, `WORT_WEBHOOK_RETRY_BASE_MS`, `WORT_WEBHOOK_DELIVERY`.
    pub webhooks: crate::WebhookSettings,
    pub mqtt: crate::MqttSettings,
    /// `WORT_SHUTDOWN_GRACE_SECS` (default 30): how long requests in flight may take after SIGTERM.
    pub shutdown_grace_secs: u64,
    /// `WORT_DEVICE_READING_INTERVAL_SECS`: one stored reading per device per this many seconds
    /// (default 60; the benchmark sets 0).
    pub device_reading_interval: Duration,
    /// `WORT_BODY_READ_TIMEOUT_SECS` (default 30): how long reading one request body may take
    /// before the request is answered `408`.
    pub body_read_timeout: Duration,
    /// `WORT_MAX_CONNECTIONS_PER_ADDRESS` (default 256, `0` = no cap).
    pub max_connections_per_address: usize,
    /// `WORT_READINGS_RETENTION_DAYS`: readings older than this many days are thinned; unset,
    /// every reading is kept.
    pub readings_retention: Option<RetentionDays>,
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

/// `WORT_DB_DEADLINE_MS`: how long a database call may go unanswered before its connection is
/// failed and the request answered 503 (a client-side deadline that holds when the server is
/// frozen; `statement_timeout` is the server's own).
fn db_deadline() -> Result<Duration, ConfigError> {
    let name = "WORT_DB_DEADLINE_MS";
    match var(name) {
        None => Ok(wort_db::pool::DEFAULT_DEADLINE),
        Some(v) => v
            .trim()
            .parse::<u32>()
            .ok()
            .filter(|ms| *ms > 0)
            .map(|ms| Duration::from_millis(u64::from(ms)))
            .ok_or(ConfigError {
                name,
                problem: format!("{v:?} is not a positive whole number of milliseconds"),
            }),
    }
}

/// A whole number of `name`, or `default` when unset.
fn count(name: &'static str, default: u32) -> Result<u32, ConfigError> {
    match var(name) {
        None => Ok(default),
        Some(v) => v.trim().parse::<u32>().map_err(|_| ConfigError {
            name,
            problem: format!("{v:?} is not a whole number (0 = unlimited)"),
        }),
    }
}

/// `WORT_SIGNUP`, `WORT_SIGNUP_PER_HOUR`, `WORT_SIGNIN_FAILURES_PER_ADDRESS`: whether sign-up is
/// open, and the sign-up and failed sign-in limits per client address.
fn account_limits() -> Result<AccountLimits, ConfigError> {
    let defaults = AccountLimits::default();
    let sign_up_open = match var("WORT_SIGNUP").as_deref().map(str::trim) {
        None | Some("open") => true,
        Some("closed") => false,
        Some(other) => {
            return Err(ConfigError {
                name: "WORT_SIGNUP",
                problem: format!("{other:?} is neither open nor closed"),
            });
        }
    };
    Ok(AccountLimits {
        sign_up_open,
        sign_ups_per_address: count("WORT_SIGNUP_PER_HOUR", defaults.sign_ups_per_address)?,
        failed_sign_ins_per_address: count(
            "WORT_SIGNIN_FAILURES_PER_ADDRESS",
            defaults.failed_sign_ins_per_address,
        )?,
    })
}

/// `WORT_WEBHOOK_ALLOW_PRIVATE=1` lets webhooks target private, loopback and link-local
/// addresses (tests, a receiver on the same network); `WORT_WEBHOOK_RETRY_BASE_MS` shortens the
/// first retry's delay (tests; default 5 s); `WORT_WEBHOOK_DELIVERY=off` runs no delivery workers
/// in this instance (others deliver).
fn webhooks() -> Result<crate::WebhookSettings, ConfigError> {
    let mut settings = crate::WebhookSettings {
        allow_private: matches!(
            var("WORT_WEBHOOK_ALLOW_PRIVATE").as_deref().map(str::trim),
            Some("1" | "true")
        ),
        ..Default::default()
    };
    settings.deliver = match var("WORT_WEBHOOK_DELIVERY").as_deref().map(str::trim) {
        None | Some("on") => true,
        Some("off") => false,
        Some(other) => {
            return Err(ConfigError {
                name: "WORT_WEBHOOK_DELIVERY",
                problem: format!("{other:?} is neither on nor off"),
            });
        }
    };
    if let Some(ms) = var("WORT_WEBHOOK_RETRY_BASE_MS") {
        let ms = ms
            .trim()
            .parse::<u32>()
            .ok()
            .filter(|ms| *ms > 0)
            .ok_or(ConfigError {
                name: "WORT_WEBHOOK_RETRY_BASE_MS",
                problem: format!("{ms:?} is not a positive whole number of milliseconds"),
            })?;
        settings.retry.base = time::Duration::milliseconds(i64::from(ms));
    }
    Ok(settings)
}

/// `WORT_MQTT_ALLOW_PRIVATE=0` refuses MQTT brokers on private LAN addresses (allowed by
/// default: a home broker is the usual case); `WORT_MQTT_PUBLISH=off` runs no MQTT publishers
/// in this instance (others publish).
fn mqtt() -> Result<crate::MqttSettings, ConfigError> {
    let allow_lan = match var("WORT_MQTT_ALLOW_PRIVATE").as_deref().map(str::trim) {
        None | Some("1" | "true") => true,
        Some("0" | "false") => false,
        Some(other) => {
            return Err(ConfigError {
                name: "WORT_MQTT_ALLOW_PRIVATE",
                problem: format!("{other:?} is neither 1 nor 0"),
            });
        }
    };
    let publish = match var("WORT_MQTT_PUBLISH").as_deref().map(str::trim) {
        None | Some("on") => true,
        Some("off") => false,
        Some(other) => {
            return Err(ConfigError {
                name: "WORT_MQTT_PUBLISH",
                problem: format!("{other:?} is neither on nor off"),
            });
        }
    };
    Ok(crate::MqttSettings {
        allow_lan,
        publish,
        ..Default::default()
    })
}

/// `WORT_CLIENT_IP_HEADER` and `WORT_TRUSTED_PROXIES` (comma-separated CIDRs or addresses).
fn client_address() -> Result<ClientAddressRule, ConfigError> {
    let trusted_proxies = var("WORT_TRUSTED_PROXIES")
        .map(|v| {
            v.split(',')
                .map(str::trim)
                .filter(|c| !c.is_empty())
                .map(|c| {
                    Cidr::parse(c).ok_or(ConfigError {
                        name: "WORT_TRUSTED_PROXIES",
                        problem: format!("{c:?} is not an address or CIDR (10.0.0.0/8)"),
                    })
                })
                .collect::<Result<Vec<_>, _>>()
        })
        .transpose()?
        .unwrap_or_default();
    Ok(ClientAddressRule {
        header: var("WORT_CLIENT_IP_HEADER"),
        trusted_proxies,
    })
}

/// `WORT_BODY_READ_TIMEOUT_SECS`: a positive whole number of seconds (default 30). Zero is
/// refused: a body with no deadline is what the setting exists to prevent.
fn body_read_timeout() -> Result<Duration, ConfigError> {
    let name = "WORT_BODY_READ_TIMEOUT_SECS";
    match var(name) {
        None => Ok(wort_http::middleware::BodyReadTimeout::default().0),
        Some(v) => v
            .trim()
            .parse::<u32>()
            .ok()
            .filter(|secs| *secs > 0)
            .map(|secs| Duration::from_secs(u64::from(secs)))
            .ok_or(ConfigError {
                name,
                problem: format!("{v:?} is not a positive whole number of seconds"),
            }),
    }
}

/// `WORT_READINGS_RETENTION_DAYS`, as read from the environment: unset (or blank) keeps every
/// reading; otherwise a whole number of days from 1 to a century. Zero is refused rather than
/// read as "off": thinning everything but the last hour is never what a brewer meant.
fn readings_retention(value: Option<String>) -> Result<Option<RetentionDays>, ConfigError> {
    value
        .map(|v| {
            RetentionDays::parse(&v).ok_or(ConfigError {
                name: "WORT_READINGS_RETENTION_DAYS",
                problem: format!(
                    "{v:?} is not a whole number of days from 1 to {MAX_RETENTION_DAYS} \
                     (unset it to keep every reading)"
                ),
            })
        })
        .transpose()
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
        let reading_json = match var("WORT_LOG_FORMAT").as_deref() {
            None | Some("text") => false,
            Some("json") => true,
            Some(other) => {
                return Err(ConfigError {
                    name: "WORT_LOG_FORMAT",
                    problem: format!("{other:?} is neither text nor json"),
                });
            }
        };
        // AI is "not configured" unless both the endpoint and the model are known; the key is
        // optional (local servers usually need none).
        let (ai, ai_missing) = match (var("WORT_AI_BASE_URL"), var("WORT_AI_MODEL")) {
            (Some(base_url), Some(model)) => (
                Some(AiSettings::new(base_url, model, var("WORT_AI_API_KEY"))),
                None,
            ),
            (Some(_), None) => (None, Some("WORT_AI_MODEL")),
            (None, Some(_)) => (None, Some("WORT_AI_BASE_URL")),
            (None, None) => (None, None),
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
            client_address: client_address()?,
            account_limits: account_limits()?,
            pool: PoolSettings {
                max_size: pool_size,
                wait_timeout: Duration::from_secs(5),
                deadline: db_deadline()?,
                ..PoolSettings::default()
            },
            reading_json,
            ai,
            ai_missing,
            bench_routes: matches!(var("WORT_BENCH_ROUTES").as_deref(), Some("1" | "true")),
            metrics_addr: var("WORT_METRICS_ADDR")
                .map(|v| {
                    v.trim().parse::<SocketAddr>().map_err(|e| ConfigError {
                        name: "WORT_METRICS_ADDR",
                        problem: format!("{v:?} is not host:port ({e})"),
                    })
                })
                .transpose()?,
            webhooks: webhooks()?,
            mqtt: mqtt()?,
            shutdown_grace_secs: u64::from(count("WORT_SHUTDOWN_GRACE_SECS", 30)?),
            device_reading_interval: Duration::from_secs(u64::from(count(
                "WORT_DEVICE_READING_INTERVAL_SECS",
                60,
            )?)),
            body_read_timeout: body_read_timeout()?,
            max_connections_per_address: match var("WORT_MAX_CONNECTIONS_PER_ADDRESS") {
                None => wort_http::connections::DEFAULT_LIMIT,
                Some(_) => count("WORT_MAX_CONNECTIONS_PER_ADDRESS", 0)? as usize,
            },
            readings_retention: readings_retention(var("WORT_READINGS_RETENTION_DAYS"))?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn retention(value: Option<&str>) -> Result<Option<u32>, String> {
        readings_retention(value.map(str::to_owned))
            .map(|days| days.map(RetentionDays::days))
            .map_err(|e| e.to_string())
    }

    #[test]
    fn readings_retention_is_off_unless_set_to_a_positive_number_of_days() {
        assert_eq!(retention(None), Ok(None));
        assert_eq!(retention(Some("30")), Ok(Some(30)));
        assert_eq!(retention(Some(" 365 ")), Ok(Some(365)));
        assert_eq!(retention(Some("36500")), Ok(Some(36_500)));
        for bad in ["0", "garbage", "-7", "1.5", "30 days", "36501"] {
            let said = retention(Some(bad)).unwrap_err();
            assert!(
                said.starts_with("WORT_READINGS_RETENTION_DAYS: ")
                    && said.contains(&format!("{bad:?}"))
                    && said.contains("from 1 to 36500"),
                "{said}"
            );
        }
    }
}
