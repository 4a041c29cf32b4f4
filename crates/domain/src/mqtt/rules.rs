//! The integration's rules: what a broker address and the topic prefixes may be, which broker
//! addresses are refused, how big an account's outbox may grow, how a broker that is down is
//! retried.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use time::Duration;

use super::model::{MqttPatch, MqttSettings};
use crate::error::{DomainError, Violation};
use crate::rules::{FieldRules, Rule, TextRule};
use crate::webhook::rules::is_public_address;

pub const URL: TextRule = TextRule::new(1, 2_048);
pub const PREFIX: TextRule = TextRule::new(1, 200);
pub const CREDENTIAL: TextRule = TextRule::new(1, 200);
pub const MQTT_FIELDS: FieldRules = &[
    ("url", Rule::Text(URL)),
    ("username", Rule::Text(CREDENTIAL)),
    ("password", Rule::Text(CREDENTIAL)),
    ("topic_prefix", Rule::Text(PREFIX)),
    ("discovery_prefix", Rule::Text(PREFIX)),
];

/// The topic prefix of a new integration when none is sent.
pub const DEFAULT_TOPIC_PREFIX: &str = "wort";
/// Home Assistant's own default discovery prefix.
pub const DEFAULT_DISCOVERY_PREFIX: &str = "homeassistant";

/// An account's outbox holds at most this many messages waiting for its broker: two weeks of a
/// hydrometer posting every 15 minutes on each of five sessions is 6,720. Past it the oldest
/// readings are dropped (alerts and discovery messages never are); readings stay in wort, only
/// their MQTT copy is lost, and the retained one on the broker is the latest either way.
pub const MAX_PENDING_PER_ACCOUNT: i64 = 10_000;
/// Messages published per connection.
pub const BATCH: i64 = 200;
/// A publisher has this long to connect, publish a batch and record what came of it.
pub const LEASE: Duration = Duration::seconds(60);
/// Connecting and publishing a batch may take at most this long.
pub const ATTEMPT_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(15);
const _: () = assert!(ATTEMPT_TIMEOUT.as_secs() * 3 < 60);
/// A broker that failed is tried again after this long, twice as long after each further
/// failure…
pub const RETRY_BASE: Duration = Duration::seconds(5);
/// …but never longer than this: a broker that comes back hears within five minutes.
pub const RETRY_MAX_DELAY: Duration = Duration::minutes(5);

/// How long to wait after the `failures`th failure in a row (1 for the first).
pub fn retry_delay(base: Duration, failures: i32) -> Duration {
    let doublings = u32::try_from(failures.saturating_sub(1).clamp(0, 20)).unwrap_or(0);
    let delay = base * 2_i32.saturating_pow(doublings);
    delay.min(RETRY_MAX_DELAY.max(base))
}

/// Checks a broker URL's form (its address is checked by the publisher, which resolves it):
/// `mqtt://` or `mqtts://` with a host and at most a port: no user name or password (they have
/// their own fields), no path, query or fragment.
pub fn check_url(raw: &str) -> Result<url::Url, Violation> {
    let bad = |why: &str| Violation::new("custom", &["url"], why.to_owned());
    URL.check(&["url"], raw)?;
    let url = url::Url::parse(raw).map_err(|_| Violation::invalid_string(&["url"], "url"))?;
    if !matches!(url.scheme(), "mqtt" | "mqtts") {
        return Err(bad("The URL must start with mqtt:// or mqtts://"));
    }
    if url.host_str().is_none_or(str::is_empty) {
        return Err(bad("The URL must name a host"));
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(bad(
            "The URL must not hold a user name or password; use the username and password fields",
        ));
    }
    if !matches!(url.path(), "" | "/") || url.query().is_some() || url.fragment().is_some() {
        return Err(bad(
            "The URL must be only mqtt(s)://host[:port], without a path, query or fragment",
        ));
    }
    Ok(url)
}

/// The broker's port: the URL's, else 1883 (`mqtt`) or 8883 (`mqtts`).
pub fn port_of(url: &url::Url) -> u16 {
    url.port()
        .unwrap_or(if url.scheme() == "mqtts" { 8883 } else { 1883 })
}

