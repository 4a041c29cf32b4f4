//! The MQTT publisher (docs/mqtt.md): one connection per claimed batch, each message published
//! with QoS 1 in the order given, done when the broker acknowledges it (`PUBACK`); never to an
//! address the policy refuses.
//!
//! The broker's name is resolved here and every address it resolves to is checked; a plain
//! `mqtt://` connection then goes to the checked address itself, so a name that resolves
//! elsewhere by the time of connecting (DNS rebinding) changes nothing. An `mqtts://`
//! connection needs the name for the certificate's check, and rumqttc resolves it again: the
//! window between the two lookups is the one gap left.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use rumqttc::{
    AsyncClient, ConnectReturnCode, ConnectionError, Event, MqttOptions, Outgoing, Packet, QoS,
    TlsConfiguration, Transport,
};
use wort_domain::mqtt::MqttPublisher;
use wort_domain::mqtt::model::{Broker, OutgoingMessage, PublishResult};
use wort_domain::mqtt::rules::{ATTEMPT_TIMEOUT, AddressPolicy, address_refusal, port_of};

/// How long a name lookup may take.
const LOOKUP_TIMEOUT: Duration = Duration::from_secs(5);
/// Time allowed to say goodbye (`DISCONNECT`) once every message is acknowledged.
const DISCONNECT_TIMEOUT: Duration = Duration::from_secs(1);

pub struct RumqttPublisher {
    policy: AddressPolicy,
    tls: Arc<rustls::ClientConfig>,
}

impl RumqttPublisher {
    pub fn new(policy: AddressPolicy) -> Result<Self, String> {
        let roots = rustls::RootCertStore {
            roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
        };
        let tls = rustls::ClientConfig::builder_with_provider(Arc::new(
            rustls::crypto::ring::default_provider(),
        ))
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("MQTT TLS settings: {e}"))?
        .with_root_certificates(roots)
        .with_no_client_auth();
        Ok(RumqttPublisher {
            policy,
            tls: Arc::new(tls),
        })
    }

    /// The addresses of the URL's host, each allowed by the policy.
    async fn resolve(&self, url: &url::Url) -> Result<Vec<SocketAddr>, String> {
        let port = port_of(url);
        let addrs: Vec<SocketAddr> = match url.host() {
            Some(url::Host::Ipv4(ip)) => vec![SocketAddr::new(IpAddr::V4(ip), port)],
            Some(url::Host::Ipv6(ip)) => vec![SocketAddr::new(IpAddr::V6(ip), port)],
            Some(url::Host::Domain(host)) => {
                let lookup =
                    tokio::time::timeout(LOOKUP_TIMEOUT, tokio::net::lookup_host((host, port)));
                match lookup.await {
                    Ok(Ok(addrs)) => addrs.collect(),
                    Ok(Err(_)) | Err(_) => return Err(format!("{host} could not be resolved")),
                }
            }
            None => return Err("the URL names no host".to_owned()),
        };
        if addrs.is_empty() {
            return Err("the broker's name resolves to no address".to_owned());
        }
        // Every address must pass: a name resolving to an allowed and a refused address is
        // refused rather than trusted to pick the allowed one.
        match addrs
            .iter()
            .find_map(|a| address_refusal(a.ip(), self.policy))
        {
            Some(why) => Err(why),
            None => Ok(addrs),
        }
    }

    fn options(&self, broker: &Broker, url: &url::Url, addr: SocketAddr) -> MqttOptions {
        let tls = url.scheme() == "mqtts";
        let host = match (tls, url.host_str()) {
            (true, Some(name)) => name
                .trim_start_matches('[')
                .trim_end_matches(']')
                .to_owned(),
            _ => addr.ip().to_string(),
        };
        let client_id = format!("wort-{}", uuid::Uuid::now_v7().simple());
        let mut options = MqttOptions::new(client_id, host, addr.port());
        options
            .set_clean_session(true)
            .set_keep_alive(Duration::from_secs(30))
            .set_max_packet_size(256 * 1024, 256 * 1024);
        if let Some(username) = &broker.username {
            options.set_credentials(username, broker.password.clone().unwrap_or_default());
        }
        if tls {
            options.set_transport(Transport::Tls(TlsConfiguration::Rustls(self.tls.clone())));
        }
        options
    }
}

/// What a connection error means to the person reading `last_error`.
fn describe(e: &ConnectionError, addr: SocketAddr) -> String {
    match e {
        ConnectionError::ConnectionRefused(
            ConnectReturnCode::BadUserNamePassword | ConnectReturnCode::NotAuthorized,
        ) => "the broker refused the connection: not authorized (check the username and password)"
            .to_owned(),
        ConnectionError::ConnectionRefused(code) => {
            format!("the broker refused the connection: {code:?}")
        }
        ConnectionError::Io(io) => format!("cannot reach the broker at {addr}: {io}"),
        ConnectionError::NetworkTimeout => format!("no answer from the broker at {addr}"),
        ConnectionError::Tls(tls) => format!("TLS with the broker failed: {tls}"),
        other => format!("MQTT: {other}"),
    }
}

