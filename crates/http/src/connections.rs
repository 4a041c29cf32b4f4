//! A cap on the connections one client address holds open at once.
//!
//! Deadlines bound how long a connection lives (the request head 5 s, a body 30 s, keep-alive
//! 5 s), but not how many a client opens: tens of thousands of connections that each trickle a
//! body use up the process's file descriptors within the deadline, and then nobody, `/healthz`
//! included, can connect. So each peer address may hold at most `limit` connections; the next
//! one is shut down as soon as it is accepted, before a byte of it is read.
//!
//! Only the connection's peer is known here, before any header: behind a reverse proxy the peer
//! is the proxy, which must not be capped (it carries everybody). Peers in
//! `WORT_TRUSTED_PROXIES` are exempt, and when a client-address header is configured without a
//! trusted list every peer is taken to be the one proxy, so nothing is capped: the proxy should
//! then limit connections per client itself.

use std::any::Any;
use std::collections::HashMap;
use std::net::{IpAddr, Shutdown};
use std::sync::{Arc, Mutex, PoisonError};

use actix_web::dev::Extensions;

use crate::client_address::ClientAddressRule;

/// `WORT_MAX_CONNECTIONS_PER_ADDRESS`'s default: far above what a household behind one address
/// opens (a browser keeps about six per origin), far below the process's descriptors.
pub const DEFAULT_LIMIT: usize = 256;

/// Open connections per peer address.
#[derive(Debug)]
pub struct ConnectionCap {
    /// `0`: no cap.
    limit: usize,
    rule: ClientAddressRule,
    open: Mutex<HashMap<IpAddr, usize>>,
}

/// One admitted connection; dropped with the connection, it gives its place back.
#[derive(Debug)]
pub struct Admitted {
    cap: Arc<ConnectionCap>,
    peer: IpAddr,
}

impl Drop for Admitted {
    fn drop(&mut self) {
        let mut open = self.cap.open.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(count) = open.get_mut(&self.peer) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                open.remove(&self.peer);
            }
        }
    }
}

impl ConnectionCap {
    pub fn new(limit: usize, rule: ClientAddressRule) -> Arc<ConnectionCap> {
        Arc::new(ConnectionCap {
            limit,
            rule,
            open: Mutex::new(HashMap::new()),
        })
    }

    /// Whether `peer` is capped at all (see the module's comment on proxies).
    fn applies_to(&self, peer: IpAddr) -> bool {
        if self.limit == 0 {
            return false;
        }
        match (&self.rule.header, self.rule.trusted_proxies.is_empty()) {
            (None, _) => true,
            (Some(_), true) => false,
            (Some(_), false) => !self.rule.trusted_proxies.iter().any(|c| c.contains(peer)),
        }
    }

    /// A place for one more connection from `peer`, or `None` when it holds `limit` already.
    /// Uncapped peers get a place that counts nothing.
    pub fn admit(self: &Arc<Self>, peer: IpAddr) -> Option<Option<Admitted>> {
        if !self.applies_to(peer) {
            return Some(None);
        }
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        let count = open.entry(peer).or_insert(0);
        if *count >= self.limit {
            return None;
        }
        *count += 1;
        Some(Some(Admitted {
            cap: Arc::clone(self),
            peer,
        }))
    }

    /// For `HttpServer::on_connect`: admits the new connection (its place is kept in the
    /// connection's extensions, which actix drops when the connection ends) or shuts its socket.
    pub fn on_connect(self: &Arc<Self>, connection: &dyn Any, extensions: &mut Extensions) {
        let Some(stream) = connection.downcast_ref::<actix_web::rt::net::TcpStream>() else {
            return;
        };
        let Ok(peer) = stream.peer_addr() else {
            return;
        };
        match self.admit(peer.ip()) {
            Some(Some(admitted)) => {
                extensions.insert(admitted);
            }
            Some(None) => {}
            None => {
                tracing::debug!(peer = %peer.ip(), "connection refused: too many from this address");
                // The dispatcher then reads end-of-file and drops the connection at once.
                let _ = socket2::SockRef::from(stream).shutdown(Shutdown::Both);
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::client_address::Cidr;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn a_peer_gets_its_limit_and_a_place_back_when_one_closes() {
        let cap = ConnectionCap::new(2, ClientAddressRule::default());
        let a = cap.admit(ip("10.0.0.1")).unwrap();
        let b = cap.admit(ip("10.0.0.1")).unwrap();
        assert!(a.is_some() && b.is_some());
        assert!(cap.admit(ip("10.0.0.1")).is_none(), "third refused");
        assert!(
            cap.admit(ip("10.0.0.2")).is_some(),
            "another address is not affected"
        );
        drop(a);
        assert!(cap.admit(ip("10.0.0.1")).is_some(), "a place came back");
    }

    #[test]
    fn proxies_are_never_capped_and_zero_means_no_cap() {
        let behind = ClientAddressRule {
            header: Some("X-Forwarded-For".into()),
            trusted_proxies: vec![Cidr::parse("10.0.0.10/32").unwrap()],
        };
        let cap = ConnectionCap::new(1, behind);
        let _first = cap.admit(ip("10.0.0.10")).unwrap();
        assert!(cap.admit(ip("10.0.0.10")).is_some(), "the trusted proxy");
        let _other = cap.admit(ip("10.0.0.11")).unwrap();
        assert!(
            cap.admit(ip("10.0.0.11")).is_none(),
            "a peer that is no proxy"
        );

        let header_only = ClientAddressRule {
            header: Some("X-Forwarded-For".into()),
            trusted_proxies: Vec::new(),
        };
        let cap = ConnectionCap::new(1, header_only);
        let _first = cap.admit(ip("10.0.0.1")).unwrap();
        assert!(
            cap.admit(ip("10.0.0.1")).is_some(),
            "every peer is the proxy"
        );

        let off = ConnectionCap::new(0, ClientAddressRule::default());
        let _first = off.admit(ip("10.0.0.1")).unwrap();
        assert!(off.admit(ip("10.0.0.1")).is_some());
    }
}