/// A topic prefix: 1–200 characters, no wildcard (`+`, `#`), no NUL, no leading or trailing
/// `/` (the topics wort writes under it add their own).
pub fn check_prefix(field: &'static str, prefix: &str) -> Result<(), Violation> {
    PREFIX.check(&[field], prefix)?;
    let bad = |why: &str| Violation::new("custom", &[field], why.to_owned());
    if prefix.contains(['+', '#']) {
        return Err(bad("A topic prefix must not hold the wildcards + or #"));
    }
    if prefix.starts_with('/') || prefix.ends_with('/') {
        return Err(bad("A topic prefix must not begin or end with /"));
    }
    Ok(())
}

/// The settings a patch makes of the current ones (`None`: no integration yet), checked.
pub fn apply_patch(
    current: Option<MqttSettings>,
    patch: MqttPatch,
) -> Result<MqttSettings, DomainError> {
    let mut problems = Vec::new();
    let url = match (patch.url, &current) {
        (Some(url), _) => url,
        (None, Some(current)) => current.url.clone(),
        (None, None) => {
            return Err(DomainError::invalid(Violation::invalid_type(
                &["url"],
                "string",
                "undefined",
            )));
        }
    };
    if let Err(v) = check_url(&url) {
        problems.push(v);
    }
    let pick = |sent: Option<String>, current: Option<&String>, default: &str| {
        sent.or_else(|| current.cloned())
            .unwrap_or_else(|| default.to_owned())
    };
    let topic_prefix = pick(
        patch.topic_prefix,
        current.as_ref().map(|c| &c.topic_prefix),
        DEFAULT_TOPIC_PREFIX,
    );
    let discovery_prefix = pick(
        patch.discovery_prefix,
        current.as_ref().map(|c| &c.discovery_prefix),
        DEFAULT_DISCOVERY_PREFIX,
    );
    for (field, prefix) in [
        ("topic_prefix", &topic_prefix),
        ("discovery_prefix", &discovery_prefix),
    ] {
        if let Err(v) = check_prefix(field, prefix) {
            problems.push(v);
        }
    }
    let username = patch
        .username
        .unwrap_or_else(|| current.as_ref().and_then(|c| c.username.clone()));
    let password = patch
        .password
        .unwrap_or_else(|| current.as_ref().and_then(|c| c.password.clone()));
    for (field, value) in [("username", &username), ("password", &password)] {
        if let Some(Err(v)) = value.as_deref().map(|v| CREDENTIAL.check(&[field], v)) {
            problems.push(v);
        }
    }
    if !problems.is_empty() {
        return Err(DomainError::Invalid(problems));
    }
    Ok(MqttSettings {
        url,
        username,
        password,
        topic_prefix,
        discovery_prefix,
        enabled: patch
            .enabled
            .unwrap_or_else(|| current.as_ref().is_none_or(|c| c.enabled)),
    })
}

/// Which broker addresses wort connects to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AddressPolicy {
    /// `WORT_MQTT_ALLOW_PRIVATE` (on unless `0`): private LAN addresses (RFC 1918, IPv6 unique
    /// local `fc00::/7`), where a home broker usually is.
    pub allow_lan: bool,
    /// `WORT_WEBHOOK_ALLOW_PRIVATE`: every address that is not public (loopback, link-local,
    /// reserved… and the LAN too), as for webhook targets.
    pub allow_private: bool,
}

/// RFC 1918 (10/8, 172.16/12, 192.168/16), IPv6 unique local (`fc00::/7`), and the IPv4-mapped
/// form of the former.
pub fn is_lan_address(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => v4.is_private(),
        IpAddr::V6(v6) => {
            let mapped = v6
                .to_ipv4_mapped()
                .is_some_and(|v4: Ipv4Addr| v4.is_private());
            mapped || is_unique_local(v6)
        }
    }
}

fn is_unique_local(ip: Ipv6Addr) -> bool {
    (ip.segments()[0] & 0xfe00) == 0xfc00
}

/// Why wort will not connect to `ip`, or `None` when it may.
pub fn address_refusal(ip: IpAddr, policy: AddressPolicy) -> Option<String> {
    if policy.allow_private || is_public_address(ip) {
        return None;
    }
    if is_lan_address(ip) {
        return (!policy.allow_lan).then(|| {
            format!("{ip} is a private address, and this server is set to refuse them for MQTT")
        });
    }
    Some(format!(
        "{ip} is a loopback, link-local or reserved address; brokers must be on a public or \
         private LAN address"
    ))
}