/// Publishes every message and collects the `PUBACK`s. rumqttc gives each QoS 1 publish a
/// packet id as it sends it, in the order the publishes were queued: the `n`th
/// `Outgoing::Publish` is the `n`th message.
async fn run(
    client: &AsyncClient,
    eventloop: &mut rumqttc::EventLoop,
    messages: &[OutgoingMessage],
    addr: SocketAddr,
    acknowledged: &mut Vec<uuid::Uuid>,
) -> Result<(), String> {
    for m in messages {
        client
            .try_publish(
                m.topic.as_str(),
                QoS::AtLeastOnce,
                m.retain,
                m.payload.as_bytes(),
            )
            .map_err(|e| format!("MQTT: cannot queue a message: {e}"))?;
    }
    let mut sent = 0_usize;
    let mut in_flight: HashMap<u16, uuid::Uuid> = HashMap::new();
    while acknowledged.len() < messages.len() {
        match eventloop.poll().await {
            Ok(Event::Outgoing(Outgoing::Publish(pkid))) => {
                if let Some(m) = messages.get(sent) {
                    in_flight.insert(pkid, m.id);
                }
                sent += 1;
            }
            Ok(Event::Incoming(Packet::PubAck(ack))) => {
                if let Some(id) = in_flight.remove(&ack.pkid) {
                    acknowledged.push(id);
                }
            }
            Ok(_) => {}
            Err(e) => return Err(describe(&e, addr)),
        }
    }
    Ok(())
}

#[async_trait]
impl MqttPublisher for RumqttPublisher {
    async fn check_broker(&self, url: &url::Url) -> Result<(), String> {
        self.resolve(url).await.map(|_| ())
    }

    async fn publish(&self, broker: &Broker, messages: &[OutgoingMessage]) -> PublishResult {
        let failed = |error: String| PublishResult {
            acknowledged: Vec::new(),
            error: Some(error),
        };
        let url = match url::Url::parse(&broker.url) {
            Ok(url) => url,
            Err(e) => return failed(format!("invalid URL: {e}")),
        };
        let addr = match self.resolve(&url).await {
            Ok(addrs) => match addrs.first() {
                Some(addr) => *addr,
                None => return failed("the broker's name resolves to no address".to_owned()),
            },
            Err(why) => return failed(why),
        };
        let options = self.options(broker, &url, addr);
        let (client, mut eventloop) = AsyncClient::new(options, messages.len().saturating_add(2));
        eventloop
            .network_options
            .set_connection_timeout(ATTEMPT_TIMEOUT.as_secs());
        let mut acknowledged = Vec::with_capacity(messages.len());
        let outcome = tokio::time::timeout(
            ATTEMPT_TIMEOUT,
            run(&client, &mut eventloop, messages, addr, &mut acknowledged),
        )
        .await;
        let error = match outcome {
            Ok(Ok(())) => None,
            Ok(Err(why)) => Some(why),
            Err(_) => Some(format!(
                "the broker at {addr} did not acknowledge every message within {} s",
                ATTEMPT_TIMEOUT.as_secs()
            )),
        };
        if error.is_none() {
            // A clean goodbye; what was acknowledged is done whatever comes of it.
            let _ = client.try_disconnect();
            let _ = tokio::time::timeout(DISCONNECT_TIMEOUT, async {
                while let Ok(event) = eventloop.poll().await {
                    if matches!(event, Event::Outgoing(Outgoing::Disconnect)) {
                        break;
                    }
                }
            })
            .await;
        }
        if let Some(why) = &error {
            tracing::debug!(error = %why, acknowledged = acknowledged.len(), "MQTT publish");
        }
        PublishResult {
            acknowledged,
            error,
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn strict() -> RumqttPublisher {
        RumqttPublisher::new(AddressPolicy {
            allow_lan: true,
            allow_private: false,
        })
        .unwrap()
    }

    #[tokio::test]
    async fn loopback_and_link_local_brokers_are_refused_lan_ones_are_not() {
        let publisher = strict();
        for refused in [
            "mqtt://127.0.0.1",
            "mqtt://localhost:1884",
            "mqtt://[::1]",
            "mqtts://169.254.169.254",
        ] {
            let url = url::Url::parse(refused).unwrap();
            assert!(publisher.check_broker(&url).await.is_err(), "{refused}");
        }
        for allowed in [
            "mqtt://192.168.1.20",
            "mqtts://10.0.0.2:8883",
            "mqtt://[fd12::1]",
        ] {
            let url = url::Url::parse(allowed).unwrap();
            assert!(publisher.check_broker(&url).await.is_ok(), "{allowed}");
        }
    }

    #[tokio::test]
    async fn a_refused_address_is_not_connected_to() {
        let result = strict()
            .publish(
                &Broker {
                    url: "mqtt://127.0.0.1:9".into(),
                    username: None,
                    password: None,
                },
                &[OutgoingMessage {
                    id: uuid::Uuid::nil(),
                    topic: "t".into(),
                    payload: "{}".into(),
                    retain: true,
                }],
            )
            .await;
        assert!(result.acknowledged.is_empty());
        assert!(result.error.unwrap().contains("loopback"));
    }
}
