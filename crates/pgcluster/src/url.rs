//! Connection URLs for a Unix-socket-only server.

use std::{os::unix::ffi::OsStrExt, path::Path};

/// `postgresql://postgres@/<db>?host=<socket dir>&port=<port>`, understood by libpq (psql) and
/// tokio-postgres alike. The authority has no host on purpose: tokio-postgres would add a TCP
/// `localhost:5432` in front of the socket if it had one.
pub(crate) fn database_url(socket_dir: &Path, port: u16, db: &str) -> String {
    format!(
        "postgresql://postgres@/{}?host={}&port={port}",
        encode(db.as_bytes(), false),
        encode(socket_dir.as_os_str().as_bytes(), true)
    )
}

fn encode(bytes: &[u8], keep_slash: bool) -> String {
    let mut out = String::with_capacity(bytes.len());
    for &b in bytes {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) || (keep_slash && b == b'/') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use super::*;

    #[test]
    fn urls_name_the_socket_dir_and_port() {
        assert_eq!(
            database_url(Path::new("/srv/.wort/pg/run"), 23456, "wort"),
            "postgresql://postgres@/wort?host=/srv/.wort/pg/run&port=23456"
        );
    }

    #[test]
    fn odd_characters_are_percent_encoded() {
        assert_eq!(
            database_url(Path::new("/tmp/a b&c"), 1, "my db/x"),
            "postgresql://postgres@/my%20db%2Fx?host=/tmp/a%20b%26c&port=1"
        );
    }
}