/// The violation for a broker whose address is refused (or cannot be resolved).
pub fn refused_broker(why: impl Into<String>) -> Violation {
    Violation::new("custom", &["url"], why)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn urls() {
        assert!(check_url("mqtt://broker.example").is_ok());
        assert!(check_url("mqtts://10.0.0.5:8884").is_ok());
        for bad in [
            "http://broker",
            "mqtt://",
            "mqtt://u:p@broker",
            "mqtt://broker/path",
            "mqtt://broker?x=1",
            "mqtt://broker#x",
            "not a url",
        ] {
            assert!(check_url(bad).is_err(), "{bad}");
        }
        assert_eq!(port_of(&check_url("mqtts://b").unwrap()), 8883);
        assert_eq!(port_of(&check_url("mqtt://b").unwrap()), 1883);
        assert_eq!(port_of(&check_url("mqtt://b:1").unwrap()), 1);
    }

    #[test]
    fn prefixes() {
        assert!(check_prefix("topic_prefix", "home/brewery").is_ok());
        for bad in ["", "a/#", "+", "/a", "a/", "a\0b"] {
            assert!(check_prefix("topic_prefix", bad).is_err(), "{bad:?}");
        }
        assert!(check_prefix("topic_prefix", &"a".repeat(201)).is_err());
    }

    #[test]
    fn a_new_integration_needs_a_url_and_gets_the_default_prefixes() {
        assert!(apply_patch(None, MqttPatch::default()).is_err());
        let settings = apply_patch(
            None,
            MqttPatch {
                url: Some("mqtt://b".into()),
                ..MqttPatch::default()
            },
        )
        .unwrap();
        assert_eq!(settings.topic_prefix, "wort");
        assert_eq!(settings.discovery_prefix, "homeassistant");
        assert!(settings.enabled);
        let disabled = apply_patch(
            Some(settings.clone()),
            MqttPatch {
                enabled: Some(false),
                password: Some(Some("pw".into())),
                ..MqttPatch::default()
            },
        )
        .unwrap();
        assert!(!disabled.enabled);
        assert_eq!(disabled.url, "mqtt://b");
        assert_eq!(disabled.password.as_deref(), Some("pw"));
        let cleared = apply_patch(
            Some(disabled),
            MqttPatch {
                password: Some(None),
                ..MqttPatch::default()
            },
        )
        .unwrap();
        assert_eq!(cleared.password, None);
        match apply_patch(
            Some(settings),
            MqttPatch {
                url: Some("http://b".into()),
                topic_prefix: Some("a/#".into()),
                ..MqttPatch::default()
            },
        ) {
            Err(DomainError::Invalid(v)) => assert_eq!(v.len(), 2),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn addresses() {
        let default = AddressPolicy {
            allow_lan: true,
            allow_private: false,
        };
        let ip = |s: &str| s.parse::<IpAddr>().unwrap();
        assert_eq!(address_refusal(ip("8.8.8.8"), default), None);
        assert_eq!(address_refusal(ip("192.168.1.10"), default), None);
        assert_eq!(address_refusal(ip("fd00::1"), default), None);
        assert_eq!(address_refusal(ip("::ffff:10.1.2.3"), default), None);
        for refused in [
            "127.0.0.1",
            "::1",
            "169.254.169.254",
            "fe80::1",
            "240.0.0.1",
            "0.0.0.0",
        ] {
            assert!(address_refusal(ip(refused), default).is_some(), "{refused}");
        }
        let no_lan = AddressPolicy {
            allow_lan: false,
            allow_private: false,
        };
        assert!(address_refusal(ip("10.0.0.1"), no_lan).is_some());
        let everything = AddressPolicy {
            allow_lan: false,
            allow_private: true,
        };
        assert_eq!(address_refusal(ip("127.0.0.1"), everything), None);
    }

    #[test]
    fn backoff_doubles_up_to_five_minutes() {
        assert_eq!(retry_delay(RETRY_BASE, 1), Duration::seconds(5));
        assert_eq!(retry_delay(RETRY_BASE, 2), Duration::seconds(10));
        assert_eq!(retry_delay(RETRY_BASE, 40), RETRY_MAX_DELAY);
    }
}
