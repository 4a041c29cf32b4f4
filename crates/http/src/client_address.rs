//! Which address a request comes from, for the per-address limits of sign-up, sign-in and
//! shared recipes.
//!
//! Behind a reverse proxy the connection's peer is the proxy; the client's address is in a
//! header the proxies append to (`WORT_CLIENT_IP_HEADER`, e.g. `X-Forwarded-For`). Its entries
//! are written left to right by whoever forwarded the request, the client first: the left-most
//! is whatever the client chose to send, so it is never believed. The client is the right-most
//! entry not added by a trusted proxy (`WORT_TRUSTED_PROXIES`), and the header is read at all only
//! when the peer is one of them. With a header but no trusted list, the peer is taken to be the
//! one proxy in front, and the right-most entry (the one it added) is the client.

use std::net::IpAddr;

/// A network in CIDR notation (`10.0.0.0/8`, `::1/128`); a bare address is a /32 or /128.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cidr {
    network: IpAddr,
    prefix: u8,
}

impl Cidr {
    pub fn parse(text: &str) -> Option<Cidr> {
        let text = text.trim();
        let (address, prefix) = match text.split_once('/') {
            Some((a, p)) => (a.parse::<IpAddr>().ok()?, Some(p.parse::<u8>().ok()?)),
            None => (text.parse::<IpAddr>().ok()?, None),
        };
        let max = if address.is_ipv4() { 32 } else { 128 };
        let prefix = prefix.unwrap_or(max);
        (prefix <= max).then_some(Cidr {
            network: address,
            prefix,
        })
    }

    pub fn contains(&self, address: IpAddr) -> bool {
        match (self.network, address) {
            (IpAddr::V4(net), IpAddr::V4(a)) => {
                same_prefix(&net.octets(), &a.octets(), self.prefix)
            }
            (IpAddr::V6(net), IpAddr::V6(a)) => {
                same_prefix(&net.octets(), &a.octets(), self.prefix)
            }
            _ => false,
        }
    }
}

/// Whether the first `bits` bits of two addresses of the same family agree.
fn same_prefix(a: &[u8], b: &[u8], bits: u8) -> bool {
    let bits = usize::from(bits);
    let whole = bits / 8;
    let rest = bits % 8;
    if a.get(..whole) != b.get(..whole) {
        return false;
    }
    if rest == 0 {
        return true;
    }
    let mask = 0xffu8 << (8 - rest);
    match (a.get(whole), b.get(whole)) {
        (Some(x), Some(y)) => x & mask == y & mask,
        _ => false,
    }
}

/// How this deployment finds a client's address.
#[derive(Debug, Clone, Default)]
pub struct ClientAddressRule {
    /// `WORT_CLIENT_IP_HEADER`; `None`: the connection's peer is the client.
    pub header: Option<String>,
    /// `WORT_TRUSTED_PROXIES`.
    pub trusted_proxies: Vec<Cidr>,
}

impl ClientAddressRule {
    fn trusted(&self, entry: &str) -> bool {
        entry
            .parse::<IpAddr>()
            .is_ok_and(|a| self.trusted_proxies.iter().any(|c| c.contains(a)))
    }

    /// The address `req` comes from: its peer and, where configured, the header's occurrences.
    pub fn of_request(&self, req: &actix_web::HttpRequest) -> String {
        let header = self.header.as_deref().and_then(|name| {
            let values: Vec<&str> = req
                .headers()
                .get_all(name)
                .filter_map(|v| v.to_str().ok())
                .collect();
            (!values.is_empty()).then(|| values.join(","))
        });
        self.client(req.peer_addr().map(|a| a.ip()), header.as_deref())
    }

    /// The client's address, from the peer and the header's value (all occurrences joined by
    /// commas), as the module documentation says.
    pub fn client(&self, peer: Option<IpAddr>, header_value: Option<&str>) -> String {
        let peer_text = peer.map_or_else(|| "unknown".to_owned(), |p| p.to_string());
        let (Some(_), Some(value)) = (&self.header, header_value) else {
            return peer_text;
        };
        if !self.trusted_proxies.is_empty() && !self.trusted(&peer_text) {
            // Not through one of our proxies: the header is the client's own words.
            return peer_text;
        }
        let entries: Vec<&str> = value
            .split(',')
            .map(str::trim)
            .filter(|e| !e.is_empty())
            .collect();
        entries
            .iter()
            .rev()
            .find(|e| !self.trusted(e))
            .or(entries.first())
            .map_or(peer_text, |e| (*e).to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> Option<IpAddr> {
        s.parse().ok()
    }

    fn rule(trusted: &[&str]) -> ClientAddressRule {
        ClientAddressRule {
            header: Some("X-Forwarded-For".to_owned()),
            trusted_proxies: trusted.iter().map(|t| Cidr::parse(t).unwrap()).collect(),
        }
    }

    #[test]
    fn cidrs_match_their_networks_only() {
        let net = Cidr::parse("10.1.0.0/16").unwrap();
        assert!(net.contains(ip("10.1.200.3").unwrap()));
        assert!(!net.contains(ip("10.2.0.1").unwrap()));
        let odd = Cidr::parse("192.168.0.0/23").unwrap();
        assert!(odd.contains(ip("192.168.1.255").unwrap()));
        assert!(!odd.contains(ip("192.168.2.0").unwrap()));
        assert!(Cidr::parse("::1").unwrap().contains(ip("::1").unwrap()));
        assert!(
            !Cidr::parse("::1")
                .unwrap()
                .contains(ip("127.0.0.1").unwrap())
        );
        assert!(
            Cidr::parse("0.0.0.0/0")
                .unwrap()
                .contains(ip("8.8.8.8").unwrap())
        );
        assert_eq!(Cidr::parse("10.0.0.0/33"), None);
        assert_eq!(Cidr::parse("nonsense"), None);
    }

    #[test]
    fn without_a_header_the_peer_is_the_client() {
        let plain = ClientAddressRule::default();
        assert_eq!(
            plain.client(ip("203.0.113.9"), Some("1.2.3.4")),
            "203.0.113.9"
        );
        assert_eq!(plain.client(None, None), "unknown");
    }

    #[test]
    fn the_right_most_untrusted_entry_is_the_client_never_the_left_most() {
        let r = rule(&["10.0.0.0/8"]);
        // The client wrote "6.6.6.6" itself; our proxy 10.0.0.2 appended the real 198.51.100.7.
        let header = "6.6.6.6, 198.51.100.7";
        assert_eq!(r.client(ip("10.0.0.2"), Some(header)), "198.51.100.7");
        // Two of our proxies in a row are skipped.
        assert_eq!(
            r.client(ip("10.0.0.2"), Some("6.6.6.6, 198.51.100.7, 10.0.0.5")),
            "198.51.100.7"
        );
        // Everything trusted: the left-most is all there is.
        assert_eq!(r.client(ip("10.0.0.2"), Some("10.0.0.9")), "10.0.0.9");
    }

    #[test]
    fn a_header_from_a_client_that_is_not_our_proxy_is_ignored() {
        let r = rule(&["10.0.0.0/8"]);
        assert_eq!(
            r.client(ip("203.0.113.9"), Some("198.51.100.7")),
            "203.0.113.9"
        );
    }

    #[test]
    fn with_no_trusted_list_the_peer_is_the_one_proxy_and_its_entry_counts() {
        let r = rule(&[]);
        assert_eq!(
            r.client(ip("127.0.0.1"), Some("6.6.6.6, 198.51.100.7")),
            "198.51.100.7"
        );
        assert_eq!(r.client(ip("127.0.0.1"), Some(" , ")), "127.0.0.1");
    }
}
