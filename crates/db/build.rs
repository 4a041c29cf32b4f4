//! `embed_migrations!` reads `migrations/` while compiling, but cargo only watches this crate's
//! own files: without this, a changed or added migration would not rebuild wort-db, and the
//! binary would keep embedding the old ones.

// Cargo reads a build script's instructions from its standard output.
#[allow(clippy::print_stdout)]
fn main() {
    println!("cargo:rerun-if-changed=../../migrations");
}
