//! The webhook sender (docs/webhooks.md): one signed `POST` per attempt, 10 s at most, no
//! redirects, and never to an address that is not public unless the operator allowed it
//! (`WORT_WEBHOOK_ALLOW_PRIVATE=1`).
//!
//! The address check runs in reqwest's resolver, on the very addresses the connection will use,
//! so a name that resolved to a public address when the endpoint was created and to
//! 169.254.169.254 now (DNS rebinding) is refused at delivery. URLs with a literal IP address
//! never reach the resolver and are checked before sending.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::{Duration, Instant};

use async_trait::async_trait;
use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use wort_domain::webhook::WebhookSender;
use wort_domain::webhook::model::SendResult;
use wort_domain::webhook::rules::{ATTEMPT_TIMEOUT, is_public_address};

/// How long a name lookup may take when an endpoint is created or changed.
const LOOKUP_TIMEOUT: Duration = Duration::from_secs(5);

pub struct HttpWebhookSender {
    client: reqwest::Client,
    allow_private: bool,
}

impl HttpWebhookSender {
    pub fn new(allow_private: bool) -> Result<Self, String> {
        let client = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .timeout(ATTEMPT_TIMEOUT)
            .connect_timeout(ATTEMPT_TIMEOUT)
            .dns_resolver(Arc::new(PublicOnly { allow_private }))
            // No proxy from the environment (HTTP_PROXY…): through a proxy the address check
            // would see the proxy's address, not the target's.
            .no_proxy()
            .build()
            .map_err(|e| format!("webhook HTTP client: {e}"))?;
        Ok(HttpWebhookSender {
            client,
            allow_private,
        })
    }
}

/// Why an address is refused, or `None` when it may be used.
fn refusal(ip: IpAddr, allow_private: bool) -> Option<String> {
    (!allow_private && !is_public_address(ip)).then(|| {
        format!("{ip} is not a public address; webhooks are sent to public addresses only")
    })
}

/// Every address must pass: a name that resolves to a public and a private address is refused
/// rather than trusted to pick the public one.
fn check_all(addrs: &[SocketAddr], host: &str, allow_private: bool) -> Result<(), String> {
    if addrs.is_empty() {
        return Err(format!("{host} does not resolve to any address"));
    }
    match addrs.iter().find_map(|a| refusal(a.ip(), allow_private)) {
        Some(why) => Err(format!("{host} resolves to {why}")),
        None => Ok(()),
    }
}

/// reqwest's resolver: the system's, with the address check.
struct PublicOnly {
    allow_private: bool,
}

impl Resolve for PublicOnly {
    fn resolve(&self, name: Name) -> Resolving {
        let allow_private = self.allow_private;
        let host = name.as_str().to_owned();
        Box::pin(async move {
            let addrs: Vec<SocketAddr> =
                tokio::net::lookup_host((host.as_str(), 0)).await?.collect();
            check_all(&addrs, &host, allow_private)?;
            Ok(Box::new(addrs.into_iter()) as Addrs)
        })
    }
}

fn literal_ip(url: &url::Url) -> Option<IpAddr> {
    match url.host()? {
        url::Host::Ipv4(ip) => Some(IpAddr::V4(ip)),
        url::Host::Ipv6(ip) => Some(IpAddr::V6(ip)),
        url::Host::Domain(_) => None,
    }
}

/// The innermost cause of a reqwest error, which says what happened ("connection refused").
fn root_cause(e: &(dyn std::error::Error + 'static)) -> String {
    let mut cause = e;
    while let Some(next) = cause.source() {
        cause = next;
    }
    cause.to_string()
}

#[async_trait]
impl WebhookSender for HttpWebhookSender {
    async fn check_target(&self, url: &url::Url) -> Result<(), String> {
        if let Some(ip) = literal_ip(url) {
            return refusal(ip, self.allow_private).map_or(Ok(()), Err);
        }
        let host = url.host_str().unwrap_or_default();
        let port = url.port_or_known_default().unwrap_or(443);
        let lookup = tokio::time::timeout(LOOKUP_TIMEOUT, tokio::net::lookup_host((host, port)));
        let addrs: Vec<SocketAddr> = match lookup.await {
            Ok(Ok(addrs)) => addrs.collect(),
            Ok(Err(_)) | Err(_) => return Err(format!("{host} could not be resolved")),
        };
        check_all(&addrs, host, self.allow_private)
    }

    async fn send(&self, url: &str, headers: &[(&str, String)], body: &str) -> SendResult {
        let started = Instant::now();
        let done = |response_status: Option<u16>, error: Option<String>| SendResult {
            response_status,
            error,
            duration_ms: u32::try_from(started.elapsed().as_millis()).unwrap_or(u32::MAX),
        };
        let parsed = match url::Url::parse(url) {
            Ok(parsed) => parsed,
            Err(e) => return done(None, Some(format!("invalid URL: {e}"))),
        };
        if let Some(why) = literal_ip(&parsed).and_then(|ip| refusal(ip, self.allow_private)) {
            return done(None, Some(why));
        }
        let mut request = self.client.post(parsed).body(body.to_owned());
        for (name, value) in headers {
            request = request.header(*name, value);
        }
        match request.send().await {
            // The answer's body is not read: only the status counts.
            Ok(response) => {
                let status = response.status();
                let error = if status.is_success() {
                    None
                } else if status.is_redirection() {
                    Some(format!("answered {status}; redirects are not followed"))
                } else {
                    Some(format!("answered {status}"))
                };
                done(Some(status.as_u16()), error)
            }
            Err(e) if e.is_timeout() => done(
                None,
                Some(format!("no answer within {} s", ATTEMPT_TIMEOUT.as_secs())),
            ),
            Err(e) => done(None, Some(root_cause(&e))),
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[tokio::test]
    async fn private_targets_are_refused_unless_allowed() {
        let strict = HttpWebhookSender::new(false).unwrap();
        for url in [
            "http://127.0.0.1:9/",
            "http://[::1]/",
            "http://10.0.0.1/",
            "http://169.254.169.254/latest/meta-data",
            "http://localhost:8080/",
            "http://[2002:7f00:1::]/",
            "http://[2001::1]/",
            "http://[fec0::1]/",
            "http://[100::1]/",
            "http://[64:ff9b::7f00:1]/",
            "http://[::ffff:169.254.169.254]/",
        ] {
            let url = url::Url::parse(url).unwrap();
            assert!(strict.check_target(&url).await.is_err(), "{url}");
        }
        let lax = HttpWebhookSender::new(true).unwrap();
        let url = url::Url::parse("http://127.0.0.1:9/").unwrap();
        assert!(lax.check_target(&url).await.is_ok());
    }

    #[tokio::test]
    async fn a_name_resolving_to_loopback_is_refused_at_delivery() {
        // `localhost` resolves in the sender's resolver, where the check sits (as after a DNS
        // rebinding): nothing is sent.
        let strict = HttpWebhookSender::new(false).unwrap();
        let result = strict.send("http://localhost:9/hook", &[], "{}").await;
        assert_eq!(result.response_status, None);
        assert!(
            result
                .error
                .as_deref()
                .unwrap_or("")
                .contains("not a public address"),
            "{result:?}"
        );
        let literal = strict.send("http://127.0.0.1:9/hook", &[], "{}").await;
        assert!(
            literal
                .error
                .unwrap_or_default()
                .contains("not a public address")
        );
    }
}
