pub(crate) mod export;
pub(crate) mod import;
