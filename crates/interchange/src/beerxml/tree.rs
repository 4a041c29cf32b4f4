//! A BeerXML document as a tree of elements (names upper-cased, text unescaped, attributes
//! dropped: BeerXML carries everything in element text).
//!
//! Safety: a DOCTYPE is refused before anything it declares could matter (quick-xml never expands
//! entities; only the five predefined ones and character references are decoded), and depth and
//! element count are capped, so a hostile file costs at most a bounded tree.

use quick_xml::Reader;
use quick_xml::events::Event;

use crate::ImportError;
use crate::limits::{MAX_XML_DEPTH, MAX_XML_ELEMENTS};
use crate::report::invalid_file;

#[derive(Debug, Default, Clone, PartialEq)]
pub(crate) struct Node {
    pub name: String,
    pub text: String,
    pub children: Vec<Node>,
}

impl Node {
    /// The children called `name`.
    pub fn all<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Node> + 'a {
        self.children.iter().filter(move |c| c.name == name)
    }

    pub fn child(&self, name: &str) -> Option<&Node> {
        self.children.iter().find(|c| c.name == name)
    }

    /// The trimmed text of child `name`; an empty element counts as absent.
    pub fn text_of(&self, name: &str) -> Option<&str> {
        self.child(name)
            .map(|c| c.text.trim())
            .filter(|t| !t.is_empty())
    }
}

pub(crate) fn parse(text: &str) -> Result<Node, ImportError> {
    let mut reader = Reader::from_str(text);
    let mut stack: Vec<Node> = Vec::new();
    let mut root: Option<Node> = None;
    let mut elements = 0usize;
    loop {
        let event = reader.read_event().map_err(|e| {
            ImportError::Unparseable(format!(
                "malformed XML at byte {}: {e}",
                reader.error_position()
            ))
        })?;
        match event {
            Event::DocType(_) => {
                return Err(invalid_file(
                    "custom",
                    &[],
                    "A DOCTYPE is not accepted: BeerXML needs no DTD and entities are never expanded",
                ));
            }
            Event::Start(_) | Event::Empty(_) if root.is_some() => {
                return Err(ImportError::Unparseable(
                    "more than one root element".into(),
                ));
            }
            Event::Start(e) => {
                elements += 1;
                check_bounds(stack.len() + 1, elements)?;
                stack.push(Node {
                    name: name_of(e.name().as_ref()),
                    ..Node::default()
                });
            }
            Event::Empty(e) => {
                elements += 1;
                check_bounds(stack.len() + 1, elements)?;
                let node = Node {
                    name: name_of(e.name().as_ref()),
                    ..Node::default()
                };
                attach(&mut stack, &mut root, node);
            }
            Event::Text(t) => {
                // quick-xml hands references (`&amp;`, `&#32;`) over as events of their own.
                let text = t.xml10_content().map_err(|e| {
                    ImportError::Unparseable(format!(
                        "malformed XML near byte {}: {e}",
                        reader.buffer_position()
                    ))
                })?;
                if let Some(top) = stack.last_mut() {
                    top.text.push_str(&text);
                }
            }
            Event::GeneralRef(r) => {
                let resolved = resolve_reference(&r).ok_or_else(|| {
                    ImportError::Unparseable(format!(
                        "an undefined or invalid reference &{}; near byte {} (only XML's five \
                         entities and character references are read)",
                        String::from_utf8_lossy(&r),
                        reader.buffer_position()
                    ))
                })?;
                if let Some(top) = stack.last_mut() {
                    top.text.push_str(&resolved);
                }
            }
            Event::CData(c) => {
                if let Some(top) = stack.last_mut() {
                    top.text.push_str(&String::from_utf8_lossy(&c.into_inner()));
                }
            }
            Event::End(_) => {
                if let Some(node) = stack.pop() {
                    attach(&mut stack, &mut root, node);
                }
            }
            Event::Eof => break,
            Event::Decl(_) | Event::PI(_) | Event::Comment(_) => {}
        }
    }
    if !stack.is_empty() {
        return Err(ImportError::Unparseable(
            "the document ends inside an element (truncated file?)".into(),
        ));
    }
    root.ok_or_else(|| ImportError::Unparseable("no root element".into()))
}

/// A character reference (`&#32;`, `&#x20;`) or one of XML's five predefined entities; any
/// other entity is `None` (no DTD is ever read, so none can be defined).
fn resolve_reference(r: &quick_xml::events::BytesRef<'_>) -> Option<String> {
    if r.is_char_ref() {
        return r.resolve_char_ref().ok().flatten().map(String::from);
    }
    let name = r.decode().ok()?;
    quick_xml::escape::resolve_xml_entity(&name).map(str::to_owned)
}

fn name_of(raw: &[u8]) -> String {
    String::from_utf8_lossy(raw).to_ascii_uppercase()
}

fn attach(stack: &mut [Node], root: &mut Option<Node>, node: Node) {
    match stack.last_mut() {
        Some(parent) => parent.children.push(node),
        None => *root = Some(node),
    }
}

fn check_bounds(depth: usize, elements: usize) -> Result<(), ImportError> {
    if depth > MAX_XML_DEPTH {
        return Err(invalid_file(
            "too_big",
            &[],
            &format!("Elements nested deeper than {MAX_XML_DEPTH} levels"),
        ));
    }
    if elements > MAX_XML_ELEMENTS {
        return Err(invalid_file(
            "too_big",
            &[],
            &format!("More than {MAX_XML_ELEMENTS} elements"),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_text_references_and_cdata() {
        let n = parse("<a><b>x&#32;y &amp; z</b><c/><d><![CDATA[<i>]]></d></a>");
        let n = n.unwrap_or_default();
        assert_eq!(n.name, "A");
        assert_eq!(n.text_of("B"), Some("x y & z"));
        assert_eq!(n.text_of("C"), None);
        assert_eq!(n.text_of("D"), Some("<i>"));
    }

    #[test]
    fn refuses_doctype_undefined_entities_and_truncation() {
        assert!(matches!(
            parse("<!DOCTYPE a [<!ENTITY x \"y\">]><a>&x;</a>"),
            Err(ImportError::Invalid(_))
        ));
        assert!(matches!(
            parse("<a>&x;</a>"),
            Err(ImportError::Unparseable(_))
        ));
        assert!(matches!(
            parse("<a><b>1</b>"),
            Err(ImportError::Unparseable(_))
        ));
        assert!(matches!(parse("<a></b>"), Err(ImportError::Unparseable(_))));
        assert!(matches!(
            parse("<a/><b/>"),
            Err(ImportError::Unparseable(_))
        ));
        assert!(matches!(parse("   "), Err(ImportError::Unparseable(_))));
    }

    #[test]
    fn bounds_depth() {
        let deep = format!("{}{}", "<a>".repeat(33), "</a>".repeat(33));
        assert!(matches!(parse(&deep), Err(ImportError::Invalid(_))));
        let ok = format!("{}{}", "<a>".repeat(32), "</a>".repeat(32));
        assert!(parse(&ok).is_ok());
    }
}
