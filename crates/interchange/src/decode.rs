//! Bytes → text. XML files name their encoding in a byte-order mark or in the declaration;
//! BeerJSON is UTF-8 (a BOM tolerated).
//!
//! Decoding happens here, before the XML parser sees anything, so there is one path for every
//! encoding and the parser only ever reads UTF-8. Labels are resolved by `encoding_rs` as the WHATWG
//! Encoding Standard does: `ISO-8859-1` reads as windows-1252, which is what old Windows exporters
//! really wrote (their `’ “ ” €` at 0x80–0x9F would otherwise become control characters).

use encoding_rs::{Encoding, UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1252};

use crate::ImportError;

/// The decoded text and, when the declared encoding could not be honoured, why.
pub(crate) struct Decoded {
    pub text: String,
    pub warning: Option<String>,
}

pub(crate) fn xml(bytes: &[u8]) -> Result<Decoded, ImportError> {
    if let Some((encoding, bom_len)) = Encoding::for_bom(bytes) {
        let body = bytes.get(bom_len..).unwrap_or_default();
        return strict(encoding, body).map(|text| Decoded {
            text,
            warning: None,
        });
    }
    // UTF-16 without a BOM still starts with `<` as a 16-bit unit.
    if bytes.starts_with(&[b'<', 0]) {
        return strict(UTF_16LE, bytes).map(|text| Decoded {
            text,
            warning: None,
        });
    }
    if bytes.starts_with(&[0, b'<']) {
        return strict(UTF_16BE, bytes).map(|text| Decoded {
            text,
            warning: None,
        });
    }
    match declared_label(bytes) {
        None => Ok(utf8_or_windows_1252(bytes, "UTF-8 (no encoding declared)")),
        Some(label) => match Encoding::for_label(label.as_bytes()) {
            // A UTF-16 declaration on bytes with no 16-bit shape: the declaration is wrong.
            Some(enc) if enc == UTF_8 || enc == UTF_16LE || enc == UTF_16BE => {
                Ok(utf8_or_windows_1252(bytes, "UTF-8"))
            }
            Some(enc) => strict(enc, bytes).map(|text| Decoded {
                text,
                warning: None,
            }),
            None => {
                let mut decoded = utf8_or_windows_1252(bytes, "UTF-8");
                decoded.warning.get_or_insert_with(|| {
                    format!(
                        "unknown encoding {}: read as UTF-8",
                        crate::report::quoted(&label)
                    )
                });
                Ok(decoded)
            }
        },
    }
}

pub(crate) fn json(bytes: &[u8]) -> Result<String, ImportError> {
    let body = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(bytes);
    strict(UTF_8, body)
}

fn strict(encoding: &'static Encoding, bytes: &[u8]) -> Result<String, ImportError> {
    encoding
        .decode_without_bom_handling_and_without_replacement(bytes)
        .map(|text| text.into_owned())
        .ok_or_else(|| ImportError::Unparseable(format!("not valid {}", encoding.name())))
}

/// Many exporters declared UTF-8 (or nothing) and wrote Latin-1 bytes: read them as
/// windows-1252 rather than refuse the file, and say so.
fn utf8_or_windows_1252(bytes: &[u8], expected: &str) -> Decoded {
    match std::str::from_utf8(bytes) {
        Ok(text) => Decoded {
            text: text.to_owned(),
            warning: None,
        },
        Err(_) => Decoded {
            text: WINDOWS_1252
                .decode_without_bom_handling(bytes)
                .0
                .into_owned(),
            warning: Some(format!("not valid {expected}: read as windows-1252")),
        },
    }
}

/// The `encoding` pseudo-attribute of a leading `<?xml …?>` declaration (after optional
/// whitespace), read from raw ASCII-compatible bytes.
fn declared_label(bytes: &[u8]) -> Option<String> {
    let start = bytes.iter().position(|b| !b.is_ascii_whitespace())?;
    let rest = bytes.get(start..)?;
    if !rest.starts_with(b"<?xml") {
        return None;
    }
    let end = rest.iter().take(1_024).position(|&b| b == b'>')?;
    let decl = std::str::from_utf8(rest.get(..end)?).ok()?;
    let after = decl.split("encoding").nth(1)?;
    let after = after.trim_start().strip_prefix('=')?.trim_start();
    let quote = after.chars().next().filter(|q| *q == '"' || *q == '\'')?;
    let value = after.get(1..)?;
    let close = value.find(quote)?;
    value.get(..close).map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(bytes: &[u8]) -> String {
        xml(bytes)
            .map(|d| d.text)
            .unwrap_or_else(|e| format!("error: {e}"))
    }

    #[test]
    fn declarations_and_boms() {
        assert_eq!(
            text(b"<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><A>M\xFCnchner</A>"),
            "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><A>Münchner</A>"
        );
        assert!(text(b"<?xml version='1.0' encoding='windows-1252'?><A>\x80</A>").contains('€'));
        assert_eq!(text(b"\xEF\xBB\xBF<A>\xC3\xBC</A>"), "<A>ü</A>");
        assert_eq!(text(b"\xFF\xFE<\x00A\x00/\x00>\x00"), "<A/>");
        assert_eq!(text(b"\xFE\xFF\x00<\x00A\x00/\x00>"), "<A/>");
    }

    #[test]
    fn unknown_or_wrong_labels_fall_back_with_a_warning() {
        let d = xml(b"<?xml version=\"1.0\" encoding=\"System\"?><A/>");
        assert!(
            d.as_ref()
                .is_ok_and(|d| d.warning.is_some() && d.text.ends_with("<A/>"))
        );
        let d = xml(b"<?xml version=\"1.0\" encoding=\"UTF-8\"?><A>\xFC</A>");
        assert!(d.is_ok_and(|d| d.text.contains('ü') && d.warning.is_some()));
        // Declared UTF-16, written as single bytes.
        assert_eq!(
            text(b"<?xml version=\"1.0\" encoding=\"UTF-16\"?><A/>"),
            "<?xml version=\"1.0\" encoding=\"UTF-16\"?><A/>"
        );
    }

    #[test]
    fn broken_utf16_is_unparseable() {
        assert!(matches!(
            xml(b"\xFF\xFE\x00\xD8"),
            Err(ImportError::Unparseable(_))
        ));
    }

    #[test]
    fn json_is_utf8_with_an_optional_bom() {
        assert_eq!(json(b"\xEF\xBB\xBF{}").ok().as_deref(), Some("{}"));
        assert!(matches!(
            json(b"{\"a\":\"\xFC\"}"),
            Err(ImportError::Unparseable(_))
        ));
    }
}
