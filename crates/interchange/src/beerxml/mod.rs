//! BeerXML 1.0: a small element tree read with quick-xml, then mapped field by field.

pub(crate) mod export;
pub(crate) mod import;
mod tree;
